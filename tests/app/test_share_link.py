"""Share links in a running app: opening one restores the state, and the address always holds the current link."""

import base64
import json
import zlib
from dataclasses import replace

import pytest
from streamlit.testing.v1 import AppTest

from attnviz.classroom.share import decode, encode
from attnviz.core.playground_state import PlaygroundState, apply_edits, load_example
from attnviz.lessons.playground import OPENING
from attnviz.playground.session import Session
from tests.support.apptest import APP, as_read, control_value, open_tab, setting_key, use_control


def classroom_page():
    """A page with only the classroom controls, so they are tested apart from the Playground's layout."""
    from attnviz.ui.classroom import export_buttons, restore_from_link, share_link_box
    from attnviz.ui.playground_host import begin

    begin()  # as the router does
    restore_from_link("playground")
    share_link_box("playground")
    export_buttons()


def address_boxes(at: AppTest) -> list[str]:
    """The keys of the share boxes on the page (each shows the browser's address, which holds the link)."""
    return [
        c.proto.id.rsplit("-", 1)[-1] for c in at.get("bidi_component") if c.proto.component_name == "attnviz_address"
    ]


def shared_state() -> PlaygroundState:
    state = replace(load_example(PlaygroundState(), "movie_negation"), temperature=0.65, blocked_keys=(7,))
    state, _ = apply_edits(state, "Q", {(4, 0): 0.1 + 0.2, (4, 1): -3.25})
    state, _ = apply_edits(state, "V", {(10, 1): 1 / 3})
    return state


def open_link(link: str | None) -> AppTest:
    at = AppTest.from_function(classroom_page, default_timeout=30)
    if link is not None:
        at.query_params["s"] = link
    at.run()
    assert not at.exception
    return at


def test_a_link_restores_the_state_and_the_address_keeps_it():
    state = shared_state()
    link = encode(state)
    at = open_link(link)
    assert at.session_state["playground"].state == state
    assert not at.error
    assert at.query_params["s"] == link
    assert address_boxes(at) == ["share.address"]  # the box shows the browser's address: this link


def test_the_link_is_applied_once_so_later_changes_stick():
    at = open_link(encode(shared_state()))
    changed = replace(shared_state(), causal=True)
    at.session_state["playground"] = Session(state=changed)
    at.run()
    assert at.session_state["playground"].state == changed
    assert at.query_params["s"] == encode(changed)  # the address follows the change


@pytest.mark.parametrize(
    ("link", "message"),
    [
        ("2.eNqrrgUAAXUA-Q", "This share link was made by a newer version of attnviz (link format 2;"),
        (encode(shared_state())[:-6], "This share link is damaged or incomplete"),
        ("1." + "A" * 7_000, "This share link is too long (7,002 characters; the limit is 6,000)"),
        (
            "1." + base64.urlsafe_b64encode(zlib.compress(b'{"k": 0}')).rstrip(b"=").decode(),
            "This share link has a setting attnviz can't use: d_k (the query and key size) must be",
        ),
    ],
)
def test_a_bad_link_explains_itself_and_falls_back_to_the_defaults(link, message):
    at = open_link(link)
    assert len(at.error) == 1
    assert as_read(at.error[0].value).startswith(message)
    assert as_read(at.error[0].value).endswith("The default settings are shown instead.")
    assert at.session_state["playground"].state == OPENING
    assert at.query_params["s"] == encode(OPENING)  # the broken link is gone from the address
    at.run()
    assert not at.error  # said once, not on every rerun


def test_no_link_leaves_the_defaults_and_shows_their_link():
    at = open_link(None)
    assert at.session_state["playground"].state == OPENING
    assert not at.error
    assert at.query_params["s"] == encode(OPENING) and address_boxes(at) == ["share.address"]


def test_three_download_buttons_build_their_files_only_when_clicked():
    at = open_tab(open_link(None), "playground", "Download")
    buttons = at.get("download_button")
    assert [button.label for button in buttons] == [
        "Download CSV tables (.zip)",
        "Download JSON",
        "Download NumPy (.npz)",
    ]
    assert all(button.proto.deferred_file_id and button.proto.ignore_rerun for button in buttons)


def test_opening_the_app_with_a_link_restores_the_playground():
    state = shared_state()
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["s"] = encode(state)
    at.run()
    assert not at.exception
    assert at.session_state["playground"].state == state
    assert control_value(at, "temperature") == 0.65  # the controls show the restored values, not the defaults


@pytest.mark.parametrize("page", ["step_by_step", "geometry", "why_scale", "multi_head"])
def test_every_guided_page_keeps_a_link_to_itself_with_the_playground_state(page):
    at = AppTest.from_file(APP, default_timeout=60).run()
    use_control(at, "causal", True)
    at.switch_page(f"pages/{page}.py").run()
    assert not at.exception
    shared = decode(at.query_params["s"])
    assert shared.page == page and shared.state.causal is True
    assert at.query_params["s"] == encode(shared.state, page, dict(shared.settings))
    assert address_boxes(at) == ["share.address"]


def test_opening_a_link_to_a_guided_page_goes_there():
    state = shared_state()
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["s"] = encode(state, "step_by_step")
    at.run()
    assert not at.exception
    assert at.session_state["playground"].state == state
    assert any(title.value == "Step by step" for title in at.title)


def test_a_guided_pages_setup_and_presenter_mode_travel_in_its_link():
    """A teacher prepares "Why we scale at d_k = 512" for a projector: the link opens it so in a fresh browser."""
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("pages/why_scale.py").run()
    at.slider(key=setting_key("why_scale", "d_k")).set_value(512).run()
    at.toggle(key="presenter").set_value(True).run()
    shared = decode(at.query_params["s"])
    assert dict(shared.settings)["d_k"] == 512 and shared.presenter is True

    fresh = AppTest.from_file(APP, default_timeout=60)
    fresh.query_params["s"] = at.query_params["s"]
    fresh.run()
    assert not fresh.exception
    assert fresh.slider(key=setting_key("why_scale", "d_k")).value == 512
    assert fresh.toggle(key="presenter").value is True


def test_a_page_setting_outside_its_range_is_refused_in_plain_words():
    wire = {"p": "why_scale", "g": {"d_k": 100_000}}
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["s"] = (
        "1." + base64.urlsafe_b64encode(zlib.compress(json.dumps(wire).encode())).rstrip(b"=").decode()
    )
    at.run()
    assert not at.exception
    assert "d_k must be a whole number from 1 to 512, not 100000" in as_read(at.error[0].value)
