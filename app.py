"""attnviz: the router. Each page is one thin file in pages/."""

import streamlit as st

from attnviz.ui.classroom import restore_from_link
from attnviz.ui.lessons import keep_lesson_settings
from attnviz.ui.presenter import presenter_switch

st.set_page_config(page_title="attnviz: self-attention, every number", page_icon="🔍", layout="wide")

PAGES = {  # page name (as used in share links): (title, icon)
    "playground": ("Playground", ":material/tune:"),
    "step_by_step": ("Step by step", ":material/stairs:"),
    "geometry": ("Geometry of dot products", ":material/architecture:"),
    "why_scale": ("Why we scale", ":material/balance:"),
    "multi_head": ("Multi-head and projections", ":material/hub:"),
}
pages = {
    name: st.Page(f"pages/{name}.py", title=title, icon=icon, default=name == "playground")
    for name, (title, icon) in PAGES.items()
}
current = st.navigation(list(pages.values()), position="top")
keep_lesson_settings()
restore_from_link(next(name for name, page in pages.items() if page.url_path == current.url_path))
_, switch = st.columns([3, 1])
with switch:
    presenter_switch()
current.run()
