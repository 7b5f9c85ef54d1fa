"""The Playground, driven through every control, checked against the numbers the charts were given."""

import json
import re

import numpy as np
import pytest

from attnviz import PRESETS, attention, random_qkv
from tests.app.conftest import decode, figure, heatmap_z

SCORES, SCALED, WEIGHTS, OUTPUT, FOCUS = "1. Raw", "2. Scaled", "3. Attention weights", "4. Output", "Where"


def state(at):
    return at.session_state["playground"]


def warnings(at) -> list[str]:
    """Warning and info texts as a reader sees them (markdown escapes removed)."""
    return [re.sub(r"\\(.)", r"\1", e.value) for e in [*at.warning, *at.info]]


def test_default_view_shows_exactly_what_the_core_computes(app):
    Q, K, V = random_qkv(12, 4, 4, seed=42, decimals=2)
    expected = attention(Q, K, V)
    np.testing.assert_array_equal(heatmap_z(app, SCORES), expected.scores)
    np.testing.assert_array_equal(heatmap_z(app, SCALED), expected.scaled)
    np.testing.assert_array_equal(heatmap_z(app, WEIGHTS), expected.weights)
    np.testing.assert_array_equal(heatmap_z(app, OUTPUT), expected.output)
    weights = figure(app, WEIGHTS)["data"][0]
    assert list(weights["y"])[:5] == ["0: The", "1: movie", "2: was", "3: not", "4: good"]
    assert (weights["zmin"], weights["zmax"]) == (0, 1)  # a weight can only be in [0, 1]
    scores = figure(app, SCORES)["data"][0]
    assert scores["zmin"] == -scores["zmax"]  # diverging scale centred on 0
    assert weights["texttemplate"] == "%{text}"
    assert np.array(weights["text"])[3].tolist() == [f"{w:.2f}" for w in expected.weights[3]]
    assert "→" in weights["hovertemplate"] and "weight" in weights["hovertemplate"]
    configs = [json.loads(chart.proto.config) for chart in app.get("plotly_chart")]
    assert [c["toImageButtonOptions"]["filename"] for c in configs] == [
        "attnviz-scores",
        "attnviz-scaled",
        "attnviz-weights",
        "attnviz-output",
        "attnviz-focus",
    ]
    assert {c["toImageButtonOptions"]["format"] for c in configs} == {"png"}
    assert [t.value for t in app.text_input] == ["The movie was not good, but the soundtrack was amazing."]


def test_causal_mask_zeroes_the_upper_triangle(app):
    app.checkbox(key="pg_causal").check().run()
    assert not app.exception
    weights = heatmap_z(app, WEIGHTS)
    assert np.all(np.triu(weights, k=1) == 0.0)
    np.testing.assert_allclose(weights.sum(axis=1), 1.0, rtol=1e-12)
    scaled = figure(app, SCALED)
    assert np.all(np.isnan(decode(scaled["data"][0]["z"]).astype(float)[np.triu_indices(12, 1)]))
    masked_layer = decode(scaled["data"][1]["z"]).astype(float)
    assert np.nansum(masked_layer) == 66  # the 66 future cells are drawn as "−∞"
    masked_text = np.array(scaled["data"][0]["text"])
    assert np.all(masked_text[np.triu_indices(12, 1)] == "−∞") and "−∞" not in masked_text[np.tril_indices(12)]
    assert any("+ M" in latex.value for latex in app.latex)


def test_scaling_off_makes_scaled_equal_raw(app):
    app.checkbox(key="pg_scale").uncheck().run()
    np.testing.assert_array_equal(heatmap_z(app, SCALED), heatmap_z(app, SCORES))
    assert all(r"\sqrt{d_k}" not in latex.value for latex in app.latex)
    app.checkbox(key="pg_scale").check().run()
    np.testing.assert_allclose(heatmap_z(app, SCALED), heatmap_z(app, SCORES) / 2.0, rtol=1e-15)  # √4


def test_temperature_divides_the_scaled_scores(app):
    app.slider(key="pg_temperature").set_value(0.5).run()
    np.testing.assert_allclose(heatmap_z(app, SCALED), heatmap_z(app, SCORES) / 2.0 / 0.5, rtol=1e-15)
    assert any("0.5" in latex.value for latex in app.latex)


def test_editing_one_query_cell_changes_only_that_row_of_scores(app):
    before = heatmap_z(app, SCORES)
    app.session_state["pg_editor_Q_0"] = {"edited_rows": {3: {"q2": "5"}}, "added_rows": [], "deleted_rows": []}
    app.run()
    assert not app.exception
    after = heatmap_z(app, SCORES)
    changed = np.flatnonzero(np.any(after != before, axis=1))
    assert changed.tolist() == [3]
    Q, K, _ = state(app).matrices()
    assert Q[3, 1] == 5.0
    np.testing.assert_allclose(after[3], Q[3] @ K.T, rtol=1e-15)
    # The edit survives other moves.
    app.checkbox(key="pg_causal").check().run()
    assert state(app).matrices()[0][3, 1] == 5.0


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (None, "a cell was left empty"),
        ("  ", "a cell was left empty"),
        ("abc", "“abc” is not a number"),
        ("0x10", "“0x10” is not a number"),
        ("1,5", "“1,5” is not a number: write decimals with a dot, like 1.5"),
        ("nan", "nan is not a finite number"),
        ("1e9", "1e+09 is outside the allowed range"),
        ("2000", "2000 is outside the allowed range −1000 to 1000"),
    ],
)
def test_a_bad_cell_is_refused_with_a_message_and_the_old_value_kept(app, raw, reason):
    old = state(app).matrices()[0][2, 0]
    app.session_state["pg_editor_Q_0"] = {"edited_rows": {2: {"q1": raw}}, "added_rows": [], "deleted_rows": []}
    app.run()
    assert not app.exception
    assert any(reason in w and "Q[2: was, dimension 1]" in w and "previous value is kept" in w for w in warnings(app))
    assert state(app).matrices()[0][2, 0] == old
    assert app.session_state["pg_editor_version"] == 1  # the table is redrawn without the refused cell


def test_dimension_change_keeps_surviving_columns_and_edits(app):
    app.session_state["pg_editor_K_0"] = {
        "edited_rows": {0: {"k1": 7.5}, 1: {"k4": -3.0}},
        "added_rows": [],
        "deleted_rows": [],
    }
    app.run()
    Q_before = state(app).matrices()[0]
    app.slider(key="pg_d_k").set_value(2).run()
    Q, K, _ = state(app).matrices()
    assert Q.shape == (12, 2) and K[0, 0] == 7.5
    np.testing.assert_array_equal(Q, Q_before[:, :2])
    app.slider(key="pg_d_k").set_value(6).run()
    Q, K, _ = state(app).matrices()
    np.testing.assert_array_equal(Q[:, :2], Q_before[:, :2])
    assert K[0, 0] == 7.5 and K[1, 3] != -3.0  # the edit in a dropped column went with the column
    assert heatmap_z(app, SCORES).shape == (12, 12)
    np.testing.assert_allclose(heatmap_z(app, SCALED), heatmap_z(app, SCORES) / np.sqrt(6), rtol=1e-15)


def test_d_v_slider_sets_the_output_width(app):
    app.slider(key="pg_d_v").set_value(3).run()
    assert heatmap_z(app, OUTPUT).shape == (12, 3)
    assert list(figure(app, OUTPUT)["data"][0]["x"]) == ["d1", "d2", "d3"]


def test_same_seed_gives_the_same_vectors(app):
    app.number_input(key="pg_seed").set_value(7).run()
    app.button[0].click().run()
    first = heatmap_z(app, WEIGHTS)
    np.testing.assert_array_equal(state(app).matrices()[0], random_qkv(12, 4, 4, seed=7, decimals=2)[0])
    app.number_input(key="pg_seed").set_value(8).run()
    app.button[0].click().run()
    assert not np.array_equal(heatmap_z(app, WEIGHTS), first)
    app.number_input(key="pg_seed").set_value(7).run()
    app.button[0].click().run()
    np.testing.assert_array_equal(heatmap_z(app, WEIGHTS), first)


EXPECTED_ROWS = {
    "movie_negation": (4, {3: 0.67, 10: 0.33}),
    "pronoun_it": (3, {0: 0.8703, 1: 0.1043, 2: 0.0254, 3: 0.0}),
    "cat_sat": (0, {0: 0.3328, 1: 0.3572, 2: 0.3101}),
    "notebook_causal": (3, {0: 0.19293995, 1: 0.03256643, 2: 0.57960627, 3: 0.19488734}),
    "identical_keys": (2, {0: 0.25, 1: 0.25, 2: 0.25, 3: 0.25}),
    "causal_movie": (0, {0: 1.0, 1: 0.0, 11: 0.0}),
}


@pytest.mark.parametrize("key", EXPECTED_ROWS)
def test_loading_an_example_shows_its_documented_weights(app, key):
    app.selectbox(key="pg_example").set_value(key).run()
    assert not app.exception
    preset = PRESETS[key]
    row, expected = EXPECTED_ROWS[key]
    weights = heatmap_z(app, WEIGHTS)
    for j, value in expected.items():
        assert weights[row, j] == pytest.approx(value, abs=5e-3 if key == "movie_negation" else 5e-5)
    assert app.text_input(key="pg_sentence").value == preset.sentence
    assert app.checkbox(key="pg_causal").value == preset.causal
    assert any(preset.description == caption.value for caption in app.caption)
    assert app.selectbox(key="pg_focus").value == preset.focus


def test_focus_token_shows_its_row_arithmetic_and_output(app):
    app.selectbox(key="pg_example").set_value("pronoun_it").run()
    bars = figure(app, FOCUS)["data"][0]
    np.testing.assert_allclose(decode(bars["y"]).astype(float), state(app).result().weights[3], rtol=1e-15)
    table = next(frame.value for frame in app.dataframe if "q·k" in frame.value.columns)
    assert table["q·k"].tolist()[:3] == ["3×3 + 1×1 = 10", "3×1 + 1×4 = 7", "3×1.5 + 1×0.5 = 5"]
    assert table["weight"].tolist() == ["0.8703", "0.1043", "0.02536", "0"]
    assert table.iloc[3, 2] == "−∞ (masked)"
    assert any("output = [0.8703, 0.1043]" in m.value for m in app.markdown)
    app.selectbox(key="pg_focus").set_value(0).run()
    assert "Where “animal” looks" in figure(app, FOCUS)["layout"]["title"]["text"]


def test_blocking_keys_zeroes_their_columns_and_names_dead_rows(app):
    app.multiselect(key="pg_blocked_keys").set_value([0, 2]).run()
    weights = heatmap_z(app, WEIGHTS)
    assert np.all(weights[:, [0, 2]] == 0.0)
    np.testing.assert_allclose(weights.sum(axis=1), 1.0, rtol=1e-12)
    app.checkbox(key="pg_causal").check().run()
    # With the causal mask, "The" (0) can only see itself, and it is blocked.
    message = " ".join(warnings(app))
    assert "Every key is blocked for “The” (0)" in message
    weights = heatmap_z(app, WEIGHTS)
    assert np.all(weights[0] == 0.0) and np.all(heatmap_z(app, OUTPUT)[0] == 0.0)


@pytest.mark.parametrize(
    ("sentence", "message"),
    [("", "has no words or punctuation"), ("   ", "has no words or punctuation"), ("?!...", "has only punctuation")],
)
def test_an_unusable_sentence_is_refused_and_the_work_kept(app, sentence, message):
    app.session_state["pg_editor_Q_0"] = {"edited_rows": {0: {"q1": 9.0}}, "added_rows": [], "deleted_rows": []}
    app.run()
    app.text_input(key="pg_sentence").input(sentence).run()
    assert not app.exception
    assert any(message in w and "previous sentence is kept" in w for w in warnings(app))
    assert state(app).n == 12 and state(app).matrices()[0][0, 0] == 9.0
    assert app.text_input(key="pg_sentence").value == "The movie was not good, but the soundtrack was amazing."


def test_retyping_the_sentence_keeps_vectors_at_surviving_positions(app):
    app.session_state["pg_editor_V_0"] = {"edited_rows": {1: {"v1": 4.25}}, "added_rows": [], "deleted_rows": []}
    app.run()
    Q_before = state(app).matrices()[0]
    app.text_input(key="pg_sentence").input("The film was not good").run()
    Q, _, V = state(app).matrices()
    np.testing.assert_array_equal(Q, Q_before[:5])
    assert V[1, 0] == 4.25
    assert list(figure(app, WEIGHTS)["data"][0]["x"]) == ["0: The", "1: film", "2: was", "3: not", "4: good"]


def test_a_long_sentence_is_capped_with_a_message_and_drops_cell_text(app):
    app.text_input(key="pg_sentence").input(" ".join(f"w{i}" for i in range(130))).run()
    assert not app.exception
    assert any("130 tokens; only the first 128 are used" in w for w in warnings(app))
    weights = figure(app, WEIGHTS)["data"][0]
    assert decode(weights["z"]).shape == (128, 128)
    assert weights.get("texttemplate") is None  # too many cells for numbers; hover still works
    assert "weight" in weights["hovertemplate"]


def test_html_in_the_sentence_is_shown_as_text(app):
    app.text_input(key="pg_sentence").input("<script>alert(1)</script> <b>bold</b>").run()
    assert not app.exception
    chips = next(m.value for m in app.markdown if 'class="attnviz-chips"' in m.value)
    assert "<script>" not in chips and "&lt;" in chips and "<b>" not in chips
    assert list(figure(app, WEIGHTS)["data"][0]["x"])[:3] == ["0: <", "1: script", "2: >"]


@pytest.mark.parametrize("sentence", ["我爱你 👍🏽!", "שלום עולם", "café naïve 👨‍👩‍👧"])
def test_unicode_sentences_work(app, sentence):
    app.text_input(key="pg_sentence").input(sentence).run()
    assert not app.exception
    labels = list(figure(app, WEIGHTS)["data"][0]["x"])
    assert len(labels) == state(app).n > 0
    assert labels == [f"{i}: {t}" for i, t in enumerate(state(app).tokens)]


def test_state_survives_a_visit_to_another_page(app):
    app.checkbox(key="pg_causal").check().run()
    app.switch_page("pages/why_scale.py").run()
    app.switch_page("pages/playground.py").run()
    assert not app.exception
    assert app.checkbox(key="pg_causal").value is True
    assert np.all(np.triu(heatmap_z(app, WEIGHTS), k=1) == 0.0)


def test_presenter_mode_hides_the_tables_and_enlarges_the_charts(app):
    editors_before = len(app.dataframe)
    assert editors_before == 3 + 2  # Q, K, V editors, then the two focus tables
    assert figure(app, WEIGHTS)["layout"]["font"]["size"] == 13
    app.toggle(key="presenter").set_value(True).run()
    assert not app.exception
    assert len(app.dataframe) == 2  # only the focus-token arithmetic remains
    assert len(app.get("download_button")) == 0
    assert figure(app, WEIGHTS)["layout"]["font"]["size"] == 18
    assert figure(app, WEIGHTS)["data"][0]["textfont"]["size"] == 18
    assert any("+ M" not in latex.value and "softmax" in latex.value for latex in app.latex)  # the formula stays
    app.toggle(key="presenter").set_value(False).run()
    assert len(app.dataframe) == editors_before


def test_an_enormous_paste_is_refused_and_the_sentence_kept(app):
    app.text_input(key="pg_sentence").input("word " * 2_000).run()
    assert not app.exception
    assert any("10,000 characters long; the limit is 5,000" in w for w in warnings(app))
    assert state(app).n == 12
    assert app.text_input(key="pg_sentence").value == "The movie was not good, but the soundtrack was amazing."


@pytest.mark.parametrize(("typed", "stored"), [("1.5e-3", 0.0015), ("−2", -2.0), (" 0.125 ", 0.125), ("-0", -0.0)])
def test_typed_numbers_are_stored_exactly_as_typed(app, typed, stored):
    app.session_state["pg_editor_K_0"] = {"edited_rows": {1: {"k3": typed}}, "added_rows": [], "deleted_rows": []}
    app.run()
    assert not app.exception and not warnings(app)
    assert state(app).matrices()[1][1, 2] == stored


def test_tables_show_each_number_exactly():
    from attnviz.ui.tables import cell_text

    assert [cell_text(x) for x in (0.3, -1.04, 20.0, 0.11672673, 1e-6)] == [
        "0.3",
        "-1.04",
        "20",
        "0.11672673",
        "0.000001",
    ]
    assert all(float(cell_text(x)) == x for x in (0.1 + 0.2, 1 / 3, -123.456789012345))


def test_markdown_in_the_sentence_is_shown_literally(app):
    app.text_input(key="pg_sentence").input("a **b** $x$ :red[c] [d](http://x) _e_").run()
    assert not app.exception
    app.selectbox(key="pg_focus").set_value(3).run()  # tokens: a * * b * * $ x $ …
    heading = next(m.value for m in app.markdown if m.value.startswith("**From scores to weights"))
    assert heading == r"**From scores to weights for “b”**"
    app.selectbox(key="pg_focus").set_value(1).run()
    heading = next(m.value for m in app.markdown if m.value.startswith("**From scores to weights"))
    assert heading == r"**From scores to weights for “\*”**"  # an escaped star: shown, not bold
    app.switch_page("pages/step_by_step.py").run()
    intro = next(m.value for m in app.markdown if "Playground's" in m.value)
    assert r"\*\*b\*\* \$x\$ \:red\[c\] \[d\]\(http\://x\) \_e\_" in intro


def test_an_example_changed_after_loading_says_so(app):
    app.selectbox(key="pg_example").set_value("cat_sat").run()
    description = PRESETS["cat_sat"].description
    assert any(c.value == description for c in app.caption)
    app.text_input(key="pg_sentence").input("The cat sat on the mat").run()
    assert any(c.value.startswith(description) and "You have changed the example" in c.value for c in app.caption)
    Q, _, _ = state(app).matrices()
    np.testing.assert_array_equal(Q[3:], np.zeros((3, 2)))  # the new tokens start as zero vectors
