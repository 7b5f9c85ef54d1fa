"""The Playground, driven through every control, checked against what the charts were given.

Expected numbers come from the naive reference (tests/reference.py) or from the worked examples, never from the
core the app itself calls.
"""

import re

import numpy as np
import pytest

from attnviz import PRESETS, random_qkv
from attnviz.classroom.share import encode
from attnviz.core.numbers import format_fixed, format_number
from attnviz.core.playground_state import PlaygroundState
from attnviz.figures.matrix_view import hover_numbers
from attnviz.lessons.examples import EXAMPLES
from attnviz.ui.class_join import CLASS
from attnviz.ui.state import TABLES, VIEWS
from bench.harness.apptest import all_views_data
from bench.harness.triggers import trigger_state
from tests.reference import naive_attention
from tests.support.apptest import (
    button,
    control_key,
    control_value,
    controls,
    heatmap_cells,
    heatmap_colour,
    hover_number,
    open_app,
    open_tab,
    playground,
    table_texts,
    texts,
    type_cell,
    use_control,
    views,
    views_data,
)

MOVIE = "The movie was not good, but the soundtrack was amazing."
MOVIE_TOKENS = ["The", "movie", "was", "not", "good", ",", "but", "the", "soundtrack", "was", "amazing", "."]


@pytest.fixture
def app():
    """The Playground on random vectors by position (seed 42, d_k = d_v = 4), opened from a link: the setup most of
    these tests take apart. The app's own first screen is tested at the end."""
    return open_app(s=encode(PlaygroundState()))


def warnings(at) -> list[str]:
    """Warning and info texts as a reader sees them (markdown escapes removed)."""
    return [re.sub(r"\\(.)", r"\1", e.value) for e in [*at.warning, *at.info]]


def confirmations(at) -> list[str]:
    """Confirmation texts (st.success) as a reader sees them."""
    return [re.sub(r"\\(.)", r"\1", e.value) for e in at.success]


def texts_of(view) -> np.ndarray:
    cells, masked = heatmap_cells(view)
    rows, cols = len(view["rows"]), len(view["cols"])
    grid = np.empty((rows, cols), dtype=object)
    for (i, j), text in (cells | masked).items():
        grid[i, j] = text
    return grid


def naive_default(**settings):
    Q, K, V = random_qkv(12, 4, 4, seed=42, decimals=2)
    return naive_attention(Q.tolist(), K.tolist(), V.tolist(), **settings)


def test_the_four_views_show_what_an_independent_computation_gives(app):
    scores, weights, output = naive_default()
    charts = views(app)
    assert list(charts) == ["scores", "scaled", "weights", "output"]  # also each PNG's name: attnviz-<name>.png
    expect = {
        "scores": scores,
        "scaled": np.array(scores) / 2.0,  # √4
        "weights": weights,
        "output": output,
    }
    for key, matrix in expect.items():
        grid = texts_of(charts[key])
        assert grid.tolist() == [[format_fixed(x) for x in row] for row in np.asarray(matrix)], key
    assert hover_number(charts["weights"], 4, 3) == format_number(weights[4][3])
    assert charts["weights"]["rows"][4] == charts["weights"]["cols"][4] == "4: good"
    assert charts["weights"]["focus"] == 4  # drawn boxed, its label bold
    assert charts["weights"]["ticks"][:4] == ["The", "movie", "was", "not"]
    assert app.text_input(key=control_key("sentence")).value == MOVIE


def test_weights_are_coloured_0_to_1_and_scores_share_one_scale_fixed_while_toggling(app):
    charts = views(app)
    assert charts["weights"]["range"] == [0, 1] and charts["scores"]["range"] == [-1, 1]
    raw_before = heatmap_colour(charts["scores"])
    scaled_on = heatmap_colour(charts["scaled"])
    use_control(app, "scale", False)
    charts = views(app)
    np.testing.assert_array_equal(heatmap_colour(charts["scores"]), raw_before)  # raw scores: untouched
    np.testing.assert_array_equal(heatmap_colour(charts["scaled"]), raw_before)  # unscaled = raw, same colours
    # Scaling on divides by 2, so every colour is paler: the contrast visibly drops.
    assert np.all(np.abs(scaled_on) <= np.abs(raw_before) + 1e-12)
    assert np.abs(scaled_on).mean() < 0.8 * np.abs(raw_before).mean()


def test_one_huge_score_does_not_wash_out_the_rest(app):
    app.selectbox(key=control_key("example")).set_value("movie_negation").run()
    good_row = heatmap_colour(views(app)["scores"])[4]
    # good·not = 20 beside not·not = 800: still clearly coloured (the signed log scale), not white.
    assert good_row[3] > 0.4 and good_row[10] > 0.4


def test_causal_mask_zeroes_the_future_and_boxes_what_changed(app):
    before = {name: texts_of(view) for name, view in views(app).items()}
    use_control(app, "causal", True)
    assert not app.exception
    _, weights, _ = naive_default(causal=True)
    charts = views(app)
    grid = texts_of(charts["weights"])
    assert np.all(grid[np.triu_indices(12, 1)] == "0")  # a masked weight is 0, never −∞
    assert grid[5, 2] == format_fixed(weights[5][2])
    scaled = texts_of(charts["scaled"])
    assert np.all(scaled[np.triu_indices(12, 1)] == "−∞") and "−∞" not in scaled[np.tril_indices(12)]
    for name in ("scaled", "weights", "output"):  # a box where the shown text moved, unless most cells moved
        moved = np.flatnonzero(texts_of(charts[name]) != before[name]).tolist()
        cells = len(charts[name]["rows"]) * len(charts[name]["cols"])
        assert moved and charts[name]["changed"] == (moved if 2 * len(moved) <= cells else []), name
        assert charts[name]["changed_count"] == len(moved)
    assert len(charts["scaled"]["changed"]) == 66  # the mask's −∞ above the diagonal: boxed
    assert charts["weights"]["changed"] == [] and charts["scores"]["changed"] == []  # raw scores know nothing of it
    moved = charts["weights"]["changed_count"]
    assert views_data(app)["caption"].startswith(f"The last change moved {moved} of 144 weights, too many to box.")


def test_temperature_divides_the_scaled_scores(app):
    use_control(app, "temperature", 0.5)
    scores, _, _ = naive_default()
    grid = texts_of(views(app)["scaled"])
    assert grid[0, 1] == format_fixed(scores[0][1] / 2.0 / 0.5)
    assert "QKᵀ ÷ √d_k ÷ τ=0.5" in views(app)["scaled"]["title"]


def test_typing_one_query_cell_changes_only_that_row_of_scores(app):
    before = texts_of(views(app)["scores"])
    type_cell(app, "Q", 3, 1, "5")
    assert not app.exception
    after = texts_of(views(app)["scores"])
    assert np.flatnonzero(np.any(after != before, axis=1)).tolist() == [3]
    Q, K, V = random_qkv(12, 4, 4, seed=42, decimals=2)
    Q[3, 1] = 5.0
    scores, _, _ = naive_attention(Q.tolist(), K.tolist(), V.tolist())
    assert after[3].tolist() == [format_fixed(x) for x in scores[3]]
    use_control(app, "causal", True)  # the edit survives other moves
    assert playground(app).matrices()[0][3, 1] == 5.0


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("", "a cell was left empty"),
        ("abc", "“abc” is not a number"),
        ("1,5", "“1,5” is not a number: write decimals with a dot, like 1.5"),
        ("0_5", "“0_5” is not a number"),
        ("2000", "2000 is outside the allowed range −1000 to 1000"),
    ],
)
def test_a_bad_cell_is_refused_with_a_message_and_the_old_value_kept(app, raw, reason):
    before, shown = playground(app), table_texts(app, "Q")
    type_cell(app, "Q", 2, 0, raw)
    assert not app.exception
    said_at_the_tables = views_data(app, TABLES)["warning"]  # in the tables' own element, not 700 px up
    assert reason in said_at_the_tables and "Q[2: was, dimension 1]" in said_at_the_tables
    assert "previous value is kept" in said_at_the_tables and not warnings(app)
    assert playground(app) == before and table_texts(app, "Q") == shown  # the old text back in the cell
    use_control(app, "causal", True)  # the next move: the refusal is gone from the tables
    assert views_data(app, TABLES)["warning"] == ""


def test_d_k_keeps_surviving_columns_and_their_edits(app):
    type_cell(app, "K", 0, 0, "7.5")
    type_cell(app, "K", 1, 3, "-3")
    Q_before = playground(app).matrices()[0]
    app.slider(key=control_key("d_k")).set_value(2).run()
    Q, K, _ = playground(app).matrices()
    assert Q.shape == (12, 2) and K[0, 0] == 7.5
    np.testing.assert_array_equal(Q, Q_before[:, :2])
    assert warnings(app) == ["Gone with this change: 1 typed cell (K[1: movie, dimension 4]). Undo brings it back."]
    use_control(app, "undo")  # lowering d_k dropped an edit: Undo brings it back
    assert playground(app).d_k == 4 and playground(app).matrices()[1][1, 3] == -3.0
    assert confirmations(app) == ["Undone: the sizes are back; 1 typed cell is back."]
    assert warnings(app) == []


def test_d_v_sets_the_output_width(app):
    app.slider(key=control_key("d_v")).set_value(3).run()
    assert views(app)["output"]["ticks"] == ["d1", "d2", "d3"]


def test_the_seed_sets_the_vectors_and_randomise_can_be_undone(app):
    app.number_input(key=control_key("seed")).set_value(7).run()
    np.testing.assert_array_equal(playground(app).matrices()[0], random_qkv(12, 4, 4, seed=7, decimals=2)[0])
    type_cell(app, "V", 0, 0, "9")
    button(app, "Randomise").click().run()
    assert playground(app).edits == ()
    use_control(app, "undo")
    assert playground(app).matrices()[2][0, 0] == 9.0


def test_randomise_draws_a_new_seed_and_says_which(app):
    before = playground(app)
    button(app, "Randomise").click().run()
    after = playground(app)
    assert after.seed != before.seed and app.number_input(key=control_key("seed")).value == after.seed
    np.testing.assert_array_equal(after.matrices()[0], random_qkv(12, 4, 4, seed=after.seed, decimals=2)[0])
    assert confirmations(app) == [f"New random vectors from seed {after.seed}. Undo brings back the ones before."]
    assert not app.exception


EXPECTED_ROWS = {
    "movie_negation": (4, {3: "0.67", 10: "0.33"}),
    "pronoun_it": (3, {0: "0.87", 1: "0.10", 2: "0.03", 3: "0"}),
    "cat_sat": (0, {0: "0.33", 1: "0.36", 2: "0.31"}),
    "notebook_causal": (3, {0: "0.19", 1: "0.03", 2: "0.58", 3: "0.19"}),
    "identical_keys": (2, {0: "0.25", 1: "0.25", 2: "0.25", 3: "0.25"}),
    "causal_movie": (0, {0: "1.00", 1: "0", 11: "0"}),
}


@pytest.mark.parametrize("key", EXPECTED_ROWS)
def test_an_example_shows_its_documented_weights_and_focuses_its_token(app, key):
    app.selectbox(key=control_key("example")).set_value(key).run()
    assert not app.exception
    preset = PRESETS[key]
    row, expected = EXPECTED_ROWS[key]
    grid = texts_of(views(app)["weights"])
    for j, text in expected.items():
        assert grid[row, j] == text
    assert app.text_input(key=control_key("sentence")).value == preset.sentence
    assert control_value(app, "causal") == preset.causal
    assert control_value(app, "focus") == preset.focus
    assert views_data(app)["note"].startswith(EXAMPLES[key][1])


def test_the_focus_table_works_one_row_out(app):
    app.selectbox(key=control_key("example")).set_value("pronoun_it").run()
    open_tab(app, "playground", "One token up close")
    table = next(frame.value for frame in app.dataframe if "q·k" in frame.value.columns)
    assert table["q·k"].tolist()[:3] == ["10 = 3×3 + 1×1", "7 = 3×1 + 1×4", "5 = 3×1.5 + 1×0.5"]
    assert list(table.columns)[2] == "s = q·k ÷ (√2 = 1.414)"
    assert table["weight"].tolist() == ["0.8703", "0.1043", "0.02536", "0"]
    assert table.iloc[3, 2] == "−∞ (masked)"
    # e^(s − max s): the largest s is 10/√2 = 7.071, so the column is e^0, e^(−3/√2), e^(−5/√2), 0.
    assert table["e^(s − max s)"].tolist() == ["1", "0.1199", "0.02914", "0"]
    summary = " ".join(c.value for c in app.caption)
    assert "The largest s in this row is 7.071" in summary and "sums to 1.149" in summary
    blend = next(frame.value for frame in app.dataframe if "wⱼ · vⱼ" in frame.value.columns)
    assert blend["wⱼ · vⱼ"].tolist()[-1] == "[0.8703, 0.1043]"


def test_only_the_open_tab_is_built_and_edits_outlive_a_tab_switch(app):
    assert not app.dataframe and [v["name"] for v in views_data(app, TABLES)["views"]] == ["Q", "K", "V"]
    assert not app.get("download_button")
    type_cell(app, "Q", 1, 2, "2.5")
    open_tab(app, "playground", "One token up close")
    assert [list(frame.value.columns)[:2] for frame in app.dataframe] == [["key", "q·k"], ["key", "weight wⱼ"]]
    assert playground(app).matrices()[0][1, 2] == 2.5
    open_tab(app, "playground", "Download")
    assert len(app.get("download_button")) == 3 and not app.dataframe and TABLES not in all_views_data(app)
    open_tab(app, "playground", "Q, K and V")
    assert table_texts(app, "Q")[1][2] == "2.5" and playground(app).matrices()[0][1, 2] == 2.5  # the edit was kept


def test_blocking_keys_zeroes_their_columns_and_names_dead_rows(app):
    use_control(app, "blocked_keys", [0, 2])
    grid = texts_of(views(app)["weights"])
    assert np.all(grid[:, [0, 2]] == "0")
    use_control(app, "causal", True)
    assert "Every key is blocked for “The” (0)" in views_data(app)["warning"]


@pytest.mark.parametrize("sent", [12, -1, "4: good", 2.5, True, None])
def test_a_focus_the_sentence_no_longer_has_is_ignored(app, sent):
    """A race: right after a sentence change, a click on the old views can send a row the new sentence lacks (or a
    crafted message sends anything). The move is refused quietly, and the controls show the state again."""
    use_control(app, "focus", sent)
    assert not app.exception and not warnings(app)
    assert playground(app).focus == 4 and control_value(app, "focus") == 4


@pytest.mark.parametrize(
    ("field", "sent"),
    [("causal", "yes"), ("temperature", 99), ("temperature", "1e999"), ("blocked_keys", [0, 12]), ("blocked_keys", 3)],
)
def test_a_control_value_outside_its_range_is_ignored(app, field, sent):
    before = playground(app)
    use_control(app, field, sent)
    assert not app.exception and playground(app) == before


@pytest.mark.parametrize(
    ("sentence", "message"),
    [
        ("", "The sentence has no words or punctuation to attend over; it needs at least one word."),
        ("   ", "The sentence has no words or punctuation to attend over; it needs at least one word."),
        ("?!...", "The sentence has only punctuation; it needs at least one word."),
    ],
)
def test_an_unusable_sentence_is_refused_and_the_work_kept(app, sentence, message):
    type_cell(app, "Q", 0, 0, "9")
    app.text_input(key=control_key("sentence")).input(sentence).run()
    assert not app.exception
    assert f"{message} The previous sentence is kept." in warnings(app)
    assert playground(app).n == 12 and playground(app).matrices()[0][0, 0] == 9.0
    assert app.text_input(key=control_key("sentence")).value == MOVIE


def test_a_new_sentence_keeps_vectors_at_their_positions_and_says_so(app):
    Q_before = playground(app).matrices()[0]
    app.text_input(key=control_key("sentence")).input("The film was not good").run()
    np.testing.assert_array_equal(playground(app).matrices()[0], Q_before[:5])
    assert views(app)["weights"]["ticks"] == ["The", "film", "was", "not", "good"]
    assert any("Vectors belong to positions" in c.value for c in app.caption)


def shown_example(at) -> str:
    box = at.selectbox(key=control_key("example"))
    return box.format_func(box.value)


def test_the_example_box_names_the_students_sentence_on_the_examples_vectors():
    """Over a typed sentence the Example box read “Movie review: “not good””, the example's own sentence: it names
    what is shown, comes back with Undo, and switching presenter mode after it is refused nothing."""
    app = open_app()  # the first screen: the movie review
    assert shown_example(app) == EXAMPLES["movie_negation"][0]
    app.text_input(key=control_key("sentence")).input("The film was not good").run()
    assert shown_example(app) == f"Your sentence, with the vectors of: {EXAMPLES['movie_negation'][0]}"
    app.toggle(key="presenter").set_value(True).run()
    assert not app.exception and warnings(app) == []
    use_control(app, "undo")
    app.toggle(key="presenter").set_value(False).run()
    assert shown_example(app) == EXAMPLES["movie_negation"][0] and warnings(app) == []


def test_a_shorter_sentence_says_what_it_took_away_and_undo_brings_it_back(app):
    use_control(app, "blocked_keys", [10])  # “amazing”
    use_control(app, "focus", 11)
    app.text_input(key=control_key("sentence")).input("The movie was").run()
    assert (
        "Gone with this change: the blocked key “amazing” (10); the focus on “.” (11), now on “was” (2). Undo "
        "brings them back." in warnings(app)
    )
    use_control(app, "undo")
    assert playground(app).blocked_keys == (10,) and playground(app).focus == 11


def test_a_long_sentence_is_capped_once_and_drops_cell_text(app):
    app.text_input(key=control_key("sentence")).input(" ".join(f"w{i}" for i in range(130))).run()
    assert not app.exception
    assert [w for w in warnings(app) if "130 tokens" in w] == [
        "The sentence has 130 tokens; only the first 128 are used."
    ]
    weights = views(app)["weights"]
    assert len(weights["rows"]) == 128 and weights["text"] == []  # hover still gives every number
    assert len(hover_numbers(weights)) == 128 * 128


def test_html_and_markdown_in_the_sentence_are_shown_as_text(app):
    app.text_input(key=control_key("sentence")).input("<script>alert(1)</script> **b** $x$").run()
    assert not app.exception
    chips = next(m.value for m in app.markdown if 'class="attnviz-chips"' in m.value)
    assert "<script>" not in chips and "&lt;" in chips
    use_control(app, "focus", 7)  # tokens: < script > alert ( 1 ) < / …
    open_tab(app, "playground", "One token up close")
    heading = next(m.value for m in app.markdown if m.value.startswith("**From scores to weights"))
    assert heading == r"**From scores to weights for “\<”**"


def test_the_views_show_a_direction_override_in_the_sentence_as_nothing(app):
    app.text_input(key=control_key("sentence")).input("abc \u202edef ghi").run()
    weights = views(app)["weights"]
    assert weights["rows"][1] == "1: def" and weights["ticks"][1] == "def"  # nothing after it is flipped


@pytest.mark.parametrize("sentence", ["我爱你 👍🏽!", "שלום עולם", "café naïve 👨‍👩‍👧"])
def test_unicode_sentences_work(app, sentence):
    app.text_input(key=control_key("sentence")).input(sentence).run()
    assert not app.exception
    assert len(views(app)["weights"]["rows"]) == playground(app).n > 0


def test_the_controls_beside_the_views_show_the_state_and_follow_the_sentence(app):
    shown = controls(app)
    assert [(c["kind"], c["label"]) for c in shown.values()] == [
        ("choice", "Predict first"),
        ("check", "Causal mask"),
        ("check", "Scale by 1/√d_k"),
        ("range", "Temperature τ"),
        ("toggles", "Block keys (padding mask)"),
        ("choice", "Focus token (query)"),
        ("button", "Undo"),
    ]
    assert [shown[f]["value"] for f in ("causal", "scale", "temperature", "blocked_keys", "focus")] == [
        False,
        True,
        1.0,
        [],
        4,
    ]
    assert (shown["temperature"]["min"], shown["temperature"]["max"], shown["temperature"]["step"]) == (0.1, 5.0, 0.05)
    assert shown["blocked_keys"]["options"][3] == "not" and shown["focus"]["options"][3] == "3: not"
    assert shown["predict"]["options"][0].startswith("Off") and shown["predict"]["value"] == ""  # its own options
    assert shown["predict"]["values"] == ["", "most", "sharper", "zeroed"] and shown["focus"]["values"] == [*range(12)]
    assert shown["undo"]["disabled"] is True and all(c["help"] for c in shown.values() if c["kind"] != "button")

    app.text_input(key=control_key("sentence")).input("The film was \u202enot good").run()
    shown = controls(app)
    assert shown["blocked_keys"]["options"] == ["The", "film", "was", "not", "good"]  # no direction override
    assert shown["focus"]["options"] == ["0: The", "1: film", "2: was", "3: not", "4: good"]
    assert shown["undo"]["disabled"] is False
    use_control(app, "blocked_keys", [3])
    use_control(app, "focus", 1)
    assert control_value(app, "blocked_keys") == [3] and control_value(app, "focus") == 1
    assert texts_of(views(app)["weights"])[1, 3] == "0"


def test_state_survives_a_visit_to_another_page(app):
    use_control(app, "causal", True)
    app.switch_page("pages/why_scale.py").run()
    app.switch_page("pages/playground.py").run()
    assert control_value(app, "causal") is True
    assert np.all(texts_of(views(app)["weights"])[np.triu_indices(12, 1)] == "0")


def test_presenter_mode_keeps_every_control_and_enlarges_the_charts(app):
    assert (
        views_data(app)["font_size"] == 13 and views_data(app)["height"] == 180
    )  # the least: grid.css fills the screen
    app.toggle(key="presenter").set_value(True).run()
    assert not app.exception
    assert views_data(app)["font_size"] == 18
    assert app.slider(key=control_key("d_k")) and app.number_input(key=control_key("seed"))  # a teacher can demo d_k


def test_an_enormous_paste_is_refused_and_the_sentence_kept(app):
    app.text_input(key=control_key("sentence")).input("word " * 2_000).run()
    assert "The sentence is 10,000 characters long; the limit is 5,000. The previous sentence is kept." in warnings(app)
    assert playground(app).n == 12


@pytest.mark.parametrize(("typed", "stored"), [("1.5e-3", 0.0015), ("−2", -2.0), (" 0.125 ", 0.125), ("-0", -0.0)])
def test_typed_numbers_are_stored_exactly_as_typed(app, typed, stored):
    type_cell(app, "K", 1, 2, typed)
    assert not app.exception and not warnings(app)
    value = playground(app).matrices()[1][1, 2]
    assert value == stored and np.copysign(1, value) == np.copysign(1, stored)


def test_an_example_changed_after_loading_says_so(app):
    app.selectbox(key=control_key("example")).set_value("cat_sat").run()
    app.text_input(key=control_key("sentence")).input("The cat sat on the mat").run()
    assert views_data(app)["note"].startswith(
        "You have moved away from the example (another sentence), so its description no longer holds. Now “The” puts"
    )


def test_a_link_opens_with_its_settings():
    from attnviz.classroom.share import encode
    from attnviz.core.playground_state import PlaygroundState

    at = open_app(s=encode(PlaygroundState(causal=True, temperature=0.65)))
    assert control_value(at, "causal") is True
    assert control_value(at, "temperature") == 0.65


def test_the_line_under_the_charts_counts_the_cells_the_weights_view_boxes(app):
    assert views_data(app)["caption"].startswith("Start here: the focus token “good” is outlined in every view.")
    before = texts_of(views(app)["weights"])
    use_control(app, "causal", True)
    after = texts_of(views(app)["weights"])
    moved = int((after != before).sum())  # read from the view as drawn, not from the core
    assert views_data(app)["caption"].startswith(
        f"The last change moved {moved} of 144 weights, too many to box. "  # most cells: a box on each says nothing
        f"The largest move: “The” (0) on “The” (0), {before[0, 0]} → 1.00."  # the first token now sees only itself
    )
    app.selectbox(key=control_key("example")).set_value("movie_negation").run()
    assert views_data(app)["caption"].startswith("New vectors: every view is new.")
    assert [view["changed"] for view in views(app).values()] == [[]] * 4  # said in words: no box to explain


def test_a_typed_sentence_says_whether_the_numbers_followed_the_words(app):
    app.text_input(key=control_key("sentence")).input("The cat sat on the mat because it was tired").run()
    assert views_data(app)["caption"].startswith(
        "New words, same vectors: the vectors belong to positions, so the first 10 rows keep their numbers."
    )
    app.selectbox(key=control_key("example")).set_value("words").run()
    app.text_input(key=control_key("sentence")).input("the dog sat on the mat").run()
    assert views_data(app)["caption"].startswith("New words: every view is new.")
    Q, K, _ = playground(app).matrices()
    np.testing.assert_array_equal(Q[0], Q[4])  # "the" twice: one word, one vector
    assert not np.array_equal(K[1], K[2])


def test_the_first_screen_is_a_worked_example_that_says_where_to_start():
    at = open_app()
    state = playground(at)
    assert state.example == "movie_negation" and state.tokens[state.focus] == "good"
    weights = texts_of(views(at)["weights"])
    note = views_data(at)["note"]
    assert f"“not” ({weights[4, 3]})" in note and f"“amazing” ({weights[4, 10]})" in note  # the row it points to
    assert views_data(at)["caption"].startswith("Start here: the focus token “good” is outlined in every view.")
    (intro,) = [c.value for c in at.caption if c.value.startswith("Each token asks with a query (Q)")]
    assert "The example's vectors belong to positions" in intro  # what a typed sentence would do to them
    assert controls(at)["undo"]["disabled"]  # nothing done yet, nothing to undo


@pytest.mark.parametrize(
    ("example", "change", "moved", "now"),
    [
        ("movie_negation", ("causal", True), "causal mask on", "Now “good” puts 1.00 on “not” (3)."),
        (
            "pronoun_it",
            ("scale", False),
            "scaling off",
            "Now “it” puts 0.95 on “animal” (0), 0.05 on “street” (1), 0.01 on “because” (2).",
        ),
    ],
)
def test_an_examples_note_follows_a_toggle_with_the_numbers_the_view_shows(app, example, change, moved, now):
    app.selectbox(key=control_key("example")).set_value(example).run()
    use_control(app, *change)
    note = views_data(app)["note"]
    assert note.startswith(f"You have moved away from the example ({moved}), so its description no longer holds.")
    assert now in note
    state = playground(app)
    weights = texts_of(views(app)["weights"])[state.focus]
    for j in range(state.n):  # every weight the note quotes is the one in the focus row of the weights view
        if f"({j})." in note or f"({j})," in note:
            assert f"{weights[j]} on “{state.tokens[j]}” ({j})" in note


def test_view_2_is_titled_by_what_was_done_to_the_scores(app):
    assert views(app)["scaled"]["title"] == "2. Scores QKᵀ ÷ √d_k"
    use_control(app, "scale", False)
    assert views(app)["scaled"]["title"] == "2. Scores as they are (no scaling, no mask)"
    use_control(app, "causal", True)
    assert views(app)["scaled"]["title"] == "2. Scores, masked"
    use_control(app, "temperature", 0.5)
    assert views(app)["scaled"]["title"] == "2. Scores QKᵀ ÷ τ=0.5, masked"


def test_undo_steps_back_through_every_move_and_says_what_came_back(app):
    assert controls(app)["undo"]["disabled"]  # opened from a link: nothing of this student's to undo
    use_control(app, "causal", True)
    use_control(app, "focus", 7)
    type_cell(app, "Q", 0, 0, "3")
    assert not controls(app)["undo"]["disabled"]
    use_control(app, "undo")
    assert playground(app).edits == () and confirmations(app) == ["Undone: the edited cells are as before."]
    use_control(app, "undo")
    assert playground(app).focus == 4 and confirmations(app) == ["Undone: “good” is the focus token again."]
    use_control(app, "undo")
    assert playground(app) == PlaygroundState() and confirmations(app) == ["Undone: the causal mask is off again."]
    assert controls(app)["undo"]["disabled"]


# ----------------------------------------------------------------------------- predict mode


def send_browser_voter(at, value):
    """What the browser's script sends once the class box is drawn: this browser's id from its localStorage
    (trigger "id"), or "" from a browser that keeps none."""
    (component,) = [c for c in at.get("bidi_component") if c.proto.component_name == "attnviz_browser_voter"]
    states = at._tree.get_widget_states()
    states.widgets.append(trigger_state(component.proto.id, "id", value))
    return at._run(states)


def guess(at, row: int | None = None, col: int | None = None, *, choice: int | None = None):
    """A click on a cell (or a button) of a covered view, as the browser sends it: the event {"guess": …}. A browser has
    sent its id by then if the class box is drawn (an answer waits for it): here one that keeps none, so each session
    is its own student, unless the test sent one."""
    if not (CLASS in at.session_state and at.session_state[CLASS].heard) and any(
        c.proto.component_name == "attnviz_browser_voter" for c in at.get("bidi_component")
    ):
        at = send_browser_voter(at, "")
    (component,) = [c for c in at.get("bidi_component") if c.proto.id.endswith(f"-{VIEWS}")]
    states = at._tree.get_widget_states()
    sent = {"choice": choice} if choice is not None else {"row": row, "col": col}
    states.widgets.append(trigger_state(component.proto.id, "event", {"guess": sent}))
    return at._run(states)


def test_predict_mode_covers_the_weights_and_outputs_until_a_key_is_clicked(app):
    use_control(app, "predict", True)
    shown = views(app)
    for name in ("weights", "output"):
        assert shown[name]["cover"] and set(shown[name]["numbers"]) == {""} and shown[name]["text"] == []
        assert set(shown[name]["colour"]) == {None}  # not a colour to read the answer from
    assert "cover" not in shown["scores"] and "cover" not in shown["scaled"]  # the scores are what to reason from
    assert views_data(app)["caption"].startswith("Predict first: which key will “good” (4) attend to most?")

    _, weights, _ = naive_default()
    best = int(np.argmax(weights[4]))
    wrong = next(j for j in range(12) if j != best)
    guess(app, 4, wrong)
    assert "cover" not in views(app)["weights"] and views(app)["weights"]["text"]  # revealed
    said = views_data(app)["caption"]
    assert said.startswith(f"Not this time: you predicted “{MOVIE_TOKENS[wrong]}” ({wrong}), outlined in view 3.")
    assert f"attends most to “{MOVIE_TOKENS[best]}” ({best}), weight {format_fixed(weights[4][best])}" in said

    use_control(app, "causal", True)  # any change asks again
    assert views(app)["weights"]["cover"]
    _, weights, _ = naive_default(causal=True)
    best = int(np.argmax(weights[4]))
    guess(app, 4, best)
    assert views_data(app)["caption"].startswith(
        f"Right: you predicted “{MOVIE_TOKENS[best]}” ({best}), outlined in view 3."
    )


def test_a_guess_outside_the_row_or_in_predict_mode_off_is_no_guess(app):
    guess(app, 4, 3)  # predict mode is off: nothing to reveal, nothing kept
    assert "cover" not in views(app)["weights"] and views_data(app)["caption"].startswith("Start here")
    use_control(app, "predict", True)
    for sent in (99, -1):
        guess(app, 4, sent)
        assert views(app)["weights"]["cover"]


def test_sharper_or_flatter_is_asked_on_the_cover_then_scaling_is_switched_and_revealed():
    at = open_app()  # the movie example, d_k = 2, scaling on
    use_control(at, "predict", "sharper")  # the rail sends the question's own value
    weights = views(at)["weights"]
    assert (
        weights["cover"] == "If scaling were switched off (÷ √d_k = ÷ 1.41), would “good”'s row get sharper or flatter?"
    )
    assert weights["choices"] == ["Sharper", "Flatter", "No change"] and set(weights["colour"]) == {None}
    guess(at, choice=1)  # flatter
    assert playground(at).scale is False and playground(at).predict == "sharper"  # the switch is made
    assert "cover" not in views(at)["weights"] and views(at)["weights"]["text"]
    said = views_data(at)["caption"]
    assert said.startswith("You predicted flatter: not this time. Without ÷ √d_k the row has every score 1.41×")
    use_control(at, "undo")  # one move back: scaling on, the question asked again
    assert playground(at).scale is True and views(at)["weights"]["cover"]


def test_the_keys_the_mask_sets_to_0_are_picked_on_the_row_checked_then_outlined_on_the_reveal():
    at = open_app()
    use_control(at, "predict", "zeroed")
    assert views(at)["weights"]["cover"].startswith("If the causal mask were switched on, which keys would it set to 0")
    for col in (5, 6, 3, 3):  # “not” (3) picked, then taken back
        guess(at, 4, col)
    weights = views(at)["weights"]
    assert weights["choices"] == ["Check: “,” (5), “but” (6)"] and weights["boxes"] == [[4, 5, 1, 1], [4, 6, 1, 1]]
    assert playground(at).causal is False  # picking is not answering
    guess(at, choice=0)
    assert playground(at).causal is True
    said = views_data(at)["caption"]
    assert said.startswith(
        "You predicted “,” (5), “but” (6) (outlined in view 3): not this time. The causal mask hides"
    )
    assert "all 7 at once" in said and "left out “the” (7)" in said
    assert views(at)["weights"]["boxes"] == [[4, 5, 1, 1], [4, 6, 1, 1]]  # the prediction, on the revealed view
    assert np.isnan(heatmap_colour(views(at)["weights"])[4, 5:]).all()  # revealed: masked, weight 0


def test_predict_mode_keeps_the_examples_note_back_until_the_reveal():
    at = open_app()  # the first screen: its note quotes the weights
    assert "0.67" in views_data(at)["note"]
    use_control(at, "predict", True)
    assert views_data(at)["note"] == ""  # it would give the answer away
    guess(at, 4, 3)
    assert (
        views_data(at)["caption"].startswith("Right: you predicted “not” (3), outlined in view 3.")
        and "0.67" in views_data(at)["note"]
    )


def test_predict_mode_leaves_nothing_on_the_page_that_answers(app):
    """Predict mode gives nothing away anywhere on the page while it asks: the views' covers, the line under
    them, the example's note, and the One token up close tab (which works the focus row's weights out)."""
    use_control(app, "predict", "most")
    open_tab(app, "playground", "One token up close")
    _, weights, _ = naive_default()
    shown = {f"{w:.2f}" for w in weights[4]} | {f"{w:.4g}" for w in weights[4]}
    words = [m for m in app.markdown if "<style>" not in str(m.value)]  # the page's text, not its stylesheet
    page = texts(words) + texts(app.caption) + texts(app.info) + texts(app.latex)
    page += " ".join(" ".join(map(str, frame.value.to_numpy().ravel())) for frame in app.dataframe)
    data = views_data(app)
    page += data["caption"] + data["note"]
    assert "Covered until you predict in view 3: this tab works out the focus token's weights" in texts(app.info)
    assert not any(frame for frame in app.dataframe if "weight" in frame.value.columns)
    found = [w for w in shown if w not in ("0.00", "0") and w in page]
    assert not found, [page[max(0, page.index(w) - 80) : page.index(w) + 20] for w in found]
    guess(app, 4, 3)  # answered: the tab works the row out again
    assert any("weight" in frame.value.columns for frame in app.dataframe)
