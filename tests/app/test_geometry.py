"""Geometry page: every vector input, the reset button, and the numbers in its charts."""

import numpy as np
import pytest

from tests.support.apptest import button, chart, open_page, setting_key, texts, trace

PAGE = "pages/geometry.py"


@pytest.fixture
def page():
    return open_page(PAGE)


def test_defaults_are_the_pronoun_example(page):
    np.testing.assert_array_equal(trace(page, "geometry_bars", 0, "y"), [10, 7, 5])
    np.testing.assert_allclose(trace(page, "geometry_bars", 3, "y"), [0.8703, 0.1043, 0.0254], atol=5e-5)
    labels = [a["text"] for a in chart(page, "geometry_arrows")["layout"]["annotations"] if a.get("text")]
    assert "query “it”" in labels[0] and "q·k = 10.00" in labels[1] and "θ = 0.0°" in labels[1]
    assert "q·k = 7.00" in labels[2] and "θ = 57.5°" in labels[2]
    refresher = page.dataframe[0].value
    assert list(refresher["θ"]) == ["0.0°", "90.0°", "180.0°", "67.6°"]
    assert list(refresher["a₁b₁ + a₂b₂"])[2:] == ["2·(−4) + 1·(−2) = −10", "2·5 + 3·(−1) = 7"]
    markdown = texts(page.markdown)
    assert "“street”** points 57.5° away" in markdown and "scores **7.0**" in markdown and "(5.0)" in markdown
    assert "context = 0.8703·[1, 0] + 0.1043·[0, 1] + 0.0254·[0.3, 0.3] = **[0.8779, 0.1119]**" in markdown


def test_moving_a_key_updates_scores_angles_and_the_magnitude_story(page):
    page.number_input(key=setting_key("geometry", "key1_x")).set_value(3.0).run()  # street → [3, 4]: 13, now the winner
    page.number_input(key=setting_key("geometry", "key1_y")).set_value(4.0).run()
    assert not page.exception
    np.testing.assert_array_equal(trace(page, "geometry_bars", 0, "y"), [10, 13, 5])
    weights = trace(page, "geometry_bars", 3, "y")
    assert weights.argmax() == 1 and weights.sum() == pytest.approx(1)
    assert page.dataframe[1].value["q·k"].tolist() == [10, 13, 5]


def test_query_input_and_zero_query(page):
    page.number_input(key=setting_key("geometry", "query_x")).set_value(0.0).run()
    page.number_input(key=setting_key("geometry", "query_y")).set_value(0.0).run()
    assert not page.exception
    assert "zero vector" in texts(page.warning)
    assert list(page.dataframe[1].value["θ"]) == ["undefined (zero length)"] * 3
    np.testing.assert_allclose(trace(page, "geometry_bars", 3, "y"), [1 / 3] * 3)
    assert "no longer key outscores a key that points closer" in texts(page.markdown)


def test_zero_key_has_no_angle(page):
    page.number_input(key=setting_key("geometry", "key2_x")).set_value(0.0).run()
    page.number_input(key=setting_key("geometry", "key2_y")).set_value(0.0).run()
    assert not page.exception
    assert page.dataframe[1].value["cos θ"].iloc[2] == "undefined"


def test_values_move_the_context_vector_and_reset_restores(page):
    page.number_input(key=setting_key("geometry", "value0_x")).set_value(2.0).run()
    page.number_input(key=setting_key("geometry", "value0_y")).set_value(-1.0).run()
    assert not page.exception
    context = trace(page, "geometry_values", -1, "x")[-1], trace(page, "geometry_values", -1, "y")[-1]
    exps = np.exp(np.array([10, 7, 5]) / np.sqrt(2))
    expected = (exps / exps.sum()) @ np.array([[2, -1], [0, 1], [0.3, 0.3]])  # the new value for "animal"
    np.testing.assert_allclose(context, expected, rtol=1e-12)
    page.number_input(key=setting_key("geometry", "key0_x")).set_value(-3.0).run()
    button(page, "Reset to the pronoun example").click().run()
    assert not page.exception
    assert page.number_input(key=setting_key("geometry", "value0_x")).value == 1.0
    assert page.number_input(key=setting_key("geometry", "key0_x")).value == 3.0
    np.testing.assert_array_equal(trace(page, "geometry_bars", 0, "y"), [10, 7, 5])


def test_presenter_mode_enlarges_chart_text(page):
    page.session_state["presenter"] = True  # the switch itself lives in app.py
    page.run()
    assert not page.exception
    bars = chart(page, "geometry_bars")
    assert bars["layout"]["font"]["size"] == 18 and bars["data"][0]["textfont"]["size"] == 18
