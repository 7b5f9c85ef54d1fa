"""The Real model page's Open a model: a model folder typed there is chosen and drawn with every view the shipped
models get; a model that cannot be opened is refused in one line, and the page goes on working."""

from __future__ import annotations

import time

import pytest

from attnviz.models import registry
from attnviz.ui.model_runs import OPEN
from attnviz.ui.text import literal
from bench.harness.apptest import open_app
from tests.models.test_open import REFUSALS, TINY, refused_folder
from tests.support.apptest import button, setting_key

PAGE = "real_model"


@pytest.fixture(autouse=True)
def no_user_model(monkeypatch):
    monkeypatch.setattr(registry, "_user", {})
    monkeypatch.setenv(registry.SERVED_FOLDERS, "/")  # this server's visitors may open any folder


def ready(at, timeout: float = 120):
    """Reruns the page (its waiting fragment's job on a server) until the run is drawn or refused."""
    deadline = time.monotonic() + timeout
    while [i for i in at.info if i.value.startswith(("Loading", "Running", "Waiting"))]:
        assert time.monotonic() < deadline
        time.sleep(0.1)
        at.run()
    assert not at.exception, at.exception
    return at


def page_opening(folder) -> object:
    """The page, opened on a model folder from the start (not the shipped encoder)."""
    at = open_app()
    at.session_state[setting_key(PAGE, "model")] = str(folder)
    return ready(at.switch_page(f"pages/{PAGE}.py").run())


def open_model(at, name: str):
    at.text_input(key=f"{OPEN}{PAGE}").input(name)
    return ready(at.run())


@pytest.mark.parametrize(("family", "design"), [("gpt2", "GPT-2"), ("llama", "Llama"), ("qwen2", "Qwen2")])
def test_an_opened_model_gets_every_view(family, design):
    at = open_model(page_opening(TINY / "bert"), str(TINY / family))
    model = at.selectbox(key=setting_key(PAGE, "model"))
    assert model.value == str(TINY / family) and model.options[-1] == family  # shown by the folder's own name
    assert at.text_input(key=f"{OPEN}{PAGE}").value == ""  # the box empties once the model is chosen
    assert at.caption[0].value.startswith(f"{family} is a decoder ({design} design)")  # a folder by its name
    assert "2 layers × 4 heads" in at.caption[0].value
    assert [s.value for s in at.subheader] == ["Is this attention an explanation?", "What comes next"]
    assert not at.error
    at.selectbox(key=setting_key(PAGE, "removed")).set_value(2)  # Take this token away: a run without it
    at = ready(at.run())
    assert len(at.table) == 1 and not at.error  # the next five tokens, before and after
    button(at, "Open in Playground").click().run()
    assert not at.exception


def test_the_encoder_family_is_named_too():
    at = page_opening(TINY / "bert")
    assert at.caption[0].value.startswith("bert is an encoder (BERT design)")
    assert [s.value for s in at.subheader] == ["Is this attention an explanation?"]


@pytest.mark.parametrize("refusal", REFUSALS)
def test_a_refusal_is_one_line_and_the_page_still_works(tmp_path, refusal):
    at = page_opening(TINY / "gpt2")
    name, message = refused_folder(tmp_path, refusal)
    at = open_model(at, name)
    assert [error.value for error in at.error] == [literal(message)]
    assert name not in registry.loaded_models()  # nothing of the refused model was loaded
    at = open_model(at, str(TINY / "llama"))  # the page still works: another model opens and is drawn
    assert not at.error and at.caption[0].value.startswith("llama is a decoder (Llama design)")


def test_a_share_link_names_a_hub_model_and_opens_it(monkeypatch, tmp_path):
    from huggingface_hub import constants

    from attnviz.classroom.share import PARAM, encode
    from attnviz.core.playground_state import PlaygroundState
    from tests.support.live import free_port

    monkeypatch.setattr(constants, "ENDPOINT", f"http://127.0.0.1:{free_port()}")  # offline: the refusal is at once
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))
    link = encode(PlaygroundState(), PAGE, {"model": "someone/tiny-gpt2"})  # what Add to my lesson stores
    shared = ready(open_app(**{PARAM: link}).switch_page(f"pages/{PAGE}.py").run())  # a student opens it
    model = shared.selectbox(key=setting_key(PAGE, "model"))
    assert model.value == "someone/tiny-gpt2" and "someone/tiny-gpt2" in model.options
    assert [error.value for error in shared.error] == [
        literal(
            "The Hugging Face hub cannot be reached and someone/tiny-gpt2 is not in this machine's cache: check the "
            "connection, or open a model folder."
        )
    ]
    shared = open_model(shared, str(TINY / "llama"))  # the page still works after the refusal
    assert not shared.error and shared.caption[0].value.startswith("llama is a decoder (Llama design)")
