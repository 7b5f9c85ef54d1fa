"""A lesson plan on the page: the plan being built (steps added from any page's Share box), and the plan being
presented, with its bar above every page: the step's question first (the Playground's views covered), then its
answer and note; Back and Next (and the arrow keys) walk it; a question can be opened to the class, whose answers
are tallied live on the teacher's screen. What a plan is: attnviz.classroom.lesson_plan."""

from __future__ import annotations

import re
import time
from dataclasses import replace

import streamlit as st

from attnviz.classroom import lesson_plan as plans
from attnviz.classroom.share import encode
from attnviz.core.errors import AttnvizInputError
from attnviz.figures.tally import tally_bars
from attnviz.lessons import predictions
from attnviz.pages import page_named
from attnviz.ui import playground_session, state
from attnviz.ui.charts import show_chart
from attnviz.ui.class_tally import allowed, class_tally
from attnviz.ui.lesson_screen import arrived, show_subject
from attnviz.ui.text import literal

TALLY_EVERY_S = 2.0  # the teacher's bars refresh this often while the class answers
# While a lesson is presented, the arrow keys (and a presenter's clicker, which sends Page Down and Page Up) move it,
# unless the keyboard is in a field or a view that uses the arrows itself. Sent as the trigger "move": next or back.
_KEYS_JS = """
export default function ({ setTriggerValue }) {
  window.__attnvizLessonMove = setTriggerValue; // the newest callback to Python
  if (window.__attnvizLessonKeys) return;
  window.__attnvizLessonKeys = true;
  document.addEventListener('keydown', (event) => {
    const to = { ArrowRight: 'next', PageDown: 'next', ArrowLeft: 'back', PageUp: 'back' }[event.key];
    const busy = event.target.closest && event.target.closest('input, select, textarea, canvas, [contenteditable]');
    if (!to || busy || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (!document.querySelector('.st-key-lesson_bar')) return; // no lesson on the page
    event.preventDefault();
    window.__attnvizLessonMove('move', to);
  }, true);
}
"""
_KEYS = st.components.v2.component("attnviz_lesson_keys", js=_KEYS_JS)
# One answer a browser, not a session (a reload is a new session): a random id kept in the browser's localStorage,
# sent once a page load. Without storage (switched off), the session's own id counts.
_BROWSER_VOTER_JS = """
export default function ({ setTriggerValue }) {
  let id = null;
  try {
    id = window.localStorage.getItem('attnviz.voter');
    if (!/^[0-9a-f]{32}$/.test(id || '')) {
      const bytes = window.crypto.getRandomValues(new Uint8Array(16));
      id = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
      window.localStorage.setItem('attnviz.voter', id);
    }
  } catch (error) {
    return;
  }
  if (window.__attnvizVoterSent === id) return; // each trigger is a rerun: once a page load is enough
  window.__attnvizVoterSent = id;
  setTriggerValue('id', id);
}
"""
_BROWSER_VOTER = st.components.v2.component("attnviz_browser_voter", js=_BROWSER_VOTER_JS)
_VOTER_ID = re.compile(r"[0-9a-f]{32}")


def open_from_link() -> None:
    """On a session's first run, a lesson link (``?lesson=L1.…``) becomes the plan being built, ready to present."""
    link = st.query_params.get(plans.PARAM)
    if link is None or state.LESSON_PLAN in st.session_state:
        return
    try:
        set_building(plans.from_link(link))
        state.confirm("The lesson from the link is open: see Lesson plans to present it.")
    except AttnvizInputError as error:
        st.error(literal(str(error)))
    del st.query_params[plans.PARAM]


def building() -> plans.LessonPlan:
    return st.session_state.get(state.LESSON_PLAN, plans.LessonPlan())


def set_building(plan: plans.LessonPlan) -> None:
    st.session_state[state.LESSON_PLAN] = plan


def add_this_setup(page: str) -> None:
    """A button callback: the setup shown on ``page`` becomes the last step of the plan being built."""
    try:
        link = encode(playground_session.playground(), page, state.shared_settings(page))
        set_building(plans.add_step(building(), plans.Step(link)))
        state.say_at_share(f"Added as step {len(building().steps)} of your lesson (see Lesson plans).")
    except AttnvizInputError as error:
        state.say_at_share(str(error))


# ----------------------------------------------------------------------------- presenting


def running() -> tuple[plans.LessonPlan, int, bool] | None:
    """(the plan presented, the step shown, whether its answer is shown), or None."""
    return st.session_state.get(state.LESSON_RUN)


def present(plan: plans.LessonPlan) -> None:
    """A button callback: starts presenting ``plan`` at its first step, in presenter mode."""
    state.set_presenting(True)
    _go(plan, 0, answered=False)


def _go(plan: plans.LessonPlan, index: int, *, answered: bool) -> None:
    step = plan.steps[index]
    view = step.view
    shown = view.state
    if view.page == "playground" and step.question:
        asked = replace(shown, predict=shown.predict or "most")  # the views stay covered while the class thinks
        shown = replace(predictions.outcome(asked), predict="") if answered else asked
    playground_session.start_from(shown)
    for name, value in view.settings:
        state.set_setting(view.page, name, value)
    st.session_state[state.LESSON_RUN] = (plan, index, answered)
    st.session_state[state.LESSON_MOVED] = True  # the bar goes to the step's page on this run
    arrived()
    _close_class_question()


def _close_class_question() -> None:
    """The step moved on (Back, Next, Stop): its class question closes, so a late answer is told so."""
    if code := st.session_state.pop(state.CLASS_QUESTION, None):
        class_tally().close(code, now=time.time())


# Back and Next read the step shown when they are pressed, not the one their button was drawn for: a second press
# that arrives before the first one's run has drawn the bar again moves the lesson on again.
def _next() -> None:
    """Next: the step's answer, if it asked a question; else the next step."""
    if (run := running()) is None:
        return
    plan, index, answered = run
    if plan.steps[index].question and not answered:
        _go(plan, index, answered=True)
    elif index + 1 < len(plan.steps):
        _go(plan, index + 1, answered=False)


def _back() -> None:
    """Back: the step's question again, if its answer is shown; else the previous step's end."""
    if (run := running()) is None:
        return
    plan, index, answered = run
    if plan.steps[index].question and answered:
        _go(plan, index, answered=False)
    elif index > 0:
        _go(plan, index - 1, answered=bool(plan.steps[index - 1].question))


def _by_key() -> None:
    """An arrow key (trigger "move"): Next or Back of the step shown."""
    to = (state.widget_value(state.LESSON_KEYS) or {}).get("move")
    if to in ("next", "back"):
        (_next if to == "next" else _back)()


def _stop() -> None:
    st.session_state.pop(state.LESSON_RUN, None)
    _close_class_question()


def lesson_bar(page: str) -> None:
    """Above every page while a plan is presented: where the lesson is, the question or the note, Back and Next."""
    run = running()
    if run is None:
        return
    plan, index, answered = run
    step = plan.steps[index]
    if st.session_state.pop(state.LESSON_MOVED, False) and step.view.page != page:
        st.switch_page(page_named(step.view.page).file)
    asking = bool(step.question) and not answered
    with st.container(border=True, key="lesson_bar"):  # one compact row: the page keeps the screen
        words, back, forward, stop, ask = st.columns([7.5, 1.1, 1.3, 1.1, 1.9], vertical_alignment="center")
        said = f"**{literal(plan.title)}** · step {index + 1} of {len(plan.steps)}"
        said += f" · **Question:** {literal(step.question)}" if step.question else ""
        words.markdown(said + ("" if asking else f" · {literal(step.note)}"))
        last = index + 1 == len(plan.steps) and not asking
        back.button("Back", width="stretch", disabled=index == 0 and not answered, key="lesson.back", on_click=_back,
                    help="Or the ← key (a clicker's Page Up).")  # fmt: skip
        forward.button("Answer" if asking else "Next", width="stretch", disabled=last, key="lesson.next",
                       type="primary", on_click=_next, help="Or the → key (a clicker's Page Down).")  # fmt: skip
        stop.button("Stop", width="stretch", key="lesson.stop", on_click=_stop)
        _KEYS(key=state.LESSON_KEYS, on_move_change=_by_key)
        if asking and page == "playground":
            _class_question(step, ask)
    show_subject(page)


def _class_question(step: plans.Step, place) -> None:
    """Opens the step's question to the class (a code on the projector, in ``place``) and shows the answers as they
    come, under the bar."""
    opened = st.session_state.get(state.CLASS_QUESTION)
    if opened is None:
        if place.button("Ask the class", icon=":material/groups:", key="lesson.ask", width="stretch"):
            current = playground_session.playground()
            try:
                code = class_tally().open(step.question, predictions.options(current), now=time.time())
            except AttnvizInputError as error:
                st.warning(str(error))
                return
            st.session_state[state.CLASS_QUESTION] = code
            st.rerun()
        return
    with st.container(key="lesson_tally"):  # over the controls (attnviz.ui.lesson_screen), not under the bar
        _tally(opened)


@st.fragment(run_every=TALLY_EVERY_S)
def _tally(code: str) -> None:
    try:
        counts = class_tally().counts(code, now=time.time())
    except AttnvizInputError as error:
        st.caption(str(error))
        return
    words, bars = st.columns([1, 2.4], vertical_alignment="center")
    words.markdown(
        f"Class code **{code}** · {counts.per_minute} answers in the last minute. Students open this setup (add the "
        "line below to the app's address), type the code under the views, then click their answer."
    )
    words.code(f"?s={encode(playground_session.playground(), 'playground')}", language=None, wrap_lines=True)
    show_chart(tally_bars(counts, height=200), key="lesson.tally", container=bars)


# ----------------------------------------------------------------------------- a student's side


def _join() -> None:
    typed = str(st.session_state.get(state.CLASS_JOIN, "")).strip().upper()
    if not typed:
        state.set_class_code(None)
        return
    if not allowed("code", time.time()):
        state.say("Too many codes tried at once: wait a few seconds, then type the code again.")
        return
    try:
        class_tally().counts(typed, now=time.time())  # an open question has this code
    except AttnvizInputError as error:
        state.say(str(error))
        return
    state.set_class_code(typed)


def _take_browser_voter() -> None:
    """The browser's own id (trigger "id") becomes this session's voter, if it has the shape the script makes."""
    sent = state.widget_value(state.BROWSER_VOTER)
    voter = sent.get("id") if isinstance(sent, dict) else None
    if isinstance(voter, str) and _VOTER_ID.fullmatch(voter):
        st.session_state[state.VOTER] = voter


def join_box() -> None:
    """Under the Playground's views in predict mode: the class code from the teacher's screen, so this student's
    prediction is counted there (anonymously)."""
    code = state.class_code()
    st.text_input(
        "Class code (from the teacher's screen)",
        key=state.CLASS_JOIN,
        on_change=_join,
        max_chars=8,
        placeholder="e.g. K7P2QX",
        help="Your prediction is added to the class's bars, without your name.",
    )
    _BROWSER_VOTER(key=state.BROWSER_VOTER, on_id_change=_take_browser_voter)
    if code:
        st.caption(f"Your predictions count for the class question {code}.")
