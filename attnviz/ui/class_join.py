"""A student's side of a class question: the short address (``?join=<code>``) opens the asked setup with the code in
the box; a typed code is checked at once; the student's last prediction is kept and sent when it can be counted: once
the right code is typed, for the asked setup only, one answer a browser. The teacher's side: attnviz.ui.lesson_plan.

The answer follows the prediction kept in the session (attnviz.ui.playground_host.last_prediction), so it is sent by
whichever comes last: the click, the right code, or the way back to the asked setup."""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import streamlit as st

from attnviz.classroom import join
from attnviz.classroom.join import AnswerLine, answer_line
from attnviz.classroom.rate import Bucket
from attnviz.classroom.share import decode
from attnviz.classroom.tally import TallyUnavailable
from attnviz.core.errors import AttnvizInputError
from attnviz.core.limits import ANSWERS_BURST, ANSWERS_PER_S, CODE_GUESSES_BURST, CODE_GUESSES_PER_S, MAX_CODE_CHARS
from attnviz.core.playground_state import PlaygroundState
from attnviz.lessons import app_words, predictions
from attnviz.pages import DEFAULT_PAGE, page_named
from attnviz.ui import playground_host, state
from attnviz.ui.class_tally import class_tally
from attnviz.ui.text import literal

CLASS = "class"  # a student's side of a class question: its one key in st.session_state, a Joined
BOX = "class.join"  # the box a student types the class code into (it shows Joined.typed)
BROWSER_VOTER = "browser_voter"  # the component sending this browser's own voter id (trigger "id"), from localStorage
RESEND = "class.resend"  # the component that asks for a run while an answer waits for the store
_RATES = {"answer": Bucket(ANSWERS_BURST, ANSWERS_PER_S), "code": Bucket(CODE_GUESSES_BURST, CODE_GUESSES_PER_S)}


@dataclass(frozen=True)
class Joined:
    """A student's side of a class question, as this session keeps it (read by ``joined``, written by ``_keep``)."""

    typed: str = ""  # the code this student typed or opened last, accepted or not
    code: str | None = None  # the class question this student answers: the typed code, once it was found
    asked: PlaygroundState | None = None  # the setup that question asks about (None: any)
    problem: str | None = None  # why the typed code was refused, said under the box until another is typed
    # The last answer sent: (code, (state asked on, option), why it was refused or None, whether it is to be sent
    # again: a refusal that was not the answer's fault, such as the store not answering).
    sent: tuple | None = None
    link_checked: bool = False  # a join address (?join=<code>) is applied once, on a session's first run
    heard: bool = False  # the browser has sent its own voter id (or said it keeps none): answers may go
    rates: Mapping[str, Bucket] = field(default_factory=dict)  # token buckets for answers and code guesses, by kind


def joined() -> Joined:
    return st.session_state.get(CLASS) or Joined()


def _keep(**changes) -> None:
    """Keeps ``joined()`` with ``changes`` (fields of Joined) made."""
    st.session_state[CLASS] = replace(joined(), **changes)


def _allowed(kind: str, now: float) -> bool:
    """Whether this session may send one more ``kind`` ("answer" or "code" guess) at ``now``: a token bucket each,
    kept in the session, so a script looping either is slowed to a trickle while a student never notices."""
    rates = joined().rates
    ok, bucket = rates.get(kind, _RATES[kind]).take(now)
    _keep(rates={**rates, kind: bucket})
    return ok


NOT_COUNTED = "Your answer was not counted for the class"
# The store not answering is not the student's fault: one plain line each, the answer kept and sent again.
STORE_DOWN_ANSWER = (
    f"{NOT_COUNTED} yet: the class's answers cannot be reached right now. It is kept and sent again every few "
    "seconds until they can."
)
STORE_DOWN_CODE = (
    "The class code cannot be checked right now (the class's answers cannot be reached): it is tried again with your "
    "next move."
)
# One answer a browser, not a session (a reload is a new session): a random id kept in the browser's localStorage,
# sent until the server has heard it (each render is a rerun's). Without storage (switched off), an empty id: the
# session's own counts. An answer waits for it, else an answer made first would count once more after a reload.
_BROWSER_VOTER_JS = """
export default function ({ data, setTriggerValue }) {
  if (data?.heard) return;
  let id = '';
  try {
    id = window.localStorage.getItem('attnviz.voter');
    if (!/^[0-9a-f]{32}$/.test(id || '')) {
      const bytes = window.crypto.getRandomValues(new Uint8Array(16));
      id = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
      window.localStorage.setItem('attnviz.voter', id);
    }
  } catch (error) {
    id = '';
  }
  setTriggerValue('id', id);
}
"""
_BROWSER_VOTER = st.components.v2.component("attnviz_browser_voter", js=_BROWSER_VOTER_JS)
# While the student's answer waits for the store, the browser asks for a run of the views a few seconds after each
# (trigger "retry"), and that run sends it again: counted once the store answers, with no move needed. It stops as soon
# as a run says nothing waits. Each such run's data is new ("waiting": a new number), so each arms one timer.
_RESEND_JS = """
export default function ({ data, setTriggerValue }) {
  if (!data?.waiting) return undefined;
  const timer = setTimeout(() => setTriggerValue('retry', data.waiting), data.after_ms);
  return () => clearTimeout(timer);
}
"""
_RESEND = st.components.v2.component("attnviz_class_resend", js=_RESEND_JS)
RESEND_AFTER_MS = 3000
_VOTER_ID = re.compile(r"[0-9a-f]{32}")


def join_from_link(page: str) -> None:
    """Once a session, ``?join=<code>`` joins that class question: the box holds the code, and the asked setup opens
    on the Playground (or the code's problem is said at the top, at once). The code stays in the address, so a reload
    joins again."""
    code = st.query_params.get(join.PARAM)
    if code is None or joined().link_checked:
        return
    _keep(link_checked=True)
    _join(str(code), opening=True)
    if problem := joined().problem:
        _keep(problem=None)
        state.say(problem)  # at the top of the page, where a phone opens it (the box is only drawn when predicting)
    if problem == STORE_DOWN_CODE:  # not checked: the address keeps the code, and the next run checks it again
        _keep(link_checked=False)
        st.query_params[join.PARAM] = str(code)[:MAX_CODE_CHARS]
    if page != DEFAULT_PAGE:
        st.switch_page(page_named(DEFAULT_PAGE).file, query_params={join.PARAM: str(code)[:MAX_CODE_CHARS]})


def _typed() -> None:
    """The box's change: a code typed joins it. An empty box leaves the joined code as it is: a browser that drew the
    box before the code was in it sends an empty box back, which must not lose the student's class (nor an answer)."""
    if typed := str(state.widget_value(BOX) or "").strip():
        _join(typed)


def _join(code: str, *, opening: bool = False) -> None:
    """The code typed (or opened): checked at once; an open question's setup is opened unless the student's kept
    prediction already answers it, which is then sent (by the join box)."""
    typed = code[:MAX_CODE_CHARS].strip().upper()
    again = typed == joined().typed  # the same code once more (the store did not answer): no new guess
    _keep(typed=typed, code=None, asked=None, problem=None)
    st.query_params.pop(join.PARAM, None)  # the address holds a code only while it is the one joined
    if not typed:
        return
    if not again and not _allowed("code", time.time()):
        _keep(problem="Too many codes tried at once: wait a few seconds, then type it again.")
        return
    try:
        asked = _asked_setup(class_tally().counts(typed, now=time.time()).setup)
    except TallyUnavailable:
        _keep(problem=STORE_DOWN_CODE)
        return
    except AttnvizInputError as error:
        _keep(problem=str(error))
        return
    _keep(code=typed, asked=asked)
    kept = _kept_answer()
    if asked is not None and not on_asked_setup() and (kept is None or kept[0] != asked):
        (playground_host.start_from if opening else playground_host.set_playground)(asked)
    st.query_params[join.PARAM] = typed  # a reload joins again


def _asked_setup(link: str) -> PlaygroundState | None:
    """The state a question asks about, from its share link; None for a question opened without one (any setup)."""
    try:
        return decode(link).state if link else None
    except AttnvizInputError:
        return None


def asked_setup() -> PlaygroundState | None:
    return joined().asked


def on_asked_setup() -> bool:
    """Whether the Playground shows the asked setup, or the change its question asks about (after the answer)."""
    asked, shown = asked_setup(), playground_host.playground()
    return asked is None or shown in (asked, predictions.outcome(asked))


def _kept_answer() -> tuple[PlaygroundState, int] | None:
    """The student's last prediction: (the state it was asked on, its option), or None."""
    made = playground_host.last_prediction()
    return None if made is None else (made[1], predictions.option_of(made[1], made[0]))


def _send_kept_answer(code: str) -> None:
    """Sends the kept prediction to the question ``code`` once, if it answers the asked setup. What happened is kept
    beside it (None: counted), for the box to say."""
    kept, asked = _kept_answer(), asked_setup()
    if kept is None or (asked is not None and kept[0] != asked):
        return
    if not joined().heard:
        return  # sent by the run the browser's id starts
    tried = joined().sent
    if tried is not None and tried[:2] == (code, kept) and not tried[3]:
        return  # counted already (or refused for good): a rerun does not send it again
    now = time.time()
    problem, again = None, False
    if not _allowed("answer", now):
        problem, again = f"{NOT_COUNTED} yet: too many answers at once. It is sent again in a few seconds.", True
    else:
        try:
            class_tally().answer(code, state.voter(), kept[1], now=now)
        except TallyUnavailable:  # the store, not the answer: kept, and sent again on the next run
            problem, again = STORE_DOWN_ANSWER, True
        except AttnvizInputError as error:
            problem = f"{NOT_COUNTED}: {error}"
    _keep(sent=(code, kept, problem, again))


def _take_browser_voter() -> None:
    """The browser's own id (trigger "id") becomes this session's voter, if it has the shape the script makes; any
    other (none kept) leaves the session's. Either way the browser has spoken: answers may go."""
    sent = state.widget_value(BROWSER_VOTER)
    voter = sent.get("id") if isinstance(sent, dict) else None
    if isinstance(voter, str) and _VOTER_ID.fullmatch(voter):
        state.set_voter(voter)
    _keep(heard=True)


def _retried() -> None:
    """The browser's timer (trigger "retry"): the run it starts sends the waiting answer (class_answer_line)."""


def in_a_class() -> bool:
    """Whether this student has typed (or opened) a class code."""
    return bool(joined().typed)


def join_box() -> None:
    """On the Playground in predict mode: the class code from the teacher's screen (the code joined, always), and
    under it what is wrong with it: a refused code, or a setup that is not the asked one (with the way back)."""
    # The code opened is the box's first value, sent with every draw: a value set through the session's state instead
    # reaches the browser once, and a browser that drew the box in a run cut short by the next shows it empty.
    st.text_input(
        "Class code (from the teacher's screen)",
        joined().typed,
        key=BOX,
        on_change=_typed,
        max_chars=MAX_CODE_CHARS,
        placeholder="e.g. K7P2QX",
    )
    st.caption("Your prediction is added to the class's bars, without your name.")  # in sight: a phone cannot hover
    _BROWSER_VOTER(key=BROWSER_VOTER, data={"heard": joined().heard}, on_id_change=_take_browser_voter)
    sent = joined().sent
    waiting = time.monotonic_ns() if sent is not None and sent[3] else 0
    _RESEND(key=RESEND, data={"waiting": waiting, "after_ms": RESEND_AFTER_MS}, on_retry_change=_retried)
    if problem := joined().problem:
        st.warning(literal(problem), icon=":material/error:")
    elif (code := joined().code) and not on_asked_setup():
        st.warning(app_words.not_the_asked_setup(code), icon=":material/info:")
        st.button("Back to the class question", key="class.back", icon=":material/undo:",
                  on_click=playground_host.set_playground, args=(asked_setup(),))  # fmt: skip


def class_answer_line() -> AnswerLine | None:
    """Sends the student's kept answer if it can be counted now, and says where it stands, for the line under the
    view the student answers on (seen where they tapped, heard as a status): None for a student who typed no code."""
    if not in_a_class():
        return None  # a student working alone: nothing to say about a class
    if joined().problem == STORE_DOWN_CODE:
        _join(joined().typed)  # the code the store could not check, tried again
    if code := joined().code:
        _send_kept_answer(code)
    kept, asked = _kept_answer(), asked_setup()
    return answer_line(
        code=code,
        refused=bool(joined().problem),
        kept=kept,
        answers_asked=kept is not None and (asked is None or kept[0] == asked),
        on_asked=on_asked_setup(),
        heard=joined().heard,
        sent=joined().sent,
    )
