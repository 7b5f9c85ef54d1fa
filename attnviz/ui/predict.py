"""Predict mode on the guided pages, in Streamlit: a covered view asks its question (attnviz.lessons.questions.
RowQuestion), a click on it (the component's event "guess") answers, and the answer is kept in the student's session
beside the Playground's (attnviz.playground.session)."""

from __future__ import annotations

import streamlit as st

from attnviz.figures.matrix_view import covered
from attnviz.lessons.questions import RowQuestion
from attnviz.ui import playground_host as host
from attnviz.ui.attention_grid import sent_event

ASK = "ask."  # prefix of a guided page's guess box (ask_choice): ask.<page>.<name>


def answered(question) -> int | None:
    """The student's answer to ``question`` (or to the question of that key), or None while it is still asked."""
    return host.current().answers.of(question if isinstance(question, tuple) else question.key)


def guess(component_key: str, questions: list) -> None:
    """The component's "guess" callback: the question among ``questions`` the click answers keeps its answer. A click
    on another view, past the columns, or crafted, answers none."""
    event = sent_event(component_key)
    sent = event.get("guess") if isinstance(event, dict) else None
    for question in questions:
        if (made := question.answer(sent)) is not None:
            host.keep(host.current().answered(question.key, made))
            return


def ask_choice(question, where=st) -> int | None:
    """A guided page's question with a few answers (attnviz.lessons.questions.ChoiceQuestion), asked in ``where``
    before the move it is about: the guess is kept like the views' (one store of answers) and revealed at once with
    the page's numbers. Returns the guess, or None while it is still asked."""
    key = f"{ASK}{question.page}.{question.name}"
    made = answered(question)

    def keep() -> None:
        if (guess := question.answer(st.session_state.get(key))) is not None:
            host.keep(host.current().answered(question.key, guess))

    choices = range(len(question.choices))
    where.radio(question.cover(), choices, index=made, format_func=question.choices.__getitem__, key=key,
                on_change=keep, disabled=made is not None, horizontal=True)  # fmt: skip
    if made is not None:
        where.info(question.reveal(made), icon=":material/lightbulb:")
    return made


def ask_rows(page: str, views: list[dict], matrices: list[tuple], row: int) -> tuple[list[dict], list, bool]:
    """Predict mode on ``views``, each drawn from (its matrix, its masked cells or None) in ``matrices``: each view is
    covered until the student clicks the cell of ``row`` they expect to be the largest, and what an answered one
    reveals is said here. Returns the views, their questions (for ``guess``), and whether any is still asked."""
    shown, questions = [], []
    for view, (matrix, blocked) in zip(views, matrices, strict=True):
        question = RowQuestion(
            page, view["name"], row, matrix, blocked, view["rows"], view["cols"], view["title"],
            weights=view["value_name"] == "weight",
        )  # fmt: skip
        questions.append(question)
        made = answered(question)
        shown.append(covered(view, question.cover()) if made is None else view)
        if made is not None:
            st.info(question.reveal(made), icon=":material/lightbulb:")
    return shown, questions, any("cover" in view for view in shown)
