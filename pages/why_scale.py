"""Why we scale: the variance of q·k grows with d_k, and an unscaled softmax saturates."""

import streamlit as st

from attnviz.core.limits import MAX_LESSON_DK, MAX_SEED
from attnviz.figures import scaling as figs
from attnviz.lessons import scaling
from attnviz.ui.charts import show_chart
from attnviz.ui.classroom import share_link_box
from attnviz.ui.lessons import explained_errors
from attnviz.ui.state import page_setting

PAGE = "why_scale"

st.title("Why we divide by √d_k")
st.markdown(
    "Take a query and a key whose entries are random numbers with mean 0 and variance 1. Their dot product adds "
    "up d_k such products, each with variance 1, so the score has variance d_k: the wider the vectors, the further "
    "the scores spread. Dividing by √d_k divides that variance by d_k and brings it back to 1. Below, the variance "
    "is measured on random vectors, not just claimed."
)

controls = st.columns([3, 1, 1])
d_k = controls[0].slider(
    "d_k (number of dimensions of queries and keys)", 1, MAX_LESSON_DK, **page_setting(PAGE, "d_k", 64)
)
seed = controls[1].number_input("seed", 0, MAX_SEED, step=1, **page_setting(PAGE, "seed", 0))
n_tokens = controls[2].slider("tokens in the row", 2, 64, **page_setting(PAGE, "tokens", 16))

# ----------------------------------------------------------------------------- variance
st.header("1. The spread of the scores")
with explained_errors():
    curve = scaling.score_variance((*scaling.DK_GRID, d_k), seed=int(seed))
at_dk = list(curve.dims).index(d_k)
left, right = st.columns(2)
left.metric(
    f"Var(q·k) at d_k = {d_k}",
    f"{curve.raw[at_dk]:.2f}",
    help=f"Measured over {scaling.N_PAIRS:,} random (q, k) pairs.",
)
right.metric(f"Var(q·k / √d_k) at d_k = {d_k}", f"{curve.scaled[at_dk]:.3f}")
show_chart(figs.variance_plot(curve, d_k), key="why_variance")
st.caption("Both axes are logarithmic, so 'grows like d_k' is the dashed diagonal.")

# ----------------------------------------------------------------------------- saturation
st.header("2. What a wide spread does to softmax")
st.markdown(
    "Softmax turns gaps between scores into ratios of weights: a gap of g becomes a factor of eᵍ. When the scores "
    "spread out like √d_k, the top score pulls far ahead and takes almost all the weight. The row's **entropy** "
    f"measures how spread the weights are: log₂ {n_tokens} = {scaling.entropy([1 / n_tokens] * n_tokens):.2f} bits "
    "when every key gets the same weight, 0 when one key gets it all. A near one-hot row also has almost no "
    "gradient, so a model trained without scaling learns slowly."
)
with explained_errors():
    curves = scaling.saturation((*scaling.DK_GRID, d_k), n_tokens=n_tokens, seed=int(seed))
    row = scaling.one_row(d_k, n_tokens=n_tokens, seed=int(seed))
show_chart(figs.saturation_plot(curves, d_k), key="why_saturation")
at_dk = list(curves.dims).index(d_k)
cols = st.columns(4)
cols[0].metric("entropy, unscaled", f"{curves.entropy_raw[at_dk]:.2f} bits")
cols[1].metric("entropy, scaled", f"{curves.entropy_scaled[at_dk]:.2f} bits")
cols[2].metric("largest weight, unscaled", f"{curves.max_raw[at_dk]:.3f}")
cols[3].metric("largest weight, scaled", f"{curves.max_scaled[at_dk]:.3f}")
st.caption(f"Averaged over all {n_tokens} query rows of one random Q and K at each d_k.")

st.subheader("One row, side by side")
show_chart(figs.row_weights_bars(row, d_k), key="why_row")
st.markdown(
    f"Unscaled, query 0's largest weight is **{row.raw_weights.max():.3f}**; scaled, it is "
    f"**{row.scaled_weights.max():.3f}**. Slide d_k up and watch the unscaled row collapse onto one key."
)

share_link_box(PAGE)
