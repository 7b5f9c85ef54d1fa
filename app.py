"""attnviz: the router. Each page is one file in pages/, listed once in attnviz.pages."""

import streamlit as st

from attnviz.pages import page_named
from attnviz.ui import install
from attnviz.ui.attention_grid import share_the_instrument
from attnviz.ui.challenges import challenge_bar
from attnviz.ui.class_join import join_from_link
from attnviz.ui.classroom import restore_from_link
from attnviz.ui.edge import take_refusal
from attnviz.ui.lesson_plan import lesson_bar, lesson_css, open_from_link
from attnviz.ui.playground_host import begin, take_typed_cells
from attnviz.ui.presenter import presenter_css, presenter_switch
from attnviz.ui.routes import pass_the_run_gate, routes
from attnviz.ui.state import keep_page_settings
from attnviz.ui.text import page_style

install()  # once a process: what the app changes in Streamlit (attnviz/ui/__init__.py)
pages = routes()
current = st.navigation(list(pages.values()), position="top")
# Each page its own browser-tab title (a screen reader announces it; a student with six tabs open finds the right one).
st.set_page_config(page_title=f"{current.title} · attnviz", page_icon="🔍", layout="wide")
pass_the_run_gate("start")
keep_page_settings()
begin()
page = next(name for name, route in pages.items() if route.url_path == current.url_path)
restore_from_link(page)
open_from_link(page)  # a lesson link (?lesson=…), once: on Lesson plans, ready to present
page_style(
    compact=page_named(page).compact, more_css=presenter_css() + lesson_css()
)  # first: its "Skip to the views" is Tab 12
if page_named(page).draws_views:
    share_the_instrument()  # the views' script and styles, once a run: a click redraws the views alone, without them
join_from_link(page)  # a class question's short address (?join=…), once
presenter_switch()
if refusal := take_refusal():  # a crafted value, refused before this run (attnviz/ui/edge.py)
    st.warning(refusal, icon="✋")
take_typed_cells()  # the one step that writes what was typed into the tables, before any page reads
lesson_bar(page)  # the lesson being presented: its step, question or note, Back and Next
challenge_bar(page)  # the challenge being tried on this page, checked live, above it
current.run()
pass_the_run_gate("end")
