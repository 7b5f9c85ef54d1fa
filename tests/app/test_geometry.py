"""Geometry page: every vector input, the reset button, and every number it shows, checked by hand.

Expected numbers are worked out here with math (lengths, angles, e^x): never with the lesson code the page calls.
"""

import math

import numpy as np
import pytest

from tests.support.apptest import (
    as_read,
    button,
    chart,
    control_key,
    open_app,
    open_page,
    open_tab,
    setting_key,
    texts,
    trace,
)

PAGE = "pages/geometry.py"
NO_MAGNITUDE_WIN = "With the current vectors, no key outscores a better-aligned key by being longer."
QUERY, KEYS, VALUES = (3, 1), [(3, 1), (1, 4), (1.5, 0.5)], [(1, 0), (0, 1), (0, 0)]  # the Playground's "it" example


@pytest.fixture
def page():
    return open_page(PAGE)


def by_hand(query, keys, values):
    """(scores, |k|, angles in degrees, weights, context) with math only."""
    scores = [query[0] * k[0] + query[1] * k[1] for k in keys]
    lengths = [math.hypot(*k) for k in keys]
    angles = [
        math.degrees(math.acos(min(1.0, s / (math.hypot(*query) * n)))) for s, n in zip(scores, lengths, strict=True)
    ]
    exps = [math.exp(s / math.sqrt(2)) for s in scores]
    weights = [e / sum(exps) for e in exps]
    context = [sum(w * v[c] for w, v in zip(weights, values, strict=True)) for c in range(2)]
    return scores, lengths, angles, weights, context


def test_defaults_are_the_pronoun_example_every_number_by_hand(page):
    scores, lengths, angles, weights, context = by_hand(QUERY, KEYS, VALUES)
    assert [round(w, 4) for w in weights] == [0.8703, 0.1043, 0.0254] and [round(c, 4) for c in context] == [
        0.8703,
        0.1043,
    ]
    np.testing.assert_array_equal(trace(page, "geometry_bars", 0, "y"), scores)
    np.testing.assert_allclose(trace(page, "geometry_bars", 1, "y"), np.array(scores) / math.sqrt(2), rtol=1e-12)
    np.testing.assert_allclose(trace(page, "geometry_bars", 3, "y"), weights, rtol=1e-12)
    unscaled = [math.exp(s) / sum(math.exp(t) for t in scores) for s in scores]
    np.testing.assert_allclose(trace(page, "geometry_bars", 2, "y"), unscaled, rtol=1e-12)
    keys = page.dataframe[1].value
    assert keys["q·k"].tolist() == scores
    np.testing.assert_allclose(keys["|k|"], lengths, rtol=1e-12)
    assert lengths == [math.sqrt(10), math.sqrt(17), math.sqrt(2.5)]
    assert keys["θ"].tolist() == [f"{a:.1f}°" for a in angles] == ["0.0°", "57.5°", "0.0°"]
    assert keys["cos θ"].tolist() == ["1.000", f"{7 / math.sqrt(170):.3f}", "1.000"]
    labels = [a["text"] for a in chart(page, "geometry_arrows")["layout"]["annotations"] if a.get("text")]
    assert "query “it”" in labels[0] and "q·k = 10.00" in labels[1] and "θ = 0.0°" in labels[1]
    assert "q·k = 7.00" in labels[2] and "θ = 57.5°" in labels[2] and "cos θ = 0.537" in labels[2]
    markdown = texts(page.markdown)
    assert "**“street”** points 57.5° away from the query, yet scores **7.0**" in markdown
    assert "(5.0), which points 0.0° away" in markdown and "|k| = 4.12 against 1.58" in markdown
    assert "“animal”: **0.8703** · “street”: **0.1043** · “because”: **0.0254** (sum 1.0000)" in markdown
    assert "context = 0.8703·[1, 0] + 0.1043·[0, 1] + 0.0254·[0, 0] = **[0.8703, 0.1043]**" in markdown
    end = trace(page, "geometry_values", -1, "x")[-1], trace(page, "geometry_values", -1, "y")[-1]
    np.testing.assert_allclose(end, context, rtol=1e-12)


def test_the_refresher_table_by_hand(page):
    refresher = page.dataframe[0].value
    assert refresher["a₁b₁ + a₂b₂"].tolist() == [
        "2·4 + 1·2 = 10",
        "2·(−1) + 1·2 = 0",
        "2·(−4) + 1·(−2) = −10",
        "2·5 + 3·(−1) = 7",
    ]
    worked = math.degrees(math.acos(7 / (math.sqrt(13) * math.sqrt(26))))  # 67.62°
    assert refresher["θ"].tolist() == ["0.0°", "90.0°", "180.0°", f"{worked:.1f}°"]
    assert refresher["cos θ"].tolist() == ["1.000", "0.000", "−1.000", f"{7 / math.sqrt(13 * 26):.3f}"]
    assert refresher["|a| |b| cos θ"].tolist()[2:] == [
        f"{math.sqrt(5):.3f} × {math.sqrt(20):.3f} × (−1.000) = −10.000",
        f"{math.sqrt(13):.3f} × {math.sqrt(26):.3f} × {7 / math.sqrt(338):.3f} = 7.000",
    ]
    assert refresher["b"].tolist() == ["[4, 2]", "[−1, 2]", "[−4, −2]", "[5, −1]"]


def test_the_context_vector_is_the_playgrounds_for_the_same_example():
    """The "it" example gives one context vector on both pages."""
    at = open_app()
    at.selectbox(key=control_key("example")).set_value("pronoun_it").run()
    open_tab(at, "playground", "One token up close")
    blend = next(frame.value for frame in at.dataframe if "wⱼ · vⱼ" in frame.value.columns)
    playground = blend["wⱼ · vⱼ"].tolist()[-1]
    at.switch_page(PAGE).run()
    context = by_hand(QUERY, KEYS, VALUES)[-1]
    assert playground == f"[{context[0]:.4f}, {context[1]:.4f}]" == "[0.8703, 0.1043]"
    assert f"= **{playground}**" in texts(at.markdown)


def test_moving_a_key_updates_scores_angles_and_the_magnitude_story(page):
    page.number_input(key=setting_key("geometry", "key1_x")).set_value(3.0).run()  # street → [3, 4]: 13, now the winner
    page.number_input(key=setting_key("geometry", "key1_y")).set_value(4.0).run()
    assert not page.exception
    scores, _, angles, weights, _ = by_hand(QUERY, [(3, 1), (3, 4), (1.5, 0.5)], VALUES)
    np.testing.assert_array_equal(trace(page, "geometry_bars", 0, "y"), [10, 13, 5])
    np.testing.assert_allclose(trace(page, "geometry_bars", 3, "y"), weights, rtol=1e-12)
    assert page.dataframe[1].value["q·k"].tolist() == scores
    assert f"points {angles[1]:.1f}° away from the query, yet scores **13.0**" in texts(page.markdown)


def test_query_input_and_zero_query(page):
    page.number_input(key=setting_key("geometry", "query_x")).set_value(0.0).run()
    page.number_input(key=setting_key("geometry", "query_y")).set_value(0.0).run()
    assert not page.exception
    assert "zero vector" in texts(page.warning)
    assert list(page.dataframe[1].value["θ"]) == ["undefined"] * 3
    np.testing.assert_allclose(trace(page, "geometry_bars", 3, "y"), [1 / 3] * 3)
    assert NO_MAGNITUDE_WIN in texts(page.markdown)


def test_without_a_magnitude_win_the_page_says_so_unambiguously(page):
    """"no longer key outscores …" read as "no more"; the sentence now names the length. "street" moved to
    [1, 1]: the key table shows no key with a larger angle, a higher score and a longer |k| than another."""
    page.number_input(key=setting_key("geometry", "key1_x")).set_value(1.0).run()
    page.number_input(key=setting_key("geometry", "key1_y")).set_value(1.0).run()
    table = page.dataframe[1].value
    rows = list(zip(table["q·k"], table["|k|"], [float(a.rstrip("°")) for a in table["θ"]], strict=True))
    assert rows[1][0] == 4 and rows[1][2] > rows[2][2] == 0.0  # street: further from the query than because
    assert not any(a[2] > b[2] and a[0] > b[0] and a[1] > b[1] for a in rows for b in rows)
    words = as_read(texts(page.markdown))
    assert NO_MAGNITUDE_WIN in words and "no longer key" not in words


def test_the_value_arrows_are_dotted_and_a_zero_value_is_said_to_have_none(page):
    """"the dotted arrows are the values", yet each value's arrowhead annotation drew a solid shaft over its
    dotted line, and the zero value of “because” is not drawn at all. Read off the chart: each value is a dotted line
    ending in an arrowhead marker, with no solid annotation shaft over it; the text names the value with no arrow."""
    figure = chart(page, "geometry_values")
    values = [t for t in figure["data"] if t["name"].startswith("value “")]
    assert [t["name"] for t in values] == ["value “animal”", "value “street”", "value “because”"]
    shafts = {(a["x"], a["y"], a["arrowcolor"]) for a in figure["layout"]["annotations"] if a.get("showarrow")}
    for trace_, value in zip(values, VALUES, strict=True):
        assert trace_["line"]["dash"] == "dot" and [trace_["x"][-1], trace_["y"][-1]] == list(value)
        assert (*value, trace_["line"]["color"]) not in shafts  # nothing solid drawn along it to its tip
        head = trace_["marker"]["size"][-1]
        assert trace_["marker"]["symbol"] == "arrow" and (head > 0) == (math.hypot(*value) > 0)
    words = as_read(texts(page.markdown))
    assert "the thin dotted arrows from the origin are the values" in words
    assert "(“because”: [0, 0], only a point at the origin)" in words


def test_the_it_example_says_why_it_is_not_one_of_its_own_keys():
    """The Playground's "it" example blocks key “it”, and the Geometry page leaves it out, without saying
    why. Its key equals “animal”'s: read "it"'s own score from the Playground with the block lifted, and "animal"'s
    from the Geometry page's key table; the sentence quotes that tie."""
    at = open_app()
    at.selectbox(key=control_key("example")).set_value("pronoun_it").run()
    state = at.session_state["playground"].state
    assert state.blocked_keys == (3,)
    Q, K, _ = state.matrices()
    itself = sum(q * k for q, k in zip(Q[3], K[3], strict=True))
    at.switch_page(PAGE).run()
    animal = at.dataframe[1].value["q·k"].iloc[0]
    assert itself == animal == 10
    words = as_read(texts(at.markdown))
    assert (
        "“it” itself is not a key: the question is which other word it stands for, and its own key, [3, 1], is "
        f"the same as the key of “animal”, so with the query [3, 1] it would score {itself:g} against itself and tie "
        "with “animal”, taking as much weight. The Playground's example blocks key “it” for the same reason."
    ) in words
    at.number_input(key=setting_key("geometry", "query_x")).set_value(1.0).run()  # still "10" after this
    at.number_input(key=setting_key("geometry", "query_y")).set_value(2.0).run()
    assert "with the query [1, 2] it would score 5 against itself" in as_read(texts(at.markdown))


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
    expected = by_hand(QUERY, KEYS, [(2, -1), (0, 1), (0, 0)])[-1]  # the new value for "animal"
    np.testing.assert_allclose(context, expected, rtol=1e-12)
    assert f"**[{expected[0]:.4f}, −{-expected[1]:.4f}]**" in texts(page.markdown)
    page.number_input(key=setting_key("geometry", "key0_x")).set_value(-3.0).run()
    button(page, "Reset to the pronoun example").click().run()
    assert not page.exception
    assert page.number_input(key=setting_key("geometry", "value0_x")).value == 1.0
    assert page.number_input(key=setting_key("geometry", "key0_x")).value == 3.0
    np.testing.assert_array_equal(trace(page, "geometry_bars", 0, "y"), [10, 7, 5])


def test_words_say_number_of_dimensions_and_plain_english(page):
    """D_k is a number of dimensions, not a length; no "make loud"."""
    words = as_read(texts(page.markdown))
    assert "d_k = 2 dimensions (the number of dimensions, not the arrows' lengths)" in words
    assert "make loud" not in words
    assert "training can make a word's key long, and then that word scores high against many queries" in words


def test_presenter_mode_enlarges_chart_text(page):
    page.session_state["presenter"] = True  # the switch itself lives in app.py
    page.run()
    assert not page.exception
    bars = chart(page, "geometry_bars")
    assert bars["layout"]["font"]["size"] == 18 and bars["data"][0]["textfont"]["size"] == 18
