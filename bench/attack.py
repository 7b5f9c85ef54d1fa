"""What one hostile browser can send over Streamlit's protocol, replayed against a server (tests/load/test_attack.py).

    python -m bench.attack oversized http://127.0.0.1:8501 3   # three tabs: a 9 MB table edit a line on stdin, in turn

Run as its own process by the tests, so that building and sending 9 MB costs the attacker's CPU, not the client that
times the bystander.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sys

from streamlit.proto.BackMsg_pb2 import BackMsg
from websockets.exceptions import ConnectionClosed

from attnviz.classroom import lesson_plan as plans
from attnviz.classroom.share import encode
from attnviz.core.playground_state import PlaygroundState
from bench.class_question import answer
from bench.st_client import Session
from bench.st_elements import ProtocolError, RunResult, user_key

OVERSIZED_BYTES = 9_000_000  # the table edit of the replay

# Crafted values for a Q/K/V table's edits, each a way Streamlit's or the app's decoding used to fail loudly.
CRAFTED_TABLE_EDITS = {
    "nested 100,000 deep": "[" * 100_000 + "]" * 100_000,
    "an integer of 5,000 digits": '{"edited_rows": {"0": {"d0": ' + "1" * 5_000 + "}}}",
    "not JSON": "{{{",
    "a list, not an object": "[1, 2, 3]",
    "an unknown column": json.dumps({"edited_rows": {"0": {"nope": "1"}}, "added_rows": [], "deleted_rows": []}),
    "a row past the table": json.dumps({"edited_rows": {"100": {"q1": "1"}}, "added_rows": [], "deleted_rows": []}),
    "600 kB of edits": json.dumps({"edited_rows": {"0": {"q1": "1" * 600_000}}}),
    # Streamlit tries to add each row to a table of fixed rows, and logged a line for each (under the size limit).
    "120,000 rows added": json.dumps({"edited_rows": {}, "added_rows": [{}] * 120_000, "deleted_rows": []}),
    "an integer of 4,000 digits": '{"edited_rows": {"0": {"q1": ' + "9" * 4_000 + "}}}",  # decodes; no float holds it
}

# Values of the wrong kind for a widget, or an id no widget has, which the edge refuses: (how to find the widget, or
# the id; the value).
CRAFTED_WIDGET_VALUES = {
    "JSON for the sentence box": ({"label": "Sentence"}, {"json_value": '{"sentence": ["a", "b"]}'}),
    "an id no widget has": ("w0", {"int_value": 1}),  # Streamlit took it for a key it then could not find
}
# A value of the widget's own shape that is no option of it, which the field's own check refuses where it is read:
# (how to find the widget; the value; what the student is told).
CRAFTED_CHOICES = {
    "an example the box does not offer": (
        {"label": "Example"},
        {"string_value": "no such example"},
        "not 'no such example'. The previous example is kept.",
    ),
}

# Cell clicks no click makes, for the Real model page's pictures ("head": one head's map; "overview": every head).
CRAFTED_CLICKS = {
    "a row past the map's cells": ("head", {"view": "head", "row": 10**9, "col": 0}),
    "a cell past the heads": ("overview", {"view": "heads", "row": 0, "col": 10**6}),
    "a row of 4,000 digits": ("head", {"view": "head", "row": int("9" * 4_000), "col": 0}),
    "text for a row": ("head", {"view": "head", "row": "3", "col": 0}),
    "a negative column": ("overview", {"view": "heads", "row": 0, "col": -1}),
}


# A lesson from an e-mail, written to put links and styles on the projector: every place its words appear
# must show them as text.
HOSTILE_TITLE = "Read www.evil.example or mail teacher@evil.example"
HOSTILE_QUESTION = (
    'Which key? https://evil.example/q <a href="https://evil.example">here</a> '
    '<span style="font-size:64px;color:red">BIG</span><br>\u202eevil $x$'
)
HOSTILE_NOTE = "Answers at www.evil.example, http://evil.example/a or answers@evil.example. <b>bold</b>"
HOSTILE_SENTENCE = "Mail teacher@evil.example or see www.evil.example now"


def hostile_lesson() -> str:
    """The hostile lesson's link: one Playground step on HOSTILE_SENTENCE, asking HOSTILE_QUESTION."""
    setup = PlaygroundState(sentence=HOSTILE_SENTENCE)
    step = plans.Step(encode(setup, "playground"), note=HOSTILE_NOTE, question=HOSTILE_QUESTION)
    return plans.to_link(plans.LessonPlan(HOSTILE_TITLE, (step,)))


async def press(session: Session, key: str) -> RunResult:
    """Presses the button whose user key is ``key`` and reruns."""
    (button,) = [w for w in session.widgets.values() if user_key(w.id) == key]
    session.press(button)
    return await session.rerun()


async def present(teacher: Session, lesson_link: str) -> RunResult:
    """Opens a lesson's link and presents it: the bar of its first step."""
    await teacher.open(page="lesson_plans", query=f"{plans.PARAM}={lesson_link}")
    return await press(teacher, "plan.present")


async def loop_questions(tab: Session, rounds: int) -> None:
    """A tab presenting the first ready lesson and looping Ask the class → Answer → Back, as the issue's four tabs did
    (511 questions in 54 s evicted the teacher's)."""
    await tab.open(page="lesson_plans")
    await press(tab, "ready.present.0")
    for _ in range(rounds):
        for key in ("lesson.ask", "lesson.next", "lesson.back"):
            await press(tab, key)


async def reload_and_answer(url: str, code: str, query: str, browser_id: str, key: int) -> None:
    """One reload of one browser: a new session, whose page sends the browser's id from its localStorage, types the
    class code and answers."""
    student = Session(url)
    await student.open(query=query)
    student.trigger(student.find(kind="bidi_component", key_part="voter"), "id", browser_id)
    await student.rerun()
    student.set_value(student.find(kind="text_input", key_part="join"), string_value=code)
    await student.rerun()
    await answer(student, key)
    await student.close()


def frames_streamlit_refuses() -> dict[str, tuple[list[bytes | str], str]]:
    """Websocket frames Streamlit itself refuses before the app sees them, each of which used to print a traceback, a
    line per message or the message itself into the log; with how Streamlit's own line about it begins."""
    fragment = BackMsg()
    fragment.rerun_script.fragment_id = "f" * 100_000  # no such fragment
    disconnect = BackMsg(debug_disconnect_websocket=True)  # refused outside development mode
    return {
        "a frame that is not a message": ([b"\xff\xff\xff\xff"], "Error deserializing back message"),
        "a text frame": (["hello"], "Exception in ASGI application"),
        "50 debug messages": ([disconnect.SerializeToString()] * 50, "Client tried to disconnect websocket"),
        "a fragment id of 100 kB": ([fragment.SerializeToString()], "The fragment with id"),
        "an empty message": ([b""], 'No handler for "'),
    }


def oversized_table_edit() -> str:
    row = {f"d{j}": "1.000000000000000000000000000000" for j in range(64)}
    edits, i = {}, 0
    while len(json.dumps(edits)) < OVERSIZED_BYTES:
        for _ in range(2_000):
            edits[str(i)] = row
            i += 1
    return json.dumps({"edited_rows": edits, "added_rows": [], "deleted_rows": []})


async def send_oversized(url: str, tabs: int) -> None:
    """Opens ``tabs`` Playgrounds, prints "ready", then for each line read from stdin, until stdin ends, sends one
    oversized table edit from the next of them in turn and prints "closed <code>" (the server dropped the connection,
    with the close code it sent: 1009, message too big, is the size limit read from the frame's header before its
    payload is decoded) or "answered". A dropped tab connects again, to the same session, before it answers, so the
    attack goes on for as many lines as a benchmark's rounds take."""
    payload = oversized_table_edit()
    sessions = []
    for _ in range(tabs):
        session = Session(url)
        await session.open()
        session.set_value(session.find(kind="dataframe", key_part="Q"), string_value=payload)
        sessions.append(session)
    print("ready", flush=True)
    for session in itertools.cycle(sessions):
        if not await asyncio.to_thread(sys.stdin.readline):
            break
        print(await _oversized_from(session), flush=True)
    await asyncio.gather(*(session.close() for session in sessions))


async def _oversized_from(session: Session) -> str:
    try:
        await session.rerun(timeout=60)
        return "answered"
    except ConnectionClosed as closed:
        answer = f"closed {closed.rcvd.code if closed.rcvd else 'without a code'}"
    except ProtocolError:
        answer = "closed without a code"
    await session.resume()
    return answer


def main(argv: list[str]) -> None:
    kind, url, tabs = argv
    if kind != "oversized":
        raise SystemExit(f"unknown attack {kind!r}")
    asyncio.run(send_oversized(url, int(tabs)))


if __name__ == "__main__":
    main(sys.argv[1:])
