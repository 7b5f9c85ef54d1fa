"""Geometry of dot products: what a score measures, drawn as arrows in 2-D."""

import pandas as pd
import streamlit as st

from attnviz.core.limits import VECTOR_LIMIT
from attnviz.figures import geometry as figs
from attnviz.lessons import geometry as geo
from attnviz.ui.charts import show_chart
from attnviz.ui.classroom import share_link_box
from attnviz.ui.lessons import explained_errors, reset_vectors, vector_input
from attnviz.ui.routes import through_the_router
from attnviz.ui.state import setting_value
from attnviz.ui.text import named_table

through_the_router()  # a fresh server's first visit to this address: through app.py

PAGE = "geometry"

st.title("The geometry of dot products")
st.markdown(
    "A score in attention is a dot product between a query and a key. In two dimensions we can draw both as arrows "
    "and *see* what the score rewards. The default vectors are the pronoun example: which earlier word does "
    "**“it”** stand for: *animal*, *street* or *because*?"
)

# ----------------------------------------------------------------------------- 1. refresher
st.header("1. Dot product refresher")
st.markdown(
    r"Two ways to compute the same number: multiply matching coordinates and add, "
    r"$a\cdot b = a_1 b_1 + a_2 b_2$, or multiply the lengths by the cosine of the angle between the arrows, "
    r"$a\cdot b = |a|\,|b|\cos\theta$. Same direction gives the largest value for those lengths, a right angle "
    r"gives 0, opposite directions give the most negative."
)
rows = geo.refresher_rows()
with named_table("Dot product refresher: two ways to the same number", "refresher"):
    st.dataframe(pd.DataFrame(geo.refresher_table(rows)), hide_index=True, width="stretch")
worked = rows[-1]
st.caption(geo.worked_text(worked))

# ----------------------------------------------------------------------------- 2. query and keys
st.header("2. The query and the keys")
why_not_itself = st.empty()  # said once the query and keys below are read
key_names = geo.PRONOUN_KEY_LABELS
defaults = (
    {"query": geo.PRONOUN_QUERY}
    | {f"key{j}": key for j, key in enumerate(geo.PRONOUN_KEYS)}
    | {f"value{j}": value for j, value in enumerate(geo.PRONOUN_VALUES)}
)
st.button("Reset to the pronoun example", on_click=reset_vectors, args=(PAGE, defaults))
input_cols = st.columns(4)
with input_cols[0]:
    query = vector_input(PAGE, f"query “{geo.PRONOUN_QUERY_LABEL}”", "query", defaults["query"], limit=VECTOR_LIMIT)
keys = []
for j, name in enumerate(key_names):
    with input_cols[j + 1]:
        keys.append(vector_input(PAGE, f"key “{name}”", f"key{j}", defaults[f"key{j}"], limit=VECTOR_LIMIT))
# The value inputs sit in section 5, below the charts that already need them: read their current state here.
values = [
    (setting_value(PAGE, f"value{j}_x", v[0]), setting_value(PAGE, f"value{j}_y", v[1]))
    for j, v in enumerate(geo.PRONOUN_VALUES)
]

with explained_errors():
    result = geo.attend_2d(query, keys, values)
why_not_itself.markdown(geo.pronoun_self_text(query, keys))
arrows, numbers = st.columns([3, 2])
with arrows:
    show_chart(figs.query_key_arrows(result, geo.PRONOUN_QUERY_LABEL, key_names), key="geometry_arrows")
if result.comparisons[0].query_length == 0:
    numbers.warning(
        "The query is the zero vector: every score is 0 and no angle is defined, so attention is spread evenly."
    )
with numbers, named_table("Each key's score against the query", "keys"):
    st.dataframe(
        pd.DataFrame(geo.key_table(result, key_names)),
        hide_index=True,
        width="stretch",
        column_config={
            "q·k": st.column_config.NumberColumn(format="%.2f"),
            "|k|": st.column_config.NumberColumn(format="%.3f"),
        },
    )

# ----------------------------------------------------------------------------- 3. magnitude
st.header("3. The magnitude problem")
magnitude = geo.magnitude_sentences(result, key_names)
st.markdown("\n".join(f"- {sentence}" for sentence in magnitude) or geo.NO_MAGNITUDE_WIN)
st.markdown(
    "A dot product mixes two things: direction (cos θ) and length. A key can win by being long rather than by "
    "pointing the right way. Scaling by √d_k does **not** change this: it divides every score by the same number, "
    "so the order of the keys stays the same. What it changes is how *sharp* the softmax is, as the next section "
    "shows. In a trained model the lengths are learned too: training can make a word's key long, and then that "
    "word scores high against many queries, whichever way they point."
)

# ----------------------------------------------------------------------------- 4. scale and softmax
st.header("4. Scaling and softmax")
st.markdown(
    "Here the query and the keys have d_k = 2 dimensions (the number of dimensions, not the arrows' lengths), so "
    "every score is divided by √2 ≈ 1.414 before the softmax turns the scores into weights that add up to 1. "
    "Dividing shrinks the gaps between the scores, so the weights are a little less extreme."
)
show_chart(figs.score_bars(result, key_names), key="geometry_bars")
st.markdown(geo.weights_text(result, key_names))

# ----------------------------------------------------------------------------- 5. values
st.header("5. The weighted sum in V-space")
st.markdown(geo.values_text(result, key_names))
value_cols = st.columns(3)
for j, name in enumerate(key_names):
    with value_cols[j]:
        vector_input(PAGE, f"value “{name}”", f"value{j}", defaults[f"value{j}"], limit=VECTOR_LIMIT)
blend, numbers = st.columns([3, 2])
with blend:
    show_chart(figs.value_blend(result, key_names), key="geometry_values")
numbers.markdown(geo.context_text(result))

share_link_box(PAGE)
