"""Fixtures every test folder may use: the two real models, each loaded once per test session (tests/models and the
Real model page's app tests share them; one decoder conversion, in one folder, per session).

A test that needs a model's wheel skips when it is missing, unless ATTNVIZ_REQUIRE_MODELS=1 (tests/models/conftest.py).

``redis_server``: a real Redis-protocol server for the shared class tally, one a test (tests/support/redis_store.py).
Without ``redis-server`` or ``valkey-server`` on PATH its tests skip, unless ATTNVIZ_REQUIRE_REDIS=1 (set by .ci/run).
"""

from __future__ import annotations

import os
import shutil

import pytest

from attnviz.models import load_model
from tests.models.conftest import require_package
from tests.support.redis_store import RedisServer, find_server


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


@pytest.fixture
def redis_server():
    try:
        executable = find_server()
    except FileNotFoundError as error:
        if os.environ.get("ATTNVIZ_REQUIRE_REDIS") == "1":
            pytest.fail(f"ATTNVIZ_REQUIRE_REDIS=1 but {error}", pytrace=False)
        pytest.skip(str(error))
    server = RedisServer(executable)
    try:
        yield server.start()
    finally:
        server.close()
