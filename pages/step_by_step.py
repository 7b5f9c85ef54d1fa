"""Step by step: the Playground's attention pass one stage at a time. Each stage shows its input beside its result on
one colour scale, says what changed, and works one cell out in numbers.

One screen: the stage list and the chosen cell on the left, the stage's pictures on the right, the formula under them.
"""

from functools import partial

import streamlit as st

from attnviz.core.limits import MAX_D_MODEL
from attnviz.figures.stages import panel_widths, stage_lens, stage_notes, stage_views
from attnviz.lessons.questions import stage_question
from attnviz.lessons.stages import walkthrough
from attnviz.lessons.step_words import FORMULA_WAITS, first_key, introduction, stage_heading, stage_reading
from attnviz.ui import playground_host, predict, state
from attnviz.ui import step_by_step as steps
from attnviz.ui.attention_grid import show_matrices
from attnviz.ui.classroom import share_link_box
from attnviz.ui.lesson_plan import running
from attnviz.ui.lessons import explained_errors
from attnviz.ui.presenter import chart_font_size, presenting
from attnviz.ui.routes import through_the_router
from attnviz.ui.text import literal

through_the_router()  # a fresh server's first visit to this address: through app.py

PAGE = "step_by_step"
SENTENCE_SHOWN = 80  # characters of the sentence quoted in the introduction; the charts label every token
# The Playground setting each of these stages is about: (field, switch label).
STAGE_SWITCHES = {"scale": ("scale", "Scale by 1/√d_k"), "mask": ("causal", "Causal mask (decoder)")}
playground = playground_host.playground()

heading, intro = st.columns([1.35, 3.35], vertical_alignment="center")
heading.title("Step by step")
sentence = playground.sentence
quoted = sentence if len(sentence) <= SENTENCE_SHOWN else sentence[: SENTENCE_SHOWN - 1] + "…"
intro.markdown(introduction(playground, literal(quoted)))


def move(keys: list[str], by: int) -> None:
    """Back (−1) or Next (+1) through the stages."""
    at = keys.index(state.setting_value(PAGE, "stage"))
    state.set_setting(PAGE, "stage", keys[max(0, min(len(keys) - 1, at + by))])


rail, main = st.columns([1, 3.7], gap="medium")
with rail:
    from_embeddings = st.toggle("Start from X", **state.page_setting(PAGE, "from_embeddings", False))
    st.caption("Q, K and V made from random embeddings X and projections (adds a stage).")
    d_model = 4
    if from_embeddings:
        d_model = st.slider("d_model (embedding width)", 1, MAX_D_MODEL, **state.page_setting(PAGE, "d_model", 4))
    with explained_errors():
        walk = walkthrough(playground, from_embeddings=from_embeddings, d_model=d_model)
    stages = {stage.key: stage for stage in walk.stages}
    keys = list(stages)
    chosen_key = st.radio(
        "Stage",
        keys,
        format_func=lambda key: f"{keys.index(key) + 1}. {stages[key].name}",
        **state.page_setting(PAGE, "stage", keys[0], options=keys),  # falls back when the projection stage goes
    )
    position = keys.index(chosen_key)
    back, forward = st.columns(2)
    arrows = running() is None  # the arrow keys walk the stages, or a lesson plan being presented (its bar's)
    last = position == len(keys) - 1  # the arrow keys drive the lesson (or a presenter's clicker)
    back.button("Back", on_click=move, args=(keys, -1), disabled=position == 0, width="stretch",
                shortcut="Left" if arrows else None, key="steps.back")  # fmt: skip
    forward.button("Next", on_click=move, args=(keys, 1), disabled=last, width="stretch",
                   shortcut="Right" if arrows else None, key="steps.next")  # fmt: skip
    stage, r = stages[chosen_key], walk.result
    if chosen_key in STAGE_SWITCHES:  # the setting this stage explains, switched where its pictures are
        field, label = STAGE_SWITCHES[chosen_key]
        st.toggle(label, **playground_host.playground_control(field))
    query = st.selectbox(
        "Query token (row)",
        range(playground.n),
        format_func=lambda i: playground.labels[i] if i < playground.n else str(i),
        **state.page_setting(PAGE, "query", playground.focus, options=range(playground.n)),
    )
    if stage.columns_are == "key":
        column = st.selectbox(
            "Key token (column)",
            range(playground.n),
            format_func=lambda j: playground.labels[j] if j < playground.n else str(j),
            # start on the key the focus token attends to most (in predict mode, on the first: no answer given)
            **state.page_setting(PAGE, "key", first_key(playground), options=range(playground.n)),
        )
    else:
        width = stage.worked_out.matrix.shape[1]  # the formula's columns (Q's at the projection stage)
        column = st.selectbox(
            "Dimension (column)",
            range(width),
            format_func=lambda c: f"dim {c + 1}",
            **state.page_setting(PAGE, "dimension", 0, options=range(width)),
        )
    share_link_box(PAGE)

with main:
    st.header(stage_heading(position, len(keys), stage.title))  # h2: the page's h1 is its title
    st.markdown(stage.explanation)
    if r.fully_masked.any():
        st.warning("Some queries have every key blocked: their weights are all 0 and their outputs are zero vectors.")
    question = stage_question(PAGE, stage, query)  # predict mode: the stage's result waits for a click on its row
    guessed = predict.answered(question)
    asking = bool(playground.predict) and guessed is None
    views = stage_views(stage, (query, column), font_size=chart_font_size(), cover=question.cover() if asking else None)
    if playground.predict and guessed is not None:
        st.info(question.reveal(guessed), icon=":material/lightbulb:")
    show_matrices(  # one key for every stage: Back and Next repaint the same canvases in place
        views,
        key=steps.VIEWS,
        height=300 if presenting() else 330,
        font_size=chart_font_size(),
        columns=panel_widths(stage),
        labels_first=True,
        on_cell=partial(steps.choose_cell, stage),
        on_guess=partial(predict.guess, steps.VIEWS, [question]),
        enter="Enter chooses this cell's formula.",
        lens=stage_lens(stage, views, (query, column)) if presenting() else None,  # the chosen row, large
    )
    with st.container(key="stage_formula"):  # a lesson step about a formula opens scrolled to it
        if asking:  # its numbers would answer the question
            st.caption(FORMULA_WAITS)
        else:
            st.latex(stage.formula(query, column))
    st.caption(stage_reading(stage.caption, stage_notes(stage, views)))
