"""One hostile browser, speaking Streamlit's protocol directly, against a real server: an oversized message, crafted
widget values, messages Streamlit itself refuses and abandoned training runs. Each is refused or cleaned up without a
traceback, a bystander is not held up, and the log grows by a short line per refused message, never by a payload
(README: Reliability)."""

from __future__ import annotations

import asyncio
import http.client
import http.cookiejar
import json
import subprocess
import sys
import time
import urllib.request
from dataclasses import replace

import pytest
from streamlit import config
from websockets.exceptions import ConnectionClosed

from attnviz.classroom.lesson_plan import MAX_LESSON_LINK
from attnviz.classroom.share import encode
from attnviz.core.limits import MAX_DIM, MAX_TOKENS
from attnviz.core.playground_state import PlaygroundState, column_names
from attnviz.lessons.playground import OPENING
from attnviz.lessons.training import queue_message
from attnviz.ui.edge import LOG_LINES, MAX_WIDGET_VALUE_BYTES, REFUSED_MESSAGE
from bench.attack import (
    CRAFTED_CHOICES,
    CRAFTED_CLICKS,
    CRAFTED_TABLE_EDITS,
    CRAFTED_WIDGET_VALUES,
    frames_streamlit_refuses,
)
from bench.load_moves import VIEWS, Student, shown_value
from bench.st_client import Session
from bench.st_elements import Widget
from tests.app.test_crafted_guesses import CRAFTED
from tests.load.test_load_protocol import run_apart
from tests.models.conftest import require_package
from tests.support.live import REPO, StreamlitServer

LOG_GROWTH_LIMIT = 100_000  # bytes of server log for the whole replay of one attack
LONGEST_LOG_LINE = 400  # characters: a refusal's line names the widget and the reason, never the value
AT_THE_LIMITS = PlaygroundState(sentence=" ".join(f"w{i}" for i in range(MAX_TOKENS)), d_k=MAX_DIM, d_v=MAX_DIM)
NESTED_TRIGGER = "a trigger nested 100,000 deep"
FRAMES = frames_streamlit_refuses()


@pytest.fixture(scope="module")
def server():
    with StreamlitServer("app.py") as live:
        yield live


def assert_quiet_log(server, since: int) -> str:
    """What the server logged since ``since``: no traceback, under LOG_GROWTH_LIMIT, no payload-sized line."""
    grown = server.output()[since:]
    assert "Traceback" not in grown, grown[-3000:]
    assert len(grown.encode()) < LOG_GROWTH_LIMIT
    assert max(map(len, grown.splitlines()), default=0) < LONGEST_LOG_LINE, grown[-3000:]
    return grown


def refusals(log: str) -> list[str]:
    return [line for line in log.splitlines() if "refused " in line]


def test_the_largest_honest_messages_fit_well_under_the_limit(server):
    limit = config.get_option("server.maxMessageSize") * 1_000_000  # from the repository's .streamlit/config.toml
    cells = {
        str(row): {name: "1.000000000000000000000000000000" for name in column_names("Q", MAX_DIM)}
        for row in range(MAX_TOKENS)
    }  # every cell of Q, each 32 characters: the most a table edit can say
    edit = json.dumps({"edited_rows": cells, "added_rows": [], "deleted_rows": []})

    async def at_the_limits():
        session = Session(server.url, timeout=120)
        opened = await session.open(query="s=" + encode(AT_THE_LIMITS))
        session.set_value(session.find(kind="dataframe", key_part="Q"), string_value=edit)
        edited = await session.rerun()
        await session.close()
        return opened, edited

    opened, edited = run_apart(at_the_limits())
    assert opened.status == edited.status == "ok" and not opened.exceptions and not edited.exceptions
    assert REFUSED_MESSAGE not in edited.alerts  # an honest edit of every cell is taken
    assert max(opened.largest_message, edited.largest_message) < limit / 2
    assert len(edit) < MAX_WIDGET_VALUE_BYTES


def test_an_oversized_message_is_closed_from_its_header_while_a_bystander_works_on(server):
    """Every 9 MB frame is refused with close code 1009 (message too big), which the websocket layer sends from the
    frame's header, before the payload is read or decoded; the bystander clicking between them gets right weights
    (each click checks them against attnviz.attention) and the log stays short. How long the bystander's clicks take,
    idle and attacked, is a benchmark, not a test: `python -m bench bystander` (bench/README.md). The attacker's two
    tabs send the frames in turn, each connecting again after its drop, as the benchmark's tab does for as many frames
    as its rounds take."""
    rounds, tabs = 7, 2
    since = len(server.output())
    attacker = subprocess.Popen(
        [sys.executable, "-m", "bench.attack", "oversized", server.url, str(tabs)],
        cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip

    async def replay():
        bystander = Student(Session(server.url), seed=0)
        await bystander.load()
        assert await asyncio.to_thread(attacker.stdout.readline) == "ready\n"
        answers = []
        for _ in range(rounds):
            attacker.stdin.write("go\n")
            attacker.stdin.flush()
            await bystander.toggle_causal()  # checks the weights it draws
            answers.append(await asyncio.to_thread(attacker.stdout.readline))
        await bystander.session.close()
        return answers

    try:
        answers = run_apart(replay())
    finally:
        attacker.kill()
        attacker.wait()
    assert answers == ["closed 1009\n"] * rounds  # the server dropped every one, from its size alone
    assert_quiet_log(server, since)


def send_crafted(session: Session, what: str) -> None:
    if what in CRAFTED_TABLE_EDITS:
        session.set_value(session.find(kind="dataframe", key_part="Q"), string_value=CRAFTED_TABLE_EDITS[what])
    elif what in CRAFTED_WIDGET_VALUES:
        where, value = CRAFTED_WIDGET_VALUES[what]
        session.set_value(
            session.find(**where) if isinstance(where, dict) else Widget(where, "", "", "", None), **value
        )
    else:
        session.trigger_raw(session.find(**VIEWS), "[" * 100_000 + "]" * 100_000)


@pytest.mark.parametrize("what", [*CRAFTED_TABLE_EDITS, *CRAFTED_WIDGET_VALUES, NESTED_TRIGGER])
def test_a_crafted_value_is_refused_in_plain_words_and_the_work_is_kept(server, what):
    since = len(server.output())

    async def replay():
        student = Student(Session(server.url), seed=1)
        await student.load()
        await student.edit_cell()  # honest work first
        send_crafted(student.session, what)
        refused = await student.session.rerun()
        student.check(refused, what)  # the weights are still those of the sentence and the edit typed before
        await student.edit_cell()  # and the session goes on (a browser would send the crafted value again)
        await student.toggle_causal()
        await student.session.close()
        return refused

    refused = run_apart(replay())
    assert refused.exceptions == [] and REFUSED_MESSAGE in refused.alerts
    assert 1 <= len(refusals(assert_quiet_log(server, since))) <= LOG_LINES + 1


@pytest.mark.parametrize("what", CRAFTED_CHOICES)
def test_a_crafted_choice_is_refused_once_by_its_fields_check_and_the_work_is_kept(server, what):
    """The edge lets a value of the widget's own shape through; the field's check refuses it, in its own words."""
    since = len(server.output())
    where, value, said = CRAFTED_CHOICES[what]

    async def replay():
        student = Student(Session(server.url), seed=1)
        await student.load()
        await student.edit_cell()  # honest work first
        student.session.set_value(student.session.find(**where), **value)
        refused = await student.session.rerun()
        student.check(refused, what)  # the weights are still those of the sentence and the edit typed before
        await student.toggle_causal()
        await student.session.close()
        return refused

    refused = run_apart(replay())
    assert refused.exceptions == [] and REFUSED_MESSAGE not in refused.alerts
    assert [alert for alert in refused.alerts if said in alert.replace("\\", "")]
    assert refusals(assert_quiet_log(server, since)) == []  # a student's slip, not an attack on the server


CHOICES = ("Layer", "Head", "Query token (orange lines)")  # what a click on a map would choose


def assert_no_choice_made(server, crafted: list, send, *, seed: int) -> None:
    """Opens the Real model page and sends each ``crafted`` move by ``send(session, move)``: each run raises nothing
    and chooses nothing (the layer, the head and the query stay as the page opened); the page then still draws the
    model's own numbers, and the log stays quiet."""
    require_package("all-MiniLM-L6-v2")
    since = len(server.output())

    async def replay():
        student = Student(Session(server.url, timeout=120), seed=seed)
        await student.load()
        await student.open_real_model()
        chosen = lambda: [shown_value(student.session.find(label=label).element) for label in CHOICES]  # noqa: E731
        results = [(None, chosen())]  # as the page opened
        for move in crafted:
            send(student.session, move)
            results.append((await student.session.rerun(), chosen()))
        await student.pick_head()  # the page still draws the model's own numbers
        await student.session.close()
        return results

    (_, opened), *moved = run_apart(replay())
    assert [(result.status, result.exceptions, shown) for result, shown in moved] == [("ok", [], opened)] * len(crafted)
    assert all(opened)  # three choices read
    assert_quiet_log(server, since)


def test_a_cell_click_no_click_makes_is_no_click(server):
    def click(session, crafted):
        picture, cell = crafted
        session.trigger(session.find(kind="bidi_component", key_part=picture), "event", {"cell": cell})

    assert_no_choice_made(server, list(CRAFTED_CLICKS.values()), click, seed=2)


def selected(series, data_indices) -> str:
    """An ECharts chart's selection as the browser sends it (a JSON text), holding one selected group."""
    group = {"series_index": series, "data_indices": data_indices, "data_index": None}
    return json.dumps({"selection": {"selected": [group], "areas": []}})


CRAFTED_SELECTIONS = {  # on the line view, whose first series holds the query tokens
    "an item past the lines": selected(0, [10**9]),
    "a negative item": selected(0, [-1]),
    "text for an item": selected(0, ["3"]),
    "a series of 4,000 digits": selected(int("9" * 4_000), [0]),
    "no items": selected(0, []),
    "a selection that is not a list": json.dumps({"selection": {"selected": {"series_index": 0}, "areas": []}}),
}


def test_a_chart_selection_no_click_makes_is_no_click(server):
    def select(session, selection):
        session.set_value(session.find(key_part="lines"), string_value=selection)

    assert_no_choice_made(server, list(CRAFTED_SELECTIONS.values()), select, seed=5)


def wait_for_log(server, since: int, text: str, timeout_s: float = 30.0) -> str:
    """The log since ``since`` once ``text`` is in it (a refusal is logged while the server closes a connection)."""
    deadline = time.monotonic() + timeout_s
    while text not in (grown := server.output()[since:]):
        assert time.monotonic() < deadline, f"no {text!r} in the server log: {grown[-2000:]}"
        time.sleep(0.05)
    return grown


@pytest.mark.parametrize("what", list(FRAMES))
def test_a_message_streamlit_refuses_is_one_short_log_line_and_the_class_goes_on(server, what):
    frames, streamlit_says = FRAMES[what]
    since = len(server.output())

    async def replay():
        attacker = Student(Session(server.url), seed=3)
        await attacker.load()
        for frame in frames:
            await attacker.session.send_raw(frame)
        try:
            await attacker.toggle_causal()
            kept = True
        except ConnectionClosed:  # the server closed the connection: only this browser lost it
            kept = False
        bystander = Student(Session(server.url), seed=4)
        await bystander.load()
        await bystander.toggle_causal()
        await bystander.session.close()
        await attacker.session.close()
        return kept

    kept = run_apart(replay())
    assert kept == (what not in ("a frame that is not a message", "a text frame"))
    wait_for_log(server, since, f"refused a message from a browser: {streamlit_says}")
    assert 1 <= len(refusals(assert_quiet_log(server, since))) <= LOG_LINES + 1


def test_abandoned_training_runs_do_not_hold_up_the_next_student(server):
    """Twelve tabs press Train and close: their runs yield to the next student's at once, who reads that at most one
    run (the one stopping at its next log point) is ahead of theirs, and whose run then trains to its end. How long it
    waits is measured by `python -m bench train`, not asserted here."""
    since = len(server.output())

    async def replay():
        for _ in range(12):  # twelve tabs press Train and close
            tab = Session(server.url)
            await tab.open(page="watch_it_learn")
            tab.press(tab.find(label="Train"))
            await tab.rerun()
            await tab.close()
        student = Session(server.url)
        await student.open(page="watch_it_learn")
        student.press(student.find(label="Train"))
        result = await student.rerun()
        assert result.find(label="Stop") is not None, result.alerts  # the run was taken, not refused as one too many
        queued = [alert for alert in result.alerts if "ahead of yours" in alert]
        while (stop := result.find(label="Stop")) is not None:  # until the run has trained to its end
            result = await student.rerun(fragment_id=stop.fragment_id)
            assert not result.exceptions
        await student.close()
        return queued, result

    queued, result = run_apart(replay())
    assert queued in ([], [queue_message(1)]), queued
    assert result.find(label="Train") is not None and not result.exceptions
    assert_quiet_log(server, since)


def upload_status(server, session_id: str, declared_bytes: int) -> int:
    """The answer to an upload that declares ``declared_bytes`` in its Content-Length, with the page's XSRF token, as
    the browser's file uploader sends one: read before any of the body is sent."""
    jar = http.cookiejar.CookieJar()
    urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar)).open(f"{server.url}/_stcore/health")
    (token,) = [cookie.value for cookie in jar if cookie.name == "_streamlit_xsrf"]
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        connection.putrequest("PUT", f"/_stcore/upload_file/{session_id}/made-up-file-id")
        connection.putheader("Content-Length", str(declared_bytes))
        connection.putheader("Content-Type", "multipart/form-data; boundary=x")
        connection.putheader("X-Xsrftoken", token)
        connection.putheader("Cookie", f"_streamlit_xsrf={token}")
        connection.endheaders()
        return connection.getresponse().status
    finally:
        connection.close()


def test_an_upload_larger_than_a_lesson_file_is_refused_before_its_body(server):
    """The app reads one kind of file, a lesson of at most 240 kB: a 10 MB upload under a made-up file id is refused
    from its declared size (Streamlit's default limit, 200 MB, let one tab hold 400 MB of them in memory)."""

    async def refused():
        student = Session(server.url)
        await student.open()
        try:
            return upload_status(server, student.session_id, 10_000_000)
        finally:
            await student.close()

    assert run_apart(refused()) == 413  # Content Too Large
    assert config.get_option("server.maxUploadSize") * 1024 * 1024 >= MAX_LESSON_LINK * 4  # a lesson file still fits


CRAFTED_GUESSES_SENT = 100
CRAFTED_GUESSES_LOG_LIMIT = 10_000  # bytes: the bound for 100 of them


@pytest.mark.parametrize("page, views", [("multi_head", "heads"), ("step_by_step", "views")])
def test_a_hundred_crafted_guesses_leave_no_traceback_and_a_short_log(server, page, views):
    """A predict click whose view is a list raised TypeError, logged whole, 511 kB for 100 of them."""
    since = len(server.output())

    async def replay():
        student = Session(server.url)
        await student.open(query="s=" + encode(replace(OPENING, predict="most")))
        await student.rerun(page=page)  # predict mode holds on the guided pages
        results = []
        for sent in (CRAFTED * CRAFTED_GUESSES_SENT)[:CRAFTED_GUESSES_SENT]:
            student.trigger(student.find(kind="bidi_component", key_part=views), "event", {"guess": sent})
            results.append(await student.rerun())
        await student.close()
        return results

    results = run_apart(replay())
    assert [(result.status, result.exceptions) for result in results] == [("ok", [])] * CRAFTED_GUESSES_SENT
    assert len(assert_quiet_log(server, since).encode()) <= CRAFTED_GUESSES_LOG_LIMIT
