"""Step by step: the Playground's attention pass one stage at a time, with one cell worked out in numbers."""

import streamlit as st

from attnviz.figures import stages as figs
from attnviz.lessons import stages as steps
from attnviz.ui import state as session
from attnviz.ui.charts import show_chart
from attnviz.ui.classroom import share_link_box
from attnviz.ui.lessons import explained_errors
from attnviz.ui.text import literal

PAGE = "step_by_step"
state = session.playground()

st.title("Step by step")
st.markdown(
    f"This page takes the **Playground's** current sentence, vectors and settings apart, one stage at a time: "
    f"“{literal(state.sentence)}” ({state.n} tokens, d_k = {state.d_k}, "
    f"{'causal' if state.causal else 'no'} mask, scaling {'on' if state.scale else 'off'}, "
    f"temperature {state.temperature:g}). Change any of them on the Playground page and come back."
)

from_embeddings = st.toggle(
    "Start from embeddings X (adds the projection stage)",
    **session.page_setting(PAGE, "from_embeddings", False),
    help="Instead of the Playground's Q, K and V, make them from random embeddings and projection matrices.",
)
d_model = 4
if from_embeddings:
    d_model = st.slider("d_model (embedding width)", 1, 16, **session.page_setting(PAGE, "d_model", 4))
with explained_errors():
    walk = steps.walkthrough(state, from_embeddings=from_embeddings, d_model=d_model)
stage_keys = walk.stage_keys
if session.setting_value(PAGE, "stage") not in stage_keys:
    session.set_setting(PAGE, "stage", stage_keys[0])  # first visit, or the projection stage was just switched off


def move(by: int) -> None:
    at = stage_keys.index(session.setting_value(PAGE, "stage"))
    session.set_setting(PAGE, "stage", stage_keys[max(0, min(len(stage_keys) - 1, at + by))])


position = stage_keys.index(session.setting_value(PAGE, "stage"))
back, progress, forward = st.columns([1, 6, 1], vertical_alignment="center")
back.button("Back", on_click=move, args=(-1,), disabled=position == 0, width="stretch", shortcut="Left")
forward.button(
    "Next",
    on_click=move,
    args=(1,),
    disabled=position == len(stage_keys) - 1,
    width="stretch",
    shortcut="Right",  # the arrow keys drive the lesson from the keyboard (or a presenter's clicker)
)
progress.markdown(
    "Stages: "  # a leading "1." would make a numbered list
    + " → ".join(f"**{i + 1}. {key}**" if i == position else f"{i + 1}. {key}" for i, key in enumerate(stage_keys))
)

stage = walk.stage(stage_keys[position])
st.header(f"Stage {position + 1} of {len(stage_keys)}. {stage.title}")
r = walk.result

# ----------------------------------------------------------------------------- what this stage does
if stage.key == "project":
    st.markdown(
        f"Each token starts as an embedding, one row of X ({state.n} × {d_model}). Three matrices turn it into a "
        f"query (what it looks for), a key (what it offers) and a value (what it passes on). In a trained model they "
        f"are learned; here they are random from the Playground's seed ({state.seed})."
    )
elif stage.key == "scores":
    st.markdown(
        "Cell (i, j) is query i's dot product with key j: large when what token i looks for matches what token j "
        "offers. Row i lists everything token i could attend to."
    )
elif stage.key == "scale":
    if r.scale_factor == 1.0:
        st.markdown("Scaling is off and the temperature is 1 in the Playground, so the scores pass through unchanged.")
    else:
        st.markdown(
            f"Every score is divided by the same number, {r.scale_factor:.4g}"
            + (f" (√{walk.d_k} × temperature {state.temperature:g})" if state.scale else " (the temperature)")
            + ". The order within a row stays the same, but the gaps shrink, so the softmax that follows is less "
            "extreme. Without it, wide vectors give scores so far apart that one key takes all the weight."
        )
elif stage.key == "mask":
    st.markdown(
        "The mask sets the scores a query is not allowed to use to −∞, so softmax gives them exactly 0.\n"
        "- **Encoder** (e.g. BERT, reading a whole sentence): no mask, every token sees every token.\n"
        "- **Decoder** (e.g. GPT, writing one token after another): a *causal* mask, token i sees only tokens 0…i, "
        "because when it is generated the later ones do not exist yet.\n\n"
        f"The Playground is set up as {'a decoder' if state.causal else 'an encoder'}"
        + (
            f", and also blocks key(s) {', '.join(map(str, state.blocked_keys))} for every query"
            if state.blocked_keys
            else ""
        )
        + ". The second heatmap shows the other choice."
    )
elif stage.key == "softmax":
    st.markdown(
        "Each row is exponentiated and divided by its sum, so it becomes positive weights that add up to 1. "
        "Subtracting the row's largest score m first changes nothing in the result but keeps eˣ from overflowing."
    )
elif stage.key == "output":
    st.markdown(
        "Each token's output is a blend of all the value rows, mixed in the proportions of its weights. A token that "
        "put 0.9 on one key gets mostly that key's value."
    )
if r.fully_masked.any():
    st.warning("Some queries have every key blocked: their weights are all 0 and their outputs are zero vectors.")

# ----------------------------------------------------------------------------- the chosen cell
pick_query, pick_column = st.columns(2)
query = pick_query.selectbox(
    "Query token (row)",
    range(state.n),
    format_func=lambda i: state.labels[i] if i < state.n else str(i),
    **session.page_setting(PAGE, "query", state.focus, options=range(state.n)),
)
if stage.columns_are == "key":
    column = pick_column.selectbox(
        "Key token (column)",
        range(state.n),
        format_func=lambda j: state.labels[j] if j < state.n else str(j),
        # start on the key the focus token attends to most
        **session.page_setting(PAGE, "key", int(r.weights[state.focus].argmax()), options=range(state.n)),
    )
else:
    width = stage.panels[0].matrix.shape[1]
    column = pick_column.selectbox(
        "Dimension (column)",
        range(width),
        format_func=lambda c: f"dim {c + 1}",
        **session.page_setting(PAGE, "dimension", 0, options=range(width)),
    )

# ----------------------------------------------------------------------------- the matrices
panel_columns = st.columns(len(stage.panels))
for i, (col, panel) in enumerate(zip(panel_columns, stage.panels, strict=True)):
    with col:
        show_chart(figs.panel_figure(panel, (query, column) if i == 0 else None), key=f"steps_panel_{stage.key}_{i}")
main = stage.panels[0]
if main.changed is not None and main.changed.any() and not main.changed.all():
    st.caption(
        f"Outlined in yellow: the {int(main.changed.sum())} cells this stage changed. Boxed in black and white: the chosen cell."
    )
elif stage.key == "scale" and r.scale_factor != 1.0:
    st.caption(
        f"Every cell changed: each was divided by {r.scale_factor:.4g}. Boxed in black and white: the chosen cell."
    )
elif stage.key == "mask":
    st.caption("No cell changed: nothing is masked. Boxed in black and white: the chosen cell.")
elif stage.key == "softmax":
    st.caption("Every cell changed: each row became weights that sum to 1. Boxed in black and white: the chosen cell.")
else:
    st.caption("Every cell is new at this stage. Boxed in black and white: the chosen cell.")

st.subheader("The chosen cell, in numbers")
st.latex(walk.formula(stage.key, query, column))

share_link_box(PAGE)
