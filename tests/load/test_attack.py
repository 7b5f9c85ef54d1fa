"""One hostile browser, speaking Streamlit's protocol directly, against a real server: an oversized message, crafted
widget values and abandoned training runs. Each is refused or cleaned up without a traceback, a bystander is not held
up, and the log grows by a line per refusal, never by a payload (README: Reliability)."""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import time

import numpy as np
import pytest
from streamlit import config
from streamlit.components.v2.bidi_component.main import _make_trigger_id
from streamlit.proto.WidgetStates_pb2 import WidgetState

from attnviz.classroom.share import encode
from attnviz.core.limits import MAX_DIM, MAX_TOKENS
from attnviz.core.playground_state import PlaygroundState, column_names
from attnviz.ui.edge import LOG_LINES_PER_SESSION, MAX_WIDGET_VALUE_BYTES, REFUSED_MESSAGE
from bench.attack import CRAFTED_TABLE_EDITS
from bench.load_moves import VIEWS
from bench.st_client import Session, heatmap
from tests.load.test_load_protocol import run_apart
from tests.support.live import REPO, StreamlitServer

LOG_GROWTH_LIMIT = 100_000  # bytes of server log for the whole replay of one attack
AT_THE_LIMITS = PlaygroundState(sentence=" ".join(f"w{i}" for i in range(MAX_TOKENS)), d_k=MAX_DIM, d_v=MAX_DIM)


@pytest.fixture(scope="module")
def server():
    with StreamlitServer("app.py") as live:
        yield live


def assert_quiet_log(server, since: int) -> None:
    grown = server.output()[since:]
    assert "Traceback" not in grown, grown[-3000:]
    assert len(grown.encode()) < LOG_GROWTH_LIMIT


def test_the_largest_honest_messages_fit_well_under_the_limit(server):
    limit = config.get_option("server.maxMessageSize") * 1_000_000  # from the repository's .streamlit/config.toml
    cells = {str(row): {name: "1.000000000000000000000000000000" for name in column_names("Q", MAX_DIM)}
             for row in range(MAX_TOKENS)}  # every cell of Q, each 32 characters: the most a table edit can say
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


async def timed_toggle(session: Session, causal: bool) -> float:
    views = session.find(**VIEWS)
    session.trigger(views, "causal", causal)
    result = await session.rerun(fragment_id=views.fragment_id)
    assert result.status == "ok" and not result.exceptions
    return result.elapsed_ms


def test_an_oversized_message_is_dropped_before_it_holds_up_a_bystander(server):
    rounds = 7
    since = len(server.output())
    attacker = subprocess.Popen(
        [sys.executable, "-m", "bench.attack", "oversized", server.url, str(rounds)],
        cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )

    async def replay():
        bystander = Session(server.url)
        await bystander.open()
        assert await asyncio.to_thread(attacker.stdout.readline) == "ready\n"
        idle, attacked, answers = [], [], []
        for i in range(rounds):  # idle and attacked clicks in turn, so a slow moment of the machine hits both alike
            idle.append(await timed_toggle(bystander, i % 2 == 0))
            attacker.stdin.write("go\n")
            attacker.stdin.flush()
            attacked.append(await timed_toggle(bystander, i % 2 == 1))
            answers.append(await asyncio.to_thread(attacker.stdout.readline))
        await bystander.close()
        return idle, attacked, answers

    try:
        idle, attacked, answers = run_apart(replay())
    finally:
        attacker.kill()
        attacker.wait()
    assert answers == ["closed\n"] * rounds  # the server dropped every one
    assert statistics.median(attacked) <= 1.5 * statistics.median(idle), (idle, attacked)
    assert_quiet_log(server, since)


async def views_scores(session: Session) -> np.ndarray:
    return heatmap(session.find(**VIEWS), "scores").values


@pytest.mark.parametrize("what", [*CRAFTED_TABLE_EDITS, "a trigger nested 100,000 deep"])
def test_a_crafted_value_is_refused_in_plain_words_and_the_work_is_kept(server, what):
    since = len(server.output())

    async def replay():
        session = Session(server.url)
        await session.open()
        q = session.find(kind="dataframe", key_part="Q")
        first_cell = {"0": {column_names("Q", 4)[0]: "2.5"}}
        honest = {"edited_rows": first_cell, "added_rows": [], "deleted_rows": []}
        session.set_value(q, string_value=json.dumps(honest))  # honest work first
        taken = await session.rerun()
        assert not taken.alerts and session.find(kind="dataframe", key_part="Q").id == q.id
        kept = await views_scores(session)
        if what in CRAFTED_TABLE_EDITS:
            session.set_value(q, string_value=CRAFTED_TABLE_EDITS[what])
        else:
            views = session.find(**VIEWS)
            trigger = _make_trigger_id(views.id, "events")
            session._triggers.append(WidgetState(id=trigger, json_trigger_value="[" * 100_000 + "]" * 100_000))
        refused = await session.rerun()
        after = await session.rerun()  # and the session goes on
        await session.close()
        return kept, refused, after, await views_scores(session)

    kept, refused, after, scores = run_apart(replay())
    assert refused.status == after.status == "ok"
    assert refused.exceptions == after.exceptions == []
    assert REFUSED_MESSAGE in refused.alerts
    np.testing.assert_array_equal(scores, kept)  # the edit typed before is still there
    grown = server.output()[since:]
    assert_quiet_log(server, since)
    assert 1 <= grown.count("refused a value") <= LOG_LINES_PER_SESSION and CRAFTED_TABLE_EDITS["not JSON"] not in grown


def test_abandoned_training_runs_do_not_hold_up_the_next_student(server):
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
        pressed = time.perf_counter()
        result = await student.rerun()
        started = finished = None
        while finished is None:
            stop = result.find(label="Stop")
            if stop is None and started is not None:
                finished = time.perf_counter()
            elif result.progress and started is None:
                started = time.perf_counter()
            result = await student.rerun(fragment_id=stop.fragment_id) if stop else await student.rerun()
            assert not result.exceptions
        await student.close()
        return started - pressed, finished - started, result

    waited, trained, result = run_apart(replay())
    assert waited <= trained, (waited, trained)
    assert result.find(label="Train") is not None and not result.exceptions
    assert_quiet_log(server, since)
