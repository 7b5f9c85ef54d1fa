"""Lesson plans: string setups from any page into an ordered lesson with notes and questions, then present it."""

import streamlit as st

from attnviz.classroom import lesson_plan as plans
from attnviz.core.errors import AttnvizInputError
from attnviz.core.limits import MAX_LESSON_NOTE, MAX_LESSON_QUESTION, MAX_LESSON_TITLE
from attnviz.lessons.lesson_steps import cover_label, ready_line, step_heading, step_label
from attnviz.ui import lesson_plan as lesson
from attnviz.ui import state
from attnviz.ui.routes import through_the_router
from attnviz.ui.text import literal

through_the_router()  # a fresh server's first visit to this address: through app.py

PAGE = "lesson_plans"

st.title("Lesson plans")
for message in state.take_confirmations():  # a lesson link just opened
    st.success(literal(message), icon=":material/check_circle:")
st.markdown(
    "A lesson is a list of setups, in order: any page, in any setup, each with a note and, if you like, a question "
    "the class answers before the step's answer shows (on the Playground its weights stay covered until then). Add "
    "a setup from the **Share** box of any page with **Add to my lesson**. **Present** opens presenter mode with "
    "Back and Next above the page: or the ← and → keys (a clicker's Page Up and Page Down); A asks the class, Q shows "
    "its code large."
)

st.header("Ready to present")
for number, (title, ready) in enumerate(plans.READY.items()):
    name, show, copy = st.columns([4, 1, 1], vertical_alignment="center")
    name.markdown(ready_line(title, len(ready.steps)))
    show.button("Present", key=f"ready.present.{number}", width="stretch", on_click=lesson.present, args=(ready,))
    if copy.button("Edit a copy", key=f"ready.copy.{number}", width="stretch"):
        lesson.set_building(ready)
        st.rerun()

st.header("Your lesson")
plan = lesson.building()
title = st.text_input("Title", value=plan.title, max_chars=MAX_LESSON_TITLE, key=f"plan.title.{plan.title}")
if title != plan.title:
    plan = plans.retitled(plan, title)
    lesson.set_building(plan)
if not plan.steps:
    st.info("No steps yet: open any page, set it up, and choose Share → Add to my lesson.")
for index, step in enumerate(plan.steps):
    view = step.view
    with st.container(border=True):
        head, up, down, remove = st.columns([5, 1, 1, 1], vertical_alignment="center")
        head.markdown(step_heading(index, literal(step_label(step))))  # what tells it apart
        moves = ((up, "Up", -1, index == 0), (down, "Down", 1, index == len(plan.steps) - 1))
        for column, label, by, off in moves:
            if column.button(label, key=f"step.{label}.{index}", disabled=off, width="stretch"):
                lesson.set_building(plans.move_step(plan, index, by))
                st.rerun()
        if remove.button("Remove", key=f"step.remove.{index}", width="stretch"):
            lesson.set_building(plans.remove_step(plan, index))
            st.rerun()
        note = st.text_area(
            "Note (shown with the answer)",
            step.note,
            max_chars=MAX_LESSON_NOTE,
            key=f"step.note.{index}.{hash(step)}",
        )
        question = st.text_input(
            "Question (asked first; optional)",
            step.question,
            max_chars=MAX_LESSON_QUESTION,
            key=f"step.q.{index}.{hash(step)}",
        )
        cover = step.cover
        if view.page == "playground":  # what covers its views while the class thinks
            cover = st.selectbox("Cover while it asks", plans.COVERS, plans.COVERS.index(step.cover),
                                 format_func=cover_label, key=f"step.cover.{index}.{hash(step)}")  # fmt: skip
        if (note, question, cover) != (step.note, step.question, step.cover):
            lesson.set_building(plans.edit_step(plan, index, note=note, question=question, cover=cover))
            st.rerun()

if plan.steps:
    present, link_box, download = st.columns(3, vertical_alignment="bottom")
    present.button(
        "Present", type="primary", width="stretch", key="plan.present", on_click=lesson.present, args=(plan,)
    )
    try:
        link = plans.to_link(plan)
        with link_box.popover("Lesson link", icon=":material/link:", width="stretch"):
            st.code(f"?{plans.PARAM}={link}", language=None, wrap_lines=True)
            st.caption("Add this to the app's address: whoever opens it gets this lesson, ready to present.")
    except AttnvizInputError as error:
        link_box.caption(str(error))
    download.download_button(
        "Download (.json)",
        plans.to_json(plan),
        file_name="attnviz-lesson.json",
        mime="application/json",
        width="stretch",
        icon=":material/download:",
    )

uploaded = st.file_uploader("Open a lesson file", type=["json"], key="plan.upload")
if uploaded is not None and st.button("Open it as your lesson", key="plan.open"):
    try:
        lesson.set_building(plans.from_json(uploaded.getvalue()))
        st.rerun()
    except AttnvizInputError as error:
        st.error(literal(str(error)))
