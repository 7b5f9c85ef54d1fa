"""Multi-head attention: embeddings, projections, heads side by side, concatenation, W_O, and what it costs."""

import numpy as np
import pandas as pd
import streamlit as st

import attnviz
from attnviz.core import random as heads
from attnviz.core.limits import EDITABLE_CELLS, MAX_D_MODEL, MAX_SEED
from attnviz.core.numbers import parse_cells, with_cells
from attnviz.figures import costs as figs
from attnviz.figures.heatmaps import matrix_heatmap
from attnviz.lessons import costs
from attnviz.ui import state as session
from attnviz.ui.charts import show_chart
from attnviz.ui.classroom import share_link_box
from attnviz.ui.editors import number_table
from attnviz.ui.lessons import explained_errors
from attnviz.ui.text import literal

PAGE = "multi_head"
MAX_HEADS_DRAWN = 8  # beyond this the heatmaps get too small to read; the concatenation still shows every head

state = session.playground()
labels = state.labels
n = len(labels)

st.title("Multi-head attention and projections")
st.markdown(
    f"A real layer does not get Q, K and V handed to it. Each token starts as an **embedding** x (one row of X), "
    f"and three learned matrices turn it into a query, a key and a value: Q = X W_Q, K = X W_K, V = X W_V. "
    f"Multi-head attention then cuts those columns into n_heads slices and runs attention on each slice "
    f"separately, so different heads can look for different things. The tokens are the Playground's sentence "
    f"({n} tokens); the numbers are random from the seed."
)

# ----------------------------------------------------------------------------- controls
sizes = st.columns([2, 1, 1], vertical_alignment="bottom")
d_model = sizes[0].slider("d_model (embedding width)", 1, MAX_D_MODEL, **session.page_setting(PAGE, "d_model", 8))
divisors = costs.divisors(d_model)
n_heads = sizes[1].selectbox(
    "n_heads",
    divisors,
    help=f"Only divisors of d_model = {d_model} are offered, so every head gets the same width.",
    **session.page_setting(PAGE, "heads", 2 if 2 in divisors else 1, options=divisors),
)
seed = sizes[2].number_input("seed", 0, MAX_SEED, step=1, **session.page_setting(PAGE, "seed", 0))
toggles = st.columns(2)
causal = toggles[0].checkbox("Causal mask (decoder)", **session.page_setting(PAGE, "causal", state.causal))
tie_qk = toggles[1].checkbox(
    "Exercise: tie W_K = W_Q",
    help="Use the same matrix for queries and keys, then look at the scores.",
    **session.page_setting(PAGE, "tie", False),
)
d_head = d_model // n_heads
# Three matrices share a row, so their cells are narrow: print numbers in them only while they are few.
third_width_text = d_model <= 4
token_rows_height = int(np.clip(140 + 26 * n, 300, 720))  # tall enough that every token's label is shown

# ----------------------------------------------------------------------------- X and projections
st.header("1. Embeddings and projections")
with explained_errors():
    base_X = heads.random_embeddings(n, d_model, int(seed))  # (n, d_model)
    W_q, W_k, W_v, W_o = heads.random_projections(d_model, int(seed), tie_qk=tie_qk)
columns = [f"x{c + 1}" for c in range(d_model)]
if base_X.size <= EDITABLE_CELLS:
    # Edits are kept per (seed, d_model), so changing either and changing it back brings them back.
    kept = session.setting_value(PAGE, "x_edits", {})
    edits = kept.get((int(seed), d_model), {})
    st.markdown("**X**: one row per token. Small enough to edit: change a number and everything below follows.")
    shown = with_cells(base_X, edits)
    typed = number_table(shown, labels, columns, name=f"x.{int(seed)}.{d_model}", height=min(38 + 35 * n, 460))
    parsed, problems = parse_cells(typed, base_X.shape, lambda row, col: f"X[{row}, dimension {col + 1}]")
    for problem in problems:
        st.warning(literal(problem))
    session.set_setting(PAGE, "x_edits", kept | {(int(seed), d_model): edits | parsed})
    X = with_cells(shown, parsed)
else:
    X = base_X
    st.caption(f"X has {n}×{d_model} = {X.size} numbers: too many to edit by hand, so it is drawn instead.")
    show_chart(matrix_heatmap(X, labels, columns, kind="values", title="X", x_title="dimension"), key="mh_x")

with explained_errors():
    result = attnviz.multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, causal=causal)
dims = [f"d{c + 1}" for c in range(d_model)]
weight_tab, qkv_tab = st.tabs(["W_Q, W_K, W_V", "Q, K, V"])
with weight_tab:
    for col, (name, W) in zip(st.columns(3), (("W_Q", W_q), ("W_K", W_k), ("W_V", W_v)), strict=True):
        with col:
            show_chart(
                matrix_heatmap(
                    W, dims, dims, kind="values", title=name, x_title="out", y_title="in", show_text=third_width_text
                ),
                key=f"mh_{name}",
            )
with qkv_tab:
    for col, (name, M) in zip(st.columns(3), (("Q", result.Q), ("K", result.K), ("V", result.V)), strict=True):
        with col:
            show_chart(
                matrix_heatmap(
                    M,
                    labels,
                    dims,
                    kind="values",
                    title=f"{name} = X W_{name}",
                    x_title="dimension",
                    show_text=third_width_text,
                    height=token_rows_height,
                ),
                key=f"mh_{name}",
            )

# ----------------------------------------------------------------------------- heads
st.header(f"2. {n_heads} head{'s' if n_heads > 1 else ''}, each {d_head} wide")
st.markdown(
    f"Head h (counting from 1) uses dimensions {d_head}·(h−1)+1 … {d_head}·h of Q, K and V and divides its scores by √{d_head}. "
    "Each head has its own weights, so one can follow the previous word while another follows the subject."
)
drawn = result.heads[:MAX_HEADS_DRAWN]
if n_heads > MAX_HEADS_DRAWN:
    st.caption(f"Showing the first {MAX_HEADS_DRAWN} of {n_heads} heads; every head is in the concatenation below.")
per_row = min(len(drawn), 4)
head_text = per_row <= 2 and n <= 12  # two heatmaps a row still leave room for numbers in 12 × 12 cells
for start in range(0, len(drawn), per_row):
    for offset, col in enumerate(st.columns(per_row)):
        h = start + offset
        if h < len(drawn):
            with col:
                title = f"head {h + 1} (dims {h * d_head + 1}–{(h + 1) * d_head})"
                figure = matrix_heatmap(
                    drawn[h].weights,
                    labels,
                    labels,
                    kind="weights",
                    title=title,
                    blocked=drawn[h].blocked,
                    show_text=head_text,
                )
                show_chart(figure, key=f"mh_head_{h}")

# ----------------------------------------------------------------------------- concat and W_O
st.header("3. Concatenate, then mix with W_O")
st.markdown(
    "Each head returns an n × d_head block. Putting the blocks side by side gives an n × d_model matrix again; "
    "W_O then mixes the heads' findings into every output dimension."
)
concat_figure = matrix_heatmap(
    result.concat,
    labels,
    dims,
    kind="values",
    title="concat(heads)",
    x_title="dimension",
    show_text=third_width_text,
    height=token_rows_height,
)
for h in range(1, n_heads):
    concat_figure.add_vline(x=h * d_head - 0.5, line={"color": "black", "width": 2})  # head boundaries
parts = st.columns(3)
with parts[0]:
    show_chart(concat_figure, key="mh_concat")
with parts[1]:
    show_chart(
        matrix_heatmap(
            W_o, dims, dims, kind="values", title="W_O", x_title="out", y_title="in", show_text=third_width_text
        ),
        key="mh_W_O",
    )
with parts[2]:
    show_chart(
        matrix_heatmap(
            result.output,
            labels,
            dims,
            kind="values",
            title="output = concat W_O",
            x_title="dimension",
            show_text=third_width_text,
            height=token_rows_height,
        ),
        key="mh_output",
    )

# ----------------------------------------------------------------------------- exercise
st.header("4. Exercise: tie W_Q and W_K")
asymmetry = [float(np.abs(head.scores - head.scores.T).max()) for head in result.heads]
if tie_qk:
    st.success(
        f"With W_K = W_Q every score is q_i·k_j = x_i W Wᵀ x_jᵀ = q_j·k_i, so each head's score matrix is "
        f"symmetric: the largest |S − Sᵀ| over all heads is {max(asymmetry):g}. The weights are still not "
        "symmetric, because softmax normalises each row on its own."
    )
else:
    st.markdown(
        f"Scores are not symmetric now: token i's interest in j differs from j's in i (largest |S − Sᵀ| over the "
        f"heads: {max(asymmetry):.3f}). Tick **tie W_K = W_Q** above and predict what happens before you look."
    )
show_chart(
    matrix_heatmap(result.heads[0].scores, labels, labels, kind="scores", title="head 1: raw scores Q Kᵀ"),
    key="mh_scores",
)

# ----------------------------------------------------------------------------- costs
st.header("5. What it costs")
with explained_errors():
    params = costs.parameters(d_model, n_heads)
    work = costs.flops(n, d_model, n_heads)
st.markdown(
    f"**Parameters** (no biases). Each head has d(2d_k + d_v) = {d_model}·(2·{params.d_k} + {params.d_v}) = "
    f"{params.per_head:,} weights in its W_Q, W_K and W_V columns; {n_heads} heads make {params.qkv:,} = "
    f"3·d_model² = 3·{d_model}². W_O adds d_model² = {params.output:,}. Total **{params.total:,}**, the same "
    "whatever the number of heads: more heads means narrower ones."
)
st.dataframe(
    pd.DataFrame(
        {
            "step": ["X W_Q, X W_K, X W_V", "Q Kᵀ (all heads)", "weights · V (all heads)", "concat · W_O", "total"],
            "FLOPs": [work.projections, work.scores, work.weighted_sum, work.output, work.total],
            "grows like": ["n d²", "n² d", "n² d", "n d²", ""],
        }
    ),
    hide_index=True,
    column_config={"FLOPs": st.column_config.NumberColumn(format="localized")},
)
st.caption(
    f"For n = {n} tokens. A multiply-add counts as 2 FLOPs; softmax's few operations per score are left out. "
    f"The attention matrices hold n²·n_heads = {work.weights_stored:,} numbers."
)
lengths = np.unique(np.geomspace(1, 16_384, 60).astype(int))
show_chart(
    figs.cost_plot(
        *costs.cost_curve((*lengths, n), d_model, n_heads), current_n=n, crossover=costs.crossover_length(d_model)
    ),
    key="mh_cost",
)
st.markdown(
    "Doubling n doubles the projection work but quadruples the score and weighted-sum work. Past n = 2·d_model "
    "the n² part is the larger, which is why long contexts are expensive."
)

share_link_box(PAGE)
