"""A class question over Streamlit's own protocol: a teacher presents the first ready lesson and asks the class, a
student types the code and clicks a prediction, the teacher reads the bars. Used by the replicas' load run
(bench.load_replicas) and by the test of two app processes on one store (tests/load/test_shared_tally.py); it
asserts nothing, and says what it found."""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass

from bench.load_moves import VIEWS
from bench.st_client import Session
from bench.st_elements import ProtocolError, RunResult, sent_data, user_key

LESSON = "ready.present.0"  # "Attention in 15 minutes": step 1 asks which key “good” (row 4) attends to most
FOCUS_ROW = 4
NOT_COUNTED = "Your answer was not counted for the class"  # attnviz.ui.class_join's words
BROWSER_VOTER = {"kind": "bidi_component", "key_part": "voter"}  # sends the id kept in localStorage
CODE = re.compile(r"Class code \*\*([A-Z0-9]{6})\*\*")


@dataclass(frozen=True)
class Bars:
    """What the teacher's bars show: the number of students who answered, and the count of each option."""

    voters: int
    counts: tuple[int, ...]


def said(result: RunResult) -> str:
    """What the run says in words: its texts and alerts, and the line under the views' weights (where a class
    answer stands)."""
    views = result.find(**VIEWS)
    weights = [v for v in sent_data(views.element.json)["views"] if v["name"] == "weights"] if views else []
    lines = [view["line"]["text"] for view in weights if "line" in view]
    return "\n".join([*result.texts, *result.alerts, *lines])


async def ask_the_class(teacher: Session) -> tuple[str, str]:
    """The teacher opens Lesson plans, presents the lesson and asks the class: (the code, the join address's query,
    ``join=<code>``, which students open)."""
    await teacher.open(page="lesson_plans")
    (present,) = [w for w in teacher.widgets.values() if user_key(w.id) == LESSON]
    teacher.press(present)
    await teacher.rerun()  # the lesson's bar sends the session to the Playground, asking
    teacher.press(teacher.find(kind="button", key_part="ask"))
    asked = await teacher.rerun()
    code = CODE.search(said(asked))
    address = next((text for text in asked.texts if "?join=" in text), None)
    if code is None or address is None:
        raise ProtocolError(f"ask the class: no code or join address on the teacher's screen: {said(asked)[:300]}")
    return code[1], address.split("?", 1)[1]


async def join(student: Session, query: str) -> RunResult:
    """A student opens the join address: the asked setup, asking, with the code in the box (or the code's problem,
    said at once). As a browser does, the page's script then sends the browser's own id (its answer waits for it)."""
    joined = await student.open(query=query)
    voter = next((w for w in student.widgets.values() if w.matches(**BROWSER_VOTER)), None)
    if voter is not None:
        student.trigger(voter, "id", secrets.token_hex(16))
        await student.rerun(fragment_id=voter.fragment_id)
    return joined


async def answer(student: Session, key: int) -> RunResult:
    """A click on the covered weights' cell (FOCUS_ROW, ``key``): the prediction, counted for the class. Raises
    ProtocolError when the page says it was not counted."""
    student.trigger(student.find(**VIEWS), "event", {"guess": {"row": FOCUS_ROW, "col": key}})
    result = await student.rerun(fragment_id=student.find(**VIEWS).fragment_id)
    if result.exceptions or NOT_COUNTED in said(result):
        raise ProtocolError(f"answer: {result.exceptions or said(result)}")
    return result


async def bars(teacher: Session) -> tuple[Bars | None, str]:
    """The teacher's screen as the next refresh shows it: (the bars, or None when none are drawn; what it says)."""
    shown = await teacher.rerun()
    chart = shown.find(kind="plotly_chart", key_part="tally")
    if chart is None:
        return None, said(shown)
    data = json.loads(chart.element.spec)
    title = data["layout"]["title"]["text"]
    counts = tuple(int(x) for x in data["data"][0]["x"])  # one horizontal bar an answer: its count along x
    return Bars(int(title.split(" answered")[0]), counts), said(shown)
