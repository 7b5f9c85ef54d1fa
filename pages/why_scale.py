"""Why we scale: the variance of q·k grows with d_k, and an unscaled softmax saturates."""

import streamlit as st

from attnviz.core.limits import MAX_LESSON_DK, MAX_ROW_TOKENS, MAX_SEED, MIN_ROW_TOKENS
from attnviz.core.numbers import format_fixed
from attnviz.figures import scaling as figs
from attnviz.lessons import scaling
from attnviz.ui import predict
from attnviz.ui.challenges import sticky_controls
from attnviz.ui.charts import show_chart
from attnviz.ui.classroom import share_link_box
from attnviz.ui.lessons import explained_errors
from attnviz.ui.playground_host import predicts
from attnviz.ui.routes import through_the_router
from attnviz.ui.state import page_setting

through_the_router()  # a fresh server's first visit to this address: through app.py

PAGE = "why_scale"

st.title("Why we divide by √d_k")
asking = st.container()  # the question, above the move it is about; answered by the curves drawn below
guessed = predict.answered(scaling.SPREAD_KEY)  # in predict mode, d_k waits for a guess (like the Playground's views)

controls = sticky_controls(PAGE).columns([3, 1, 1])  # in sight of every chart below
d_k = controls[0].slider(
    "d_k (number of dimensions of queries and keys)", 1, MAX_LESSON_DK, **page_setting(PAGE, "d_k", 64),
    disabled=predicts() and guessed is None,
)
seed = controls[1].number_input("seed", 0, MAX_SEED, step=1, **page_setting(PAGE, "seed", 0))
n_tokens = controls[2].slider("tokens in the row", MIN_ROW_TOKENS, MAX_ROW_TOKENS, **page_setting(PAGE, "tokens", 16))
with explained_errors():
    curve = scaling.score_variance((*scaling.DK_GRID, d_k), seed=int(seed))
    curves = scaling.saturation((*scaling.DK_GRID, d_k), n_tokens=n_tokens, seed=int(seed))
    row = scaling.one_row(d_k, n_tokens=n_tokens, seed=int(seed))
predict.ask_choice(scaling.spread_question(curve, curves), where=asking)

# ----------------------------------------------------------------------------- the two charts the slider moves
spread, softmax = st.columns(2, gap="medium")
with spread:
    st.subheader("1. The spread of the scores")
    show_chart(figs.variance_plot(curve, d_k, height=340), key="why_variance")
    (raw_label, raw), (scaled_label, scaled) = scaling.variance_readings(curve, d_k)
    left, right = st.columns(2)
    left.metric(raw_label, raw, help=f"Measured over {scaling.N_PAIRS:,} random (q, k) pairs.")
    right.metric(scaled_label, scaled)
    st.caption("Both axes are logarithmic, so 'grows like d_k' is the dashed diagonal.")
    st.markdown(
        "Take a query and a key with d_k dimensions each (the number of dimensions d_k counts the numbers in a vector; "
        "it is not the vector's length |q|), filled with random numbers of mean 0 and variance 1. Their dot product adds up d_k products, "
        "each with variance 1, so the score has variance d_k: the more dimensions, the further the scores spread. "
        "Dividing by √d_k divides that variance by d_k and brings it back to 1. The variance here is measured on "
        "random vectors, not just claimed."
    )
with softmax:
    st.subheader("2. What a wide spread does to softmax")
    show_chart(figs.saturation_plot(curves, d_k, height=340), key="why_saturation")
    at_dk = scaling.position(curves.dims, d_k)
    unscaled, scaled = st.columns(2)
    unscaled.metric("entropy, unscaled", f"{format_fixed(curves.entropy_raw[at_dk])} bits")
    scaled.metric("entropy, scaled", f"{format_fixed(curves.entropy_scaled[at_dk])} bits")
    unscaled, scaled = st.columns(2)  # a row of its own, so a reader meets the four in this order
    unscaled.metric("largest weight, unscaled", format_fixed(curves.max_raw[at_dk], decimals=3))
    scaled.metric("largest weight, scaled", format_fixed(curves.max_scaled[at_dk], decimals=3))
    st.caption(scaling.rows_caption(n_tokens))
    st.markdown(scaling.one_hot_text(d_k, n_tokens=n_tokens, seed=int(seed)))  # what the d_k challenge counts
    st.markdown(scaling.softmax_text(n_tokens))

st.subheader("One row, side by side")
show_chart(figs.row_weights_bars(row, d_k), key="why_row")
st.markdown(scaling.row_text(row, d_k))

share_link_box(PAGE)
