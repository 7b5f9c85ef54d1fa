"""A lesson plan on the page: the plan being built (steps added from any page's Share box), and the plan being
presented, with its bar above every page: the step's question first (the Playground's views covered), then its
answer and note; Back and Next (and the arrow keys) walk it; a question can be opened to the class, whose answers
are tallied live on the teacher's screen. What a plan is: attnviz.classroom.lesson_plan."""

from __future__ import annotations

from dataclasses import dataclass, replace

import streamlit as st

from attnviz.classroom import lesson_plan as plans
from attnviz.classroom.share import encode
from attnviz.core.errors import AttnvizInputError
from attnviz.lessons import app_words, predictions
from attnviz.pages import page_named
from attnviz.ui import class_question, playground_host, state
from attnviz.ui.lesson_screen import LESSON_CSS, show_subject
from attnviz.ui.presenter import set_presenting
from attnviz.ui.text import literal

LESSON_PLANS = "lesson_plans"  # the page a lesson link opens on
LESSON = "lesson"  # the lesson plan built and presented: its one key in st.session_state, a Lesson
KEYS = "lesson.keys"  # the arrow keys of a lesson being presented: a component whose trigger "move" says where


@dataclass(frozen=True)
class Lesson:
    """The lesson plan as this session keeps it (read by ``lesson``, written by ``_keep``)."""

    plan: plans.LessonPlan | None = None  # the plan being built (None: none yet, so a lesson link may open one)
    run: tuple[plans.LessonPlan, int, bool] | None = None  # the plan presented, the step shown, its answer shown
    moved: bool = False  # a Back or Next was just pressed: the bar goes to the step's page
    arrival: int = 0  # counts a lesson's arrivals at a step: each scrolls its page to the step's subject, once


def lesson() -> Lesson:
    return st.session_state.get(LESSON) or Lesson()


def _keep(**changes) -> None:
    """Keeps ``lesson()`` with ``changes`` (fields of Lesson) made."""
    st.session_state[LESSON] = replace(lesson(), **changes)


def lesson_css() -> str:
    """The bar's and the answers' places while a lesson is presented: for app.py's one style element."""
    return LESSON_CSS if running() else ""


# While a lesson is presented, the arrow keys (and a presenter's clicker, which sends Page Down and Page Up) move it,
# and A and Q ask the class and show the join code large, unless the keyboard is in a field or a view that uses the
# keys itself. Sent as the trigger "move": next, back, ask or qr.
_KEYS_JS = """
export default function ({ setTriggerValue }) {
  window.__attnvizLessonMove = setTriggerValue; // the newest callback to Python
  if (window.__attnvizLessonKeys) return;
  window.__attnvizLessonKeys = true;
  document.addEventListener('keydown', (event) => {
    const keys = { ArrowRight: 'next', PageDown: 'next', ArrowLeft: 'back', PageUp: 'back', a: 'ask', q: 'qr' };
    const to = keys[event.key.length === 1 ? event.key.toLowerCase() : event.key];
    const busy = event.target.closest && event.target.closest('input, select, textarea, canvas, [contenteditable]');
    if (!to || busy || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (!document.querySelector('.st-key-lesson_bar')) return; // no lesson on the page
    event.preventDefault();
    window.__attnvizLessonMove('move', to);
  }, true);
}
"""
_KEYS = st.components.v2.component("attnviz_lesson_keys", js=_KEYS_JS)


def open_from_link(page: str) -> None:
    """On a session's first run, a lesson link (``?lesson=L1.…``) becomes the plan being built, and opens on Lesson
    plans, ready to present."""
    link = st.query_params.get(plans.PARAM)
    if link is None or lesson().plan is not None:
        return
    try:
        set_building(plans.from_link(link))
        state.confirm("The lesson from the link is open below: Present starts it.")
    except AttnvizInputError as error:
        st.error(literal(str(error)))
        return
    finally:
        del st.query_params[plans.PARAM]
    if page != LESSON_PLANS:
        st.switch_page(page_named(LESSON_PLANS).file)


def building() -> plans.LessonPlan:
    return lesson().plan or plans.LessonPlan()


def set_building(plan: plans.LessonPlan) -> None:
    _keep(plan=plan)


def add_this_setup(page: str) -> None:
    """A button callback: the setup shown on ``page`` becomes the last step of the plan being built."""
    try:
        link = encode(playground_host.playground(), page, state.shared_settings(page))
        set_building(plans.add_step(building(), plans.Step(link)))
        state.say_at_share(app_words.step_added(len(building().steps)))
    except AttnvizInputError as error:
        state.say_at_share(str(error))


# ----------------------------------------------------------------------------- presenting


def running() -> tuple[plans.LessonPlan, int, bool] | None:
    """(the plan presented, the step shown, whether its answer is shown), or None."""
    return lesson().run


def present(plan: plans.LessonPlan) -> None:
    """A button callback: starts presenting ``plan`` at its first step, in presenter mode."""
    set_presenting(True)
    _go(plan, 0, answered=False)


# Settings that show a question's answer, held back until it is answered: a token taken away shows what it did, and
# a view other than the raw weights (value-weighted: what arrives) says the number asked for under the map.
_ANSWERS = {"real_model": {"removed": "none", "view": "raw"}}


def _go(plan: plans.LessonPlan, index: int, *, answered: bool) -> None:
    step = plan.steps[index]
    view = step.view
    shown = view.state
    if view.page == "playground" and step.question:
        asked = _asked_of(step)  # the views stay covered while the class thinks
        shown = replace(predictions.outcome(asked), predict="") if answered else asked
    playground_host.start_from(shown)
    held_back = _ANSWERS.get(view.page, {}) if step.question and not answered else {}
    for name, value in view.settings:
        state.set_setting(view.page, name, held_back.get(name, value))
    # The bar goes to the step's page on this run, scrolled to the step's subject.
    _keep(run=(plan, index, answered), moved=True, arrival=lesson().arrival + 1)
    class_question.close_class_question()


def _next() -> None:
    """Next: the step's answer, if it asked a question; else the next step."""
    if (run := running()) is None:
        return
    plan, index, answered = run
    if index == len(plan.steps):
        return  # the end screen: Back or Stop
    if plan.steps[index].question and not answered:
        final = class_question.final_counts()
        _go(plan, index, answered=True)
        class_question.keep_final(final)
    elif index + 1 < len(plan.steps):
        _go(plan, index + 1, answered=False)
    else:  # past the last step: the end screen, on the page the lesson ended on
        class_question.close_class_question()
        _keep(run=(plan, len(plan.steps), True))


def _back() -> None:
    """Back: the step's question again, if its answer is shown; else the previous step's end."""
    if (run := running()) is None:
        return
    plan, index, answered = run
    if index < len(plan.steps) and plan.steps[index].question and answered:
        _go(plan, index, answered=False)
    elif index > 0:
        _go(plan, index - 1, answered=bool(plan.steps[index - 1].question))


def _by_key() -> None:
    """A key (trigger "move"): Next or Back of the step shown, Ask the class, or the join code large."""
    to = (state.widget_value(KEYS) or {}).get("move")
    if to in ("next", "back"):
        (_next if to == "next" else _back)()
    elif to in ("ask", "qr"):
        class_question.keyed(to)  # done by the bar that offers it, on this run


def _stop() -> None:
    _keep(run=None)
    class_question.close_class_question()


def lesson_bar(page: str) -> None:
    """Above every page while a plan is presented: where the lesson is, the question or the note, Back and Next."""
    class_question.store_said()  # the class tally's store not answering a move (Stop included): one line
    run = running()
    if run is None:
        return
    plan, index, answered = run
    if index == len(plan.steps):
        return _end(plan)
    step = plan.steps[index]
    moved = lesson().moved
    _keep(moved=False)
    if moved and step.view.page != page:
        st.switch_page(page_named(step.view.page).file)
    asking = bool(step.question) and not answered
    with st.container(border=True, key="lesson_bar"):  # one compact row: the page keeps the screen
        words, back, forward, stop, ask = st.columns([8, 1.2, 1.3, 1.2, 1.9], vertical_alignment="center")
        said = f"**{literal(plan.title)}** · step {index + 1} of {len(plan.steps)}"
        said += f" · **Question:** {literal(step.question)}" if step.question else ""
        words.markdown(said + ("" if asking else f" · {literal(step.note)}"))
        # Their keys are said on Lesson plans, in sight before Present (a hover's tip is no help on a projector).
        back.button("Back", width="stretch", disabled=index == 0 and not answered, key="lesson.back", on_click=_back)
        forward.button("Answer" if asking else "Next", width="stretch", key="lesson.next", type="primary",
                       on_click=_next)  # fmt: skip
        stop.button("Stop", width="stretch", key="lesson.stop", on_click=_stop)
        _KEYS(key=KEYS, on_move_change=_by_key)
        if asking and page == "playground":
            class_question.class_question(step, ask)
        elif page == "playground" and (final := class_question.asking().final):
            class_question.answered_bars(final, _asked_of(step))
    class_question.keyed(None)
    show_subject(page, lesson().arrival)


def _end(plan: plans.LessonPlan) -> None:
    """The screen after the last step: the lesson is over; Back shows its last step again, Stop leaves it."""
    with st.container(border=True, key="lesson_bar"):
        said, back, stop = st.columns([8, 1.2, 1.2], vertical_alignment="center")
        said.markdown(app_words.lesson_end(literal(plan.title), len(plan.steps)))
        back.button("Back", width="stretch", key="lesson.back", on_click=_back)
        stop.button("Stop", width="stretch", key="lesson.stop", on_click=_stop, type="primary")
        _KEYS(key=KEYS, on_move_change=_by_key)


def _asked_of(step: plans.Step):
    """The state a Playground step's question is asked on (as _go shows it): covered by the step's choice of cover,
    else the setup's own prediction question, else "which key most"; "none" leaves the views open."""
    shown = step.view.state
    return replace(shown, predict={"": shown.predict or "most", "none": ""}.get(step.cover, step.cover))


def asking_words() -> str:
    """The question of the Playground step being presented, while the class thinks ("" otherwise): the cover says
    it, in the teacher's words."""
    run = running()
    if run is None or run[1] == len(run[0].steps):
        return ""
    step = run[0].steps[run[1]]
    return step.question if step.view.page == "playground" and not run[2] else ""
