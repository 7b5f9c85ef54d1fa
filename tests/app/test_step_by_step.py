"""Step-by-step page: Back/Next and the stage list, the cell pickers, the embeddings toggle, the pictures' numbers
(against the naive reference and the reference texts' worked examples) and every sentence that depends on the
settings."""

from dataclasses import replace

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attnviz.core.playground_state import PlaygroundState, load_example, set_sentence
from attnviz.playground.session import Session
from tests.reference import naive_attention
from tests.support.apptest import (
    APP,
    as_read,
    button,
    click_cell,
    control_key,
    heatmap_cells,
    open_app,
    setting_key,
    shown_matrix,
    texts,
    use_control,
    views_data,
)

PAGE = "pages/step_by_step.py"
STAGE = setting_key("step_by_step", "stage")


@pytest.fixture
def page():
    """The page showing random vectors by position (seed 42, d_k = 4): the setup these tests recompute."""
    return with_state(PlaygroundState())


def typed(sentence: str, **changes) -> PlaygroundState:
    """The Playground's state after typing ``sentence`` (and then making ``changes``)."""
    state, _ = set_sentence(PlaygroundState(), sentence)
    return replace(state, **changes)


def with_state(state: PlaygroundState, stage: str | None = None):
    """The page showing ``state`` (as if the Playground had set it), on ``stage`` if given."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["playground"] = Session(state=state)  # before the first run, so the page chooses its cell for this state
    at.run().switch_page(PAGE)
    if stage is not None:
        at.session_state[STAGE] = stage
    at.run()
    assert not at.exception, at.exception
    return at


def heading(at) -> str:
    return at.header[0].value


def intro(at) -> str:
    return next(m.value for m in at.markdown if "Playground's" in m.value and not m.value.startswith("<style>"))


def charts(at) -> list[dict]:
    """The stage's pictures, left to right (views of the one component "steps.views")."""
    return views_data(at, "steps.views")["views"]


def drawn(view: dict, masked: bool = False) -> dict[tuple[int, int], str]:
    """{(row, col): cell text} of a view's unmasked cells, or of its masked cells."""
    return heatmap_cells(view)[masked]


def test_next_and_back_walk_every_stage_with_numbers_from_the_naive_reference(page):
    state = page.session_state["playground"].state
    Q, K, V = state.matrices()
    scores, weights, output = (np.array(m) for m in naive_attention(Q.tolist(), K.tolist(), V.tolist()))
    expected = {"scores": scores, "scale": scores / 2, "softmax": weights, "output": output}  # d_k = 4: ÷ √4
    assert button(page, "Back").disabled
    seen = []
    for step in range(5):
        seen.append(heading(page))
        key = page.session_state[STAGE]
        if key in expected:  # the stage's result, to the 4 significant digits a hover shows
            np.testing.assert_allclose(shown_matrix(charts(page)[-1]), expected[key], rtol=5e-4, atol=1e-12)
        if step < 4:
            button(page, "Next").click().run()
            assert not page.exception
    assert [s.split(". ", 1)[0] for s in seen] == [f"Stage {i} of 5" for i in range(1, 6)]
    assert button(page, "Next").disabled
    button(page, "Back").click().run()
    assert page.session_state[STAGE] == "softmax" and page.radio(key=STAGE).value == "softmax"
    page.radio(key=STAGE).set_value("scale").run()  # the list of stages jumps too
    assert heading(page).startswith("Stage 2 of 5. Scale")


def test_scale_and_mask_stages_show_their_input_beside_their_result(page):
    page.radio(key=STAGE).set_value("scale").run()
    before, after = charts(page)
    assert before["title"] == "Before: S" and after["title"] == "After: S ÷ 2"
    raw, halved = shown_matrix(before), shown_matrix(after)
    np.testing.assert_allclose(halved, raw / 2, rtol=5e-4)
    colour_before, colour_after = np.array(before["colour"]), np.array(after["colour"])
    assert (before["palette"], before["range"]) == (after["palette"], after["range"])  # one fixed scale: paler colours
    assert (np.abs(colour_after) <= np.abs(colour_before)).all() and np.abs(colour_after).sum() < np.abs(
        colour_before
    ).sum()


def test_pronoun_formulas_with_the_worked_example_numbers():
    at = with_state(load_example(PlaygroundState(), "pronoun_it"))  # focus 3 "it"; key 3 blocked for every query
    assert at.selectbox(key=setting_key("step_by_step", "query")).value == 3
    assert at.selectbox(key=setting_key("step_by_step", "key")).value == 0  # the key "it" attends to most
    assert r"= 3 \cdot 3 + 1 \cdot 1 = 10 \end{aligned}" in texts(at.latex)
    at.selectbox(key=setting_key("step_by_step", "key")).set_value(1).run()
    assert r"3 \cdot 1 + 1 \cdot 4 = 7" in texts(at.latex)
    button(at, "Next").click().run()
    assert r"\frac{7}{1.414} = 4.95" in texts(at.latex)
    button(at, "Next").click().run()  # mask
    assert [c["title"] for c in charts(at)] == [
        "Before: scaled scores",
        "After: the Playground's mask",
        "If it were a decoder (causal)",
    ]
    assert "4 cells changed: this stage set them to −∞ (grey)." in texts(at.caption)
    assert "Boxed in orange" in texts(at.caption)
    assert "**encoder**" in texts(at.markdown) and "**decoder**" in texts(at.markdown)
    button(at, "Next").click().run()
    assert r"= \frac{0.1199}{1.149} = 0.1043" in texts(at.latex)  # the reference text's 0.8703, 0.1043, 0.0254
    assert drawn(charts(at)[1])[(3, 0)] == "0.87" and drawn(charts(at)[1])[(3, 2)] == "0.03"
    button(at, "Next").click().run()
    at.selectbox(key=setting_key("step_by_step", "dimension")).set_value(0).run()
    assert r"\text{out}_{3,1}" in texts(at.latex) and r"= 0.8703 \end{aligned}" in texts(at.latex)


def test_a_masked_weight_shows_0_and_a_masked_score_minus_infinity():
    at = with_state(load_example(PlaygroundState(), "pronoun_it"), "softmax")
    before, after = charts(at)
    assert set(drawn(before, True).values()) == {"−∞"} and set(drawn(after, True).values()) == {"0"}
    assert sorted(drawn(after, True)) == [(row, 3) for row in range(4)]
    at.selectbox(key=setting_key("step_by_step", "key")).set_value(3).run()
    assert r"w_{3,3} = \frac{e^{-\infty}}{\cdots} = 0" in texts(at.latex)


def test_causal_playground_is_explained_as_a_decoder():
    at = with_state(replace(load_example(PlaygroundState(), "pronoun_it"), causal=True), "mask")
    assert "set up as a decoder, and also blocks key 3 for every query" in texts(at.markdown)
    assert charts(at)[2]["title"] == "If it were an encoder (no causal mask)"
    at.selectbox(key=setting_key("step_by_step", "query")).set_value(0).run()
    at.selectbox(key=setting_key("step_by_step", "key")).set_value(2).run()
    assert "key comes after the query (causal mask)" in texts(at.latex)


def test_the_mask_and_scale_stages_switch_their_setting_beside_their_pictures():
    at = with_state(load_example(PlaygroundState(), "pronoun_it"), "mask")
    assert charts(at)[2]["title"] == "If it were a decoder (causal)"
    at.toggle(key=control_key("causal")).set_value(True).run()
    assert at.session_state["playground"].state.causal  # the Playground's own setting: it keeps it
    assert charts(at)[2]["title"] == "If it were an encoder (no causal mask)"
    assert "set up as a decoder" in texts(at.markdown)
    at.session_state[STAGE] = "scale"
    at.run()
    assert [t.label for t in at.toggle if t.key == control_key("scale")] == ["Scale by 1/√d_k"]
    at.toggle(key=control_key("scale")).set_value(False).run()
    assert not at.session_state["playground"].state.scale
    assert "τ = 1 (scaling is off, so only the temperature divides)" in texts(at.latex) + texts(at.markdown)


# ----------------------------------------------------------------------------- sentences that follow the numbers


@pytest.mark.parametrize(
    ("changes", "written"),
    [
        ({"d_k": 1}, "√d_k · τ = √1 · 1 = 1"),  # scaling on, d_k = 1
        ({"d_k": 4, "temperature": 0.5}, "√d_k · τ = √4 · 0.5 = 1"),
        ({"scale": False}, "τ = 1 (scaling is off, so only the temperature divides)"),
    ],
)
def test_a_divisor_of_one_is_said_as_it_is(changes, written):
    at = with_state(typed("a b c", **changes), "scale")
    assert f"Every score is divided by {written} here, so the scores pass through unchanged." in texts(at.markdown)
    assert "Scaling is off and the temperature is 1" not in texts(at.markdown)
    caption = texts(at.caption)
    assert "No cell changed: dividing by 1" in caption and "Every cell is new" not in caption
    before, after = charts(at)
    assert drawn(before) == drawn(after)


def test_the_scaling_sentence_follows_the_divisor():
    flatter = texts(with_state(typed("a b c"), "scale").markdown)  # ÷ √4 = 2
    assert "the gaps between scores shrink, so the softmax that follows is less extreme" in flatter
    assert "grow" not in flatter
    sharper = texts(with_state(typed("a b c", d_k=2, temperature=0.5), "scale").markdown)
    assert "√d_k · τ = √2 · 0.5 = 0.7071" in sharper  # √2 · 0.5 = 0.70711
    assert "the gaps between scores grow, so the softmax that follows gets sharper" in sharper
    assert "shrink" not in sharper and "less extreme" not in sharper


def test_mask_stage_with_every_key_blocked_says_so():
    at = with_state(replace(load_example(PlaygroundState(), "pronoun_it"), blocked_keys=(0, 1, 2, 3)), "mask")
    caption = texts(at.caption)
    assert "every key is blocked for every query, so every score is now −∞" in caption
    assert "nothing is masked" not in caption and "No cell changed" not in caption
    assert "every key blocked" in texts(at.warning)
    assert set(drawn(charts(at)[1], True).values()) == {"−∞"} and not drawn(charts(at)[1])
    at.radio(key=STAGE).set_value("softmax").run()
    assert "every key is masked for this query" in texts(at.latex)
    assert set(drawn(charts(at)[1], True).values()) == {"0"}  # weights, not −∞


def test_mask_stage_with_nothing_masked_says_so(page):
    page.radio(key=STAGE).set_value("mask").run()
    assert "No cell changed: no key is masked, so both pictures are the same." in texts(page.caption)
    assert charts(page)[2]["title"] == "If it were a decoder (causal)"


# ----------------------------------------------------------------------------- the introduction, the projection stage


def test_introduction_shows_the_sentence_as_typed():
    heading_text = intro(with_state(typed("foo\n===\nbar")))
    assert "\n" not in heading_text  # a newline would make "===" a heading underline
    assert "“foo === bar”" in as_read(heading_text)
    reversed_text = intro(with_state(typed("abc \u202edef **bold**")))
    assert "\u202e" not in reversed_text
    assert "“abc def **bold**”" in as_read(reversed_text) and r"\*\*bold\*\*" in reversed_text


def test_a_long_sentence_is_quoted_short():
    long = " ".join(f"w{i}" for i in range(60))  # 229 characters
    shown = intro(with_state(typed(long)))
    assert f"“{long[:79]}…”" in as_read(shown) and "(60 tokens" in shown


def test_embeddings_toggle_adds_the_projection_stage(page):
    page.toggle(key=setting_key("step_by_step", "from_embeddings")).set_value(True).run()
    assert not page.exception
    assert heading(page).startswith("Stage 2 of 6. Scores")  # the student stays where they were
    button(page, "Back").click().run()
    assert heading(page).startswith("Stage 1 of 6. Project")
    assert [c["title"] for c in charts(page)] == [
        "Before: X (embeddings)",
        "After: Q",
        "After: K",
        "After: V",
    ]
    assert len(charts(page)[1]["rows"]) == 12 and len(charts(page)[1]["cols"]) == 4  # Q: n × d_k
    page.slider(key=setting_key("step_by_step", "d_model")).set_value(2).run()
    page.selectbox(key=setting_key("step_by_step", "dimension")).set_value(3).run()
    latex = texts(page.latex)
    assert latex.count(r"\cdot") == 2 and r"Q_{4,4}" in latex  # d_model = 2 terms; query 4, dimension 4
    page.toggle(key=setting_key("step_by_step", "from_embeddings")).set_value(False).run()
    assert heading(page).startswith("Stage 1 of 5. Scores")  # the projection stage is gone


def test_the_stage_and_the_chosen_cell_survive_a_visit_to_the_playground(page):
    page.radio(key=STAGE).set_value("mask").run()
    page.selectbox(key=setting_key("step_by_step", "query")).set_value(7).run()
    page.switch_page("pages/playground.py").run()
    page.switch_page(PAGE).run()
    assert not page.exception
    assert heading(page).startswith("Stage 3 of 5. Mask") and page.radio(key=STAGE).value == "mask"
    assert page.selectbox(key=setting_key("step_by_step", "query")).value == 7


def test_arrow_keys_drive_the_lesson(page):
    assert button(page, "Next").proto.shortcut == "right"
    assert button(page, "Back").proto.shortcut == "left"


def test_a_click_on_a_cell_chooses_the_formula_that_reads_it(page):
    """Stage 1, S = Q Kᵀ: a click on S[2, 5] chooses query 2 and key 5; on K's row 7, key 7; the formula follows."""
    query, key = (page.selectbox(key=setting_key("step_by_step", name)) for name in ("query", "key"))
    click_cell(page, "steps.views", "scores-2", 2, 5)
    assert (query.value, key.value) == (2, 5) and charts(page)[2]["boxes"] == [[2, 5, 1, 1]]
    assert charts(page)[0]["boxes"] == [[2, 0, 1, 4]] and charts(page)[1]["boxes"] == [[5, 0, 1, 4]]  # q₂ and k₅
    assert r"S_{2,5} &= q_{2}\cdot k_{5}" in texts(page.latex)
    click_cell(page, "steps.views", "scores-1", 7, None)  # K's row label
    assert (query.value, key.value) == (2, 7)
    click_cell(page, "steps.views", "scores-2", 99, 0)  # past the view (only a crafted message): nothing changes
    click_cell(page, "steps.views", "softmax-1", 0, 0)  # another stage's picture: nothing changes
    assert (query.value, key.value) == (2, 7) and not page.exception


def test_predict_mode_covers_each_stages_result_until_a_cell_of_the_query_row_is_clicked():
    at = open_app()
    use_control(at, "predict", "most")  # the Playground's predict mode holds on Step by step too
    at.switch_page("pages/step_by_step.py").run()
    for _ in range(3):  # Scores → Scale → Mask → Softmax: before = masked scores, after = weights
        button(at, "Next").click().run()
    before, after = charts(at)
    assert "cover" not in before and after["cover"].startswith("Predict first: which cell of row 4: good")
    assert set(after["colour"]) == {None}  # nothing to read the answer from
    query = at.selectbox(key=setting_key("step_by_step", "query")).value
    click_cell(at, "steps.views", "softmax-1", query, 10, covered=True)  # “amazing”
    _, after = charts(at)
    assert "cover" not in after and after["text"]
    state = at.session_state["playground"].state
    Q, K, V = state.matrices()
    weights = np.array(naive_attention(Q.tolist(), K.tolist(), V.tolist())[1])  # (12, 12)
    best = int(np.argmax(weights[query]))
    said = texts(at.info)
    assert said.startswith("Not this time: you predicted 10: amazing (")
    assert f"of “After: weights” is {state.labels[best]}: " in said
    button(at, "Back").click().run()  # another stage asks again
    assert charts(at)[1]["cover"]


def test_predict_mode_on_step_by_step_gives_no_trace_of_the_answer():
    """The key preselected was the row's largest, the formula under the cover worked its score out, and the
    outline on K's row (and after Randomise on the covered cell) pointed at it. The whole page read while covered:
    its text, its formulas, its outlines and its preselected values."""
    at = open_app()
    use_control(at, "predict", "most")
    at.switch_page(PAGE).run()
    state = at.session_state["playground"].state
    best = int(np.argmax(state.result().weights[state.focus]))
    assert best != 0  # “good” attends to “not” most: a preselected 0 is not the answer
    for stage in range(5):
        covered = [view for view in charts(at) if view.get("cover")]
        assert covered, stage
        column = setting_key("step_by_step", "key" if stage < 4 else "dimension")  # the weighted sum's: a dimension
        assert at.selectbox(key=column).value == 0 and not at.latex  # no preselected answer, no formula of it
        query = at.selectbox(key=setting_key("step_by_step", "query")).value
        for view in charts(at):  # an outline is the query's row, never a column, a cell or K's row
            assert all(box[:2] == [query, 0] and box[2] == 1 for box in view["boxes"]), (stage, view["boxes"])
        page = texts(at.markdown) + texts(at.caption) + texts(at.info)
        assert "The chosen cell's formula shows once you have predicted" in page
        if stage < 4:
            button(at, "Next").click().run()
