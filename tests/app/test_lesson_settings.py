"""A student's settings on the guided pages survive a visit to another page."""

from tests.support.apptest import open_page, setting_key


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
    assert at.slider(key=setting_key("multi_head", "d_model")).value == 4 and at.checkbox(key=setting_key("multi_head", "tie")).value is True
    at.switch_page("pages/geometry.py").run()
    assert at.number_input(key=setting_key("geometry", "query_x")).value == 2.5
    assert not at.exception
