"""attnviz: the router. Each page is one thin file in pages/."""

import streamlit as st

from attnviz.ui.presenter import presenter_switch

st.set_page_config(page_title="attnviz: self-attention, every number", page_icon=":material/visibility:", layout="wide")

pages = [
    st.Page("pages/playground.py", title="Playground", icon=":material/tune:", default=True),
    st.Page("pages/step_by_step.py", title="Step by step", icon=":material/stairs:"),
    st.Page("pages/geometry.py", title="Geometry of dot products", icon=":material/architecture:"),
    st.Page("pages/why_scale.py", title="Why we scale", icon=":material/balance:"),
    st.Page("pages/multi_head.py", title="Multi-head and projections", icon=":material/hub:"),
]
navigation = st.navigation(pages, position="top")
_, switch = st.columns([5, 1])
with switch:
    presenter_switch()
navigation.run()
