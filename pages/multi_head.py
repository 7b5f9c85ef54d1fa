"""Multi-head attention: embeddings, projections, heads side by side, concatenation, W_O, and what it costs."""

from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

from attnviz.core.limits import MAX_D_MODEL, MAX_SEED
from attnviz.figures import costs as cost_figures
from attnviz.figures import multi_head as figs
from attnviz.lessons import costs
from attnviz.lessons import multi_head as lesson
from attnviz.lessons.typed_x import TypedX, x_table
from attnviz.ui import playground_host, predict, state
from attnviz.ui.attention_grid import show_matrices, show_views
from attnviz.ui.challenges import sticky_controls
from attnviz.ui.charts import show_chart
from attnviz.ui.classroom import share_link_box
from attnviz.ui.lessons import explained_errors
from attnviz.ui.presenter import chart_font_size
from attnviz.ui.routes import through_the_router
from attnviz.ui.text import named_table

through_the_router()  # a fresh server's first visit to this address: through app.py

PAGE = "multi_head"

playground = playground_host.playground()
labels = playground.labels
n = len(labels)

st.title("Multi-head attention and projections")
st.markdown(lesson.intro_text(n))

# ----------------------------------------------------------------------------- controls
sizes = sticky_controls(PAGE).columns([2, 1, 1], vertical_alignment="bottom")  # in sight of the heads
d_model = sizes[0].slider("d_model (embedding width)", 1, MAX_D_MODEL, **state.page_setting(PAGE, "d_model", 8))
divisors = costs.divisors(d_model)
n_heads = sizes[1].selectbox(
    "n_heads",
    divisors,
    **state.page_setting(PAGE, "heads", 2 if 2 in divisors else 1, options=divisors),
)
seed = sizes[2].number_input("seed", 0, MAX_SEED, step=1, **state.page_setting(PAGE, "seed", 0))
st.caption(lesson.sizes_caption(d_model))  # below the bar
# The mask and the exercise's switch are drawn beside the heads and the scores they change (below); their values are
# read here because every section is computed from them.
causal = state.setting_value(PAGE, "causal", playground.causal)
tie_qk = state.setting_value(PAGE, "tie", False)
setup = lesson.Setup(d_model, n_heads, int(seed), causal, tie_qk)
layout = figs.Sizes.of(n, n_heads)
font = chart_font_size()


def on_x_event(where: tuple[int, int], rows: list[str], cols: list[str], event) -> None:
    """A cell typed or a block pasted into X, by the cell names drawn (attnviz.lessons.typed_x)."""
    state.set_setting(PAGE, "x_typed", state.setting_value(PAGE, "x_typed", TypedX()).after(event, where, rows, cols))


def edited_x(base_X: np.ndarray) -> np.ndarray:
    """X as a table to type into, drawn with the edits kept for this (seed, d_model)."""
    typed, where = state.setting_value(PAGE, "x_typed", TypedX()), (setup.seed, d_model)
    X = typed.on(base_X, where)
    data = x_table(X, labels, edited=typed.edited, warning=typed.refused, height=layout.token_rows_height,
                   font_size=font)  # fmt: skip
    drawn = data["views"][0]  # its rows' and columns' names, as the browser names a cell typed into
    show_views(key="mh.x", data=data, on_event=partial(on_x_event, where, drawn["rows"], drawn["cols"]))
    state.set_setting(PAGE, "x_typed", typed.said())  # a refusal is said once, at X
    return X


# ----------------------------------------------------------------------------- X and projections
st.header("1. Embeddings and projections")
with explained_errors():
    base_X = lesson.embeddings(n, setup)  # (n, d_model)
if lesson.x_is_editable(base_X):
    X = edited_x(base_X)
else:
    X = base_X
    st.caption(lesson.x_drawn_caption(n, d_model))
    show_matrices([figs.x_map(X, labels)], key="mh.x", height=layout.token_rows_height, font_size=font)
with explained_errors():
    model = lesson.run(X, setup)
weight_tab, qkv_tab = st.tabs(["W_Q, W_K, W_V", "Q, K, V"])
with weight_tab:
    show_matrices(figs.weight_maps(model), key="mh.weights", height=300, font_size=font)
with qkv_tab:
    show_matrices(figs.projected_maps(model, labels), key="mh.qkv", height=layout.token_rows_height, font_size=font)

# ----------------------------------------------------------------------------- heads
heading, mask = st.columns([3, 1], vertical_alignment="bottom")
heading.header(lesson.heads_heading(setup))
mask.checkbox("Causal mask (decoder)", **state.page_setting(PAGE, "causal", playground.causal))
st.markdown(lesson.heads_text(setup))
if n_heads > lesson.MAX_HEADS_DRAWN:
    st.caption(lesson.heads_drawn_caption(n_heads))
heads, asked = figs.head_maps(model, labels), []
if playground.predict:  # the Playground's predict mode: each head asks about the focus token's row
    drawn = [(head.weights, head.blocked) for head in model.result.heads[: lesson.MAX_HEADS_DRAWN]]
    heads, asked, _ = predict.ask_rows(PAGE, heads, drawn, min(playground.focus, n - 1))  # says what answers reveal
guessed = partial(predict.guess, "mh.heads", asked) if asked else None  # one key: a switch repaints in place
show_matrices(heads, key="mh.heads", height=layout.head_height, font_size=font, columns=[1] * layout.heads_per_row,
              on_guess=guessed)  # fmt: skip

# ----------------------------------------------------------------------------- concat and W_O
st.header("3. Concatenate, then mix with W_O")
st.markdown(
    "Each head returns an n × d_head block. Putting the blocks side by side gives an n × d_model matrix again; "
    "W_O then mixes the heads' findings into every output dimension."
)
show_matrices(figs.mixing_maps(model, labels), key="mh.mixing", height=layout.token_rows_height, font_size=font)

# ----------------------------------------------------------------------------- exercise
st.header("4. Exercise: tie W_Q and W_K")
switch, scores = st.columns([1, 1.6], gap="medium")
tie_guess = predict.ask_choice(lesson.tie_question(X, setup), where=switch)  # asked before the switch moves
tie_asked = bool(playground.predict) and tie_guess is None
switch.checkbox("Tie W_K = W_Q", **state.page_setting(PAGE, "tie", False), disabled=tie_asked)
(switch.success if tie_qk else switch.markdown)(lesson.tie_text(model))
with scores:
    show_matrices([figs.scores_map(model, labels)], key="mh.scores", height=layout.head_height, font_size=font)

# ----------------------------------------------------------------------------- costs
st.header("5. What it costs")
with explained_errors():
    params = costs.parameters(d_model, n_heads)
    work = costs.flops(n, d_model, n_heads)
st.markdown(costs.parameters_text(params))
with named_table("FLOPs of each step", "flops"):
    st.dataframe(
        pd.DataFrame(costs.flops_table(work)),
        hide_index=True,
        column_config={"FLOPs": st.column_config.NumberColumn(format="localized")},
    )
st.caption(costs.flops_caption(n, work))
lengths = np.unique(np.geomspace(1, 16_384, 60).astype(int))
curve = costs.cost_curve((*lengths, n), d_model, n_heads)
crossover = costs.crossover_length(d_model, n_heads)
show_chart(cost_figures.cost_plot(*curve, current_n=n, crossover=crossover), key="mh_cost")
st.markdown(costs.crossover_text(d_model, n_heads))

share_link_box(PAGE)
