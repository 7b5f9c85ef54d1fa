"""A student's settings on the guided pages survive a visit to another page."""

from tests.app.lessons import open_page


def test_settings_survive_a_round_trip_through_the_playground():
    at = open_page("pages/why_scale.py")
    at.slider(key="why_dk").set_value(2).run()
    at.switch_page("pages/multi_head.py").run()
    at.slider(key="mh_d_model").set_value(4).run()
    at.checkbox(key="mh_tie").check().run()
    at.switch_page("pages/geometry.py").run()
    at.number_input(key="geometry_query_x").set_value(2.5).run()
    at.switch_page("pages/playground.py").run()
    at.switch_page("pages/why_scale.py").run()
    assert at.slider(key="why_dk").value == 2
    at.switch_page("pages/multi_head.py").run()
    assert at.slider(key="mh_d_model").value == 4 and at.checkbox(key="mh_tie").value is True
    at.switch_page("pages/geometry.py").run()
    assert at.number_input(key="geometry_query_x").value == 2.5
    assert not at.exception
