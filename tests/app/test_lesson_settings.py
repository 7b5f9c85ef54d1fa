"""A student's settings on the guided pages survive a visit to another page, and binding them stays quiet."""

import pytest
from streamlit.elements.lib import policies
from streamlit.runtime.state import get_session_state

from tests.support.apptest import button, open_page, setting_key, type_cell


def test_settings_survive_a_round_trip_through_the_playground():
    at = open_page("pages/why_scale.py")
    at.slider(key=setting_key("why_scale", "d_k")).set_value(2).run()
    at.switch_page("pages/multi_head.py").run()
    at.slider(key=setting_key("multi_head", "d_model")).set_value(4).run()
    at.checkbox(key=setting_key("multi_head", "tie")).check().run()
    at.switch_page("pages/geometry.py").run()
    at.number_input(key=setting_key("geometry", "query_x")).set_value(2.5).run()
    at.switch_page("pages/playground.py").run()
    at.switch_page("pages/why_scale.py").run()
    assert at.slider(key=setting_key("why_scale", "d_k")).value == 2
    at.switch_page("pages/multi_head.py").run()
    assert at.slider(key=setting_key("multi_head", "d_model")).value == 4
    assert at.checkbox(key=setting_key("multi_head", "tie")).value is True
    at.switch_page("pages/geometry.py").run()
    assert at.number_input(key=setting_key("geometry", "query_x")).value == 2.5
    assert not at.exception


@pytest.fixture
def doubly_set(monkeypatch) -> list[str]:
    """Keys of widgets drawn with a default value of their own while session state also held a value for them: the
    case where Streamlit writes "... set via the Session State API" with a stack trace to the server log. (Streamlit
    only checks with a live server behind it, so the check is watched here, where AppTest calls it.)"""
    found = []
    original = policies.check_session_state_rules

    def watch(default_value, key, writes_allowed=True):
        if key is not None and default_value is not None and get_session_state().is_new_state_value(key):
            found.append(key)
        return original(default_value=default_value, key=key, writes_allowed=writes_allowed)

    monkeypatch.setattr(policies, "check_session_state_rules", watch)
    return found


def test_no_widget_has_two_sources_of_its_value(doubly_set):
    """Every control of the three lesson pages, used and revisited, and no widget gets both a
    default value and a session-state value."""
    at = open_page("pages/multi_head.py")
    at.slider(key=setting_key("multi_head", "d_model")).set_value(4).run()
    at.selectbox(key=setting_key("multi_head", "heads")).set_value(2).run()
    at.number_input(key=setting_key("multi_head", "seed")).set_value(3).run()
    at.checkbox(key=setting_key("multi_head", "causal")).check().run()
    at.checkbox(key=setting_key("multi_head", "tie")).check().run()
    type_cell(at, "X", 0, 0, "1.5", key="mh.x")
    at.switch_page("pages/geometry.py").run()
    at.number_input(key=setting_key("geometry", "key1_x")).set_value(2.0).run()
    at.number_input(key=setting_key("geometry", "value2_y")).set_value(1.0).run()
    button(at, "Reset to the pronoun example").click().run()
    at.switch_page("pages/why_scale.py").run()
    at.slider(key=setting_key("why_scale", "d_k")).set_value(8).run()
    at.number_input(key=setting_key("why_scale", "seed")).set_value(2).run()
    at.slider(key=setting_key("why_scale", "tokens")).set_value(5).run()
    for page in ("multi_head", "geometry", "why_scale"):
        at.switch_page(f"pages/{page}.py").run()
    assert not at.exception
    assert doubly_set == []
