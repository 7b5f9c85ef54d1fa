"""Challenges: goals to reach on the Playground and the guided pages, each checked by the numbers themselves."""

import streamlit as st

from attnviz.lessons.challenges import CHALLENGES, INTRODUCTION, goal_line
from attnviz.pages import page_named
from attnviz.ui.challenges import open_challenge, progress_line, tried
from attnviz.ui.classroom import share_link_box
from attnviz.ui.routes import through_the_router

through_the_router()  # a fresh server's first visit to this address: through app.py

PAGE = "challenges"

st.title("Challenges")
st.markdown(INTRODUCTION)
st.markdown(progress_line())
solved = tried().solved
for page in dict.fromkeys(challenge.page for challenge in CHALLENGES.values()):
    st.subheader(page_named(page).title)
    for key, challenge in ((k, c) for k, c in CHALLENGES.items() if c.page == page):
        mark, goal, go = st.columns([0.3, 5, 1], vertical_alignment="center")
        mark.markdown(":material/check_circle:" if key in solved else ":material/radio_button_unchecked:")
        goal.markdown(goal_line(challenge.goal, key in solved))
        if go.button("Try it", key=f"challenge.{key}", width="stretch"):
            open_challenge(key)
share_link_box(PAGE)
