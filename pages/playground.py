"""Playground: type a sentence, set Q, K and V, and watch every matrix of self-attention update."""

import streamlit as st

from attnviz.ui import playground as ui
from attnviz.ui.presenter import chart_font_size, presenting

ui.page_style()
st.title("Self-attention playground")
st.caption("Every number below is computed live from the vectors you set. Hover a cell to read it in words.")

ui.bind_widgets()
ui.show_messages()
ui.sentence_and_example()
state = ui.absorb_table_edits()
ui.token_chips(state)

if not presenting():
    st.subheader("Query, key and value vectors")
    ui.sizes_and_seed()
    ui.vector_tables(state)

st.subheader("Attention")
ui.attention_section(font_size=chart_font_size())
