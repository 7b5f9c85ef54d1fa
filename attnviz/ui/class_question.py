"""The teacher's side of a class question, asked from a presented lesson's Playground step: the code, its QR code and
join address, and the class's bars, live while it asks and kept beside the revealed weights after Answer, the right
answer marked. A student's side: attnviz.ui.class_join. Where the answers live: attnviz.classroom.tally."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import streamlit as st

from attnviz.classroom import join
from attnviz.classroom import lesson_plan as plans
from attnviz.classroom.share import encode
from attnviz.classroom.tally import TallyCounts, TallyUnavailable
from attnviz.core.errors import AttnvizInputError
from attnviz.core.playground_state import PlaygroundState
from attnviz.figures.tally import tally_bars
from attnviz.lessons import app_words, predictions
from attnviz.ui import playground_host
from attnviz.ui.charts import show_chart
from attnviz.ui.class_tally import class_tally
from attnviz.ui.text import literal

TALLY_EVERY_S = 2.0  # the teacher's bars refresh this often while the class answers
QR_PX = 130  # the join QR code's side at most, beside the code: at 1280×720 on a 3 m screen, about 27 cm
QR_LARGE_PX = 560  # its side when shown large (at most 62 % of the screen: 446 px, 1 m, at 720), for the back row
ASKING = "lesson.class"  # the teacher's class question: its one key in st.session_state, an Asking


@dataclass(frozen=True)
class Asking:
    """The teacher's class question, as this session keeps it (read by ``asking``, written by ``_keep``)."""

    code: str | None = None  # the open class question, by its code
    final: TallyCounts | None = None  # its answers as Answer closed it: the bars beside the reveal
    store_said: str | None = None  # why Answer or a step's move could not reach the tally's store, said once
    keyed: str | None = None  # a key asked the bar for "ask" (Ask the class) or "qr" (the code large), this run


def asking() -> Asking:
    return st.session_state.get(ASKING) or Asking()


def _keep(**changes) -> None:
    """Keeps ``asking()`` with ``changes`` (fields of Asking) made."""
    st.session_state[ASKING] = replace(asking(), **changes)


def keep_final(final: TallyCounts | None) -> None:
    """The answers read before Answer closed the question: its bars stay beside the revealed weights."""
    _keep(final=final)


def keyed(to: str | None) -> None:
    """A key asked the bar for ``to`` ("ask" or "qr") on this run; None once the bar is drawn."""
    _keep(keyed=to)


def close_class_question() -> None:
    """The step moved on (Answer, Back, Next, Stop): its class question closes, so a late answer is told so, and the
    bars of the step before go."""
    code = asking().code
    _keep(final=None, code=None)
    if code:
        try:
            class_tally().close(code, now=time.time())
        except TallyUnavailable as error:  # it expires in the store by itself; the teacher is told once
            _keep(store_said=str(error))


def final_counts() -> TallyCounts | None:
    """The open class question's answers as they stand, read before Answer closes it (None: none asked, or none to
    read, the store not answering being said once): the bars stay beside the revealed weights."""
    code = asking().code
    try:
        return class_tally().counts(code, now=time.time()) if code else None
    except TallyUnavailable as error:
        _keep(store_said=str(error))
    except AttnvizInputError:
        pass  # expired: no bars to keep
    return None


def store_said() -> None:
    """The one line saying that Answer or the last move could not reach the class's answers, once."""
    if said := asking().store_said:
        _keep(store_said=None)
        st.caption(said)


# Back and Next read the step shown when they are pressed, not the one their button was drawn for: a second press
# that arrives before the first one's run has drawn the bar again moves the lesson on again.
def class_question(step: plans.Step, place) -> None:
    """Opens the step's question to the class (a code on the projector, in ``place``) and shows the answers as they
    come, under the bar."""
    opened = asking().code
    if opened is None:
        pressed = place.button("Ask the class", key="lesson.ask", width="stretch")
        if pressed or asking().keyed == "ask":
            current = playground_host.playground()
            try:
                setup = encode(current, "playground")  # the code alone opens it for a student
                code = class_tally().open(step.question, predictions.options(current), now=time.time(), setup=setup)
            except (AttnvizInputError, TallyUnavailable) as error:
                st.warning(str(error))
                return
            _keep(code=code)
            st.rerun()
        return
    with st.container(key="lesson_tally"):  # over the controls (attnviz.ui.lesson_screen), not under the bar
        _tally(opened)


@st.fragment(run_every=TALLY_EVERY_S)
def _tally(code: str) -> None:
    """The class question's panel while it is asked: the QR code and the code, large, the address, and the bars."""
    try:
        counts = class_tally().counts(code, now=time.time())
    except (AttnvizInputError, TallyUnavailable) as error:  # the store's line is shown again until it answers
        st.caption(str(error))
        return
    address = join.join_address(join.app_root(st.context.url), code)
    full = address.startswith("http")  # a QR code of an address a phone can open
    qr, words = st.columns([0.8, 1.2], vertical_alignment="center") if full else (None, st.container())
    if qr is not None:
        qr.html(join.qr_image(address, QR_PX))
    with words:
        with st.container(key="lesson_code"):  # the code for the back row (the lesson's styles: lesson_screen)
            st.markdown(app_words.class_code_line(code))
        st.caption("Scan it, or open:" if full else "Open the app's address followed by:")
        if full and (
            st.button("QR code large", key="lesson.qr", type="tertiary", icon=":material/qr_code_2:")
            or asking().keyed == "qr"
        ):
            _large_qr(address)
    st.code(address, language=None, wrap_lines=True)
    show_chart(tally_bars(counts), key="lesson.tally")


def answered_bars(final: TallyCounts, asked: PlaygroundState) -> None:
    """The class's bars after Answer, beside the revealed weights: the question closed, the right answer marked."""
    right = predictions.option_of(asked, predictions.right_answer(asked))
    with st.container(key="lesson_tally"):
        st.markdown(app_words.right_answer_line(literal(final.options[right])))
        show_chart(tally_bars(final, right=right), key="lesson.tally")


@st.dialog("Join the class question", width="large")
def _large_qr(address: str) -> None:
    """The join code as large as the projector allows, for the back of the room; Esc or the cross closes it."""
    st.html(join.qr_image(address, QR_LARGE_PX))
    st.code(address, language=None, wrap_lines=True)
