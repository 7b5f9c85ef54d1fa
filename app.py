"""attnviz: the router. Each page is one thin file in pages/."""

import streamlit as st

st.set_page_config(page_title="attnviz: self-attention, every number", page_icon="🔍", layout="wide")

pages = [
    st.Page("pages/playground.py", title="Playground", icon="🎛️", default=True),
    st.Page("pages/step_by_step.py", title="Step by step", icon="🪜"),
    st.Page("pages/geometry.py", title="Geometry of dot products", icon="📐"),
    st.Page("pages/why_scale.py", title="Why we scale", icon="⚖️"),
    st.Page("pages/multi_head.py", title="Multi-head and projections", icon="🧠"),
]
st.navigation(pages).run()
