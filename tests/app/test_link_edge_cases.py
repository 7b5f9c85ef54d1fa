"""Addresses a student can end up with: a share link pasted twice, a sentence longer than the app uses, a reload.

With several ``s=`` values in the address the first one that opens wins: a link pasted after another
(``…?s=A&s=B``) is usually a second copy, and a good link must never lose to a damaged one behind it.
"""

from dataclasses import replace

from streamlit.runtime.state.query_params import QueryParams
from streamlit.testing.v1 import AppTest

from attnviz.classroom.share import decode, encode
from attnviz.core.limits import MAX_TOKENS
from attnviz.core.playground_state import PlaygroundState, load_example
from attnviz.lessons.playground import OPENING
from tests.support.apptest import APP, as_read, control_key, setting_key, use_control

GOOD = replace(load_example(PlaygroundState(), "movie_negation"), causal=True)
OTHER_GOOD = replace(PlaygroundState(), temperature=0.5)
DAMAGED = encode(GOOD)[:-6]
TOO_NEW = "2.eNqrrgUAAXUA-Q"
LONG_SENTENCE = " ".join(f"w{i}" for i in range(MAX_TOKENS + 2))  # 130 tokens
LONG_MESSAGE = f"The sentence has {MAX_TOKENS + 2} tokens; only the first {MAX_TOKENS} are used."


def open_address(*links: str, page: str | None = None) -> AppTest:
    """The app opened on an address holding ``links`` as its ``s=`` values, in order."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["s"] = list(links)
    at.run()
    if page is not None:
        at.switch_page(f"pages/{page}.py").run()
    assert not at.exception, at.exception
    return at


def shown(at: AppTest) -> list[str]:
    """Every error, warning and info box on the page, as read."""
    return [as_read(box.value) for box in [*at.error, *at.warning, *at.info]]


def test_a_good_link_wins_over_a_damaged_one_after_it():
    at = open_address(encode(GOOD), DAMAGED)
    assert at.session_state["playground"].state == GOOD
    assert shown(at) == []
    assert at.query_params["s"] == encode(GOOD)  # the address now holds the one link that opened


def test_a_good_link_wins_over_a_damaged_one_before_it_too():
    at = open_address(TOO_NEW, encode(GOOD))
    assert at.session_state["playground"].state == GOOD
    assert shown(at) == []
    assert at.query_params["s"] == encode(GOOD)


def test_of_two_different_good_links_the_first_wins_and_the_page_says_so():
    at = open_address(encode(GOOD), encode(OTHER_GOOD))
    assert at.session_state["playground"].state == GOOD
    assert shown(at) == ["The address holds 2 different share links; the first one is shown."]
    assert at.query_params["s"] == encode(GOOD)
    at.run()
    assert shown(at) == []  # said once


def test_the_same_link_twice_is_simply_that_link():
    at = open_address(encode(GOOD), encode(GOOD))
    assert at.session_state["playground"].state == GOOD
    assert shown(at) == []


def test_when_no_link_opens_the_first_ones_problem_is_told_once_and_the_defaults_shown():
    at = open_address(DAMAGED, TOO_NEW)
    assert at.session_state["playground"].state == OPENING
    assert len(shown(at)) == 1
    assert shown(at)[0].startswith("This share link is damaged or incomplete")
    assert shown(at)[0].endswith("The default settings are shown instead.")
    assert at.query_params["s"] == encode(OPENING)
    at.run()
    assert shown(at) == []


def test_a_good_link_to_a_guided_page_after_a_damaged_one_opens_that_page():
    at = open_address(DAMAGED, encode(GOOD, "step_by_step"))
    assert at.session_state["playground"].state == GOOD
    assert any(title.value == "Step by step" for title in at.title)
    assert decode(at.query_params["s"]).page == "step_by_step"


def test_every_run_sends_its_link_even_when_the_browser_reported_that_address(monkeypatch):
    """With fast clicking a run cut short can still set the address after the browser sent its report with the next
    click, so a run that trusted that report would leave the previous link showing (seen in tests/e2e/
    test_robustness.py). Streamlit sends the address only when the app sets it: count what each run sends."""
    sent, send = [], QueryParams._send_query_param_msg

    def recording_send(query_params):
        sent.append(query_params.get_all("s"))
        send(query_params)

    monkeypatch.setattr(QueryParams, "_send_query_param_msg", recording_send)
    at = AppTest.from_file(APP, default_timeout=60).run()
    use_control(at, "causal", True)
    link = encode(at.session_state["playground"].state)
    assert at.query_params["s"] == link  # the browser reports this address with its next rerun
    sent.clear()
    at.run()
    assert sent == [[link]]


# ----------------------------------------------------------------------------- more tokens than the app uses


def test_a_typed_sentence_over_the_token_limit_says_so_once():
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.text_input(key=control_key("sentence")).set_value(LONG_SENTENCE).run()
    assert not at.exception
    assert shown(at) == [LONG_MESSAGE]
    assert at.session_state["playground"].state.n == MAX_TOKENS
    use_control(at, "causal", True)
    assert shown(at) == []  # not repeated by the next move


def test_a_link_with_a_sentence_over_the_token_limit_says_so_once():
    long = replace(PlaygroundState(), sentence=LONG_SENTENCE, focus=0)
    at = open_address(encode(long))
    assert at.session_state["playground"].state == long
    assert shown(at) == [LONG_MESSAGE]
    at.run()
    assert shown(at) == []


# ----------------------------------------------------------------------------- a reload


def test_a_reload_restores_the_playground_and_the_guided_pages_own_settings():
    """A reload is a new session: the address brings back the Playground and the page with its own settings (they are
    in the link), and the share box says what is not."""
    at = open_address(encode(GOOD), page="why_scale")
    at.slider(key=setting_key("why_scale", "d_k")).set_value(16).run()
    address = at.query_params["s"]

    reloaded = open_address(address)
    assert reloaded.session_state["playground"].state == GOOD
    assert any(title.value == "Why we divide by √d_k" for title in reloaded.title)
    assert reloaded.slider(key=setting_key("why_scale", "d_k")).value == 16  # from the link
    captions = " ".join(caption.value for caption in reloaded.caption)
    assert "Multi-head's edited X and Watch it learn's trained runs are not" in captions
