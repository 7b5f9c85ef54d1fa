"""The class's own tools turned against it, replayed by one hostile browser over Streamlit's protocol
against a real server: a lesson from e-mail that would put links and styles on the projector, tabs looping Ask the
class to evict the teacher's question, votes after the step moved on, code guesses in a loop, and reloads voting
again. Part of `make attack` (README: Reliability)."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

import pytest

from attnviz.classroom.redis_tally import INDEX
from attnviz.classroom.share import encode
from attnviz.core.limits import CODE_GUESSES_BURST
from attnviz.lessons.playground import OPENING
from attnviz.ui.class_tally import URL_SETTING
from bench.attack import hostile_lesson, loop_questions, present, press, reload_and_answer
from bench.class_question import FOCUS_ROW, NOT_COUNTED, answer, ask_the_class, bars, join, said
from bench.load_moves import VIEWS
from bench.st_client import Session
from tests.app.test_lesson_plans import PLOTLY_MARKUP
from tests.app.test_text import gfm_autolinks
from tests.load.test_attack import assert_quiet_log
from tests.load.test_load_protocol import run_apart
from tests.support.live import StreamlitServer


@pytest.fixture(scope="module")
def server():
    with StreamlitServer("app.py") as live:
        yield live


@pytest.fixture
def class_server(redis_server):
    """The app on a store, so the test can count the open questions as the store holds them."""
    with StreamlitServer("app.py", env={URL_SETTING: redis_server.url}) as live:
        yield live


def test_a_hostile_lesson_shows_no_link_and_no_markup_on_the_projector(server):
    since = len(server.output())

    async def replay():
        teacher = Session(server.url)
        bar = await present(teacher, hostile_lesson())
        asked = await press(teacher, "lesson.ask")
        await teacher.close()
        return bar, asked

    bar, asked = run_apart(replay())
    words = [text for text in bar.texts if "step 1 of 1" in text]
    assert len(words) == 1 and "evil" in words[0] and gfm_autolinks(words[0]) == []
    chart = json.loads(asked.find(kind="plotly_chart", key_part="tally").element.spec)
    title, labels = chart["layout"]["title"]["text"], chart["data"][0]["y"]
    assert title == "0 answered" and not [text for text in (title, *labels) if PLOTLY_MARKUP.search(text)], chart
    assert_quiet_log(server, since)


def test_tabs_looping_questions_leave_one_open_each_and_the_presented_one_is_kept(class_server, redis_server):
    """Four tabs loop Ask the class → Answer → Back while a teacher presents: each move closes the tab's question, so
    only the teacher's is open at the end, and its bars are still drawn."""

    async def replay():
        teacher = Session(class_server.url)
        code, _ = await ask_the_class(teacher)
        tabs = [Session(class_server.url) for _ in range(4)]
        await asyncio.gather(*(loop_questions(tab, rounds=5) for tab in tabs))
        shown, said = await bars(teacher)
        for session in (teacher, *tabs):
            await session.close()
        return code, shown, said

    code, shown, said = run_apart(replay())
    assert redis_server.client().zrange(INDEX, 0, -1) == [code]  # 20 questions opened, each closed by its Answer
    assert shown is not None and shown.voters == 0, said
    assert "Traceback" not in class_server.output()


def test_a_vote_after_the_step_moved_on_is_refused_with_a_message(class_server):
    async def replay():
        teacher, student = Session(class_server.url), Session(class_server.url)
        code, query = await ask_the_class(teacher)
        await join(student, query)
        await answer(student, 3)  # counted while the question is asked
        await press(teacher, "lesson.next")  # the answer is shown: the question closes
        student.trigger(student.find(**VIEWS), "event", {"guess": {"row": FOCUS_ROW, "col": 10}})
        late = await student.rerun(fragment_id=student.find(**VIEWS).fragment_id)
        for session in (teacher, student):
            await session.close()
        return code, said(late)  # under the weights the student tapped

    code, told = run_apart(replay())
    assert f"{NOT_COUNTED}: The question {code} has closed" in told.replace("\\", ""), told


def test_code_guesses_in_a_loop_are_slowed_after_a_burst(class_server):
    async def replay():
        guesser = Session(class_server.url)
        await guesser.open(query="s=" + encode(replace(OPENING, predict="most")))
        said = []
        for guess in range(12):  # a script trying codes as fast as the server answers
            guesser.set_value(guesser.find(kind="text_input", key_part="join"), string_value=f"ZZZZ{guess + 20}")
            said.append("\n".join((await guesser.rerun()).alerts))
        await guesser.close()
        return said

    said = run_apart(replay())
    assert all("No open question has the code" in words for words in said[:CODE_GUESSES_BURST])
    assert any("Too many codes tried at once" in words for words in said[CODE_GUESSES_BURST:]), said


def test_reloads_of_one_browser_count_once(server):
    """Twenty reloads of one browser (each a new session, the same id in its localStorage) answer one question: the
    teacher's bars count one student, with the last answer."""

    async def replay():
        teacher = Session(server.url)
        code, query = await ask_the_class(teacher)
        for reload in range(20):
            await reload_and_answer(server.url, code, query, "0123456789abcdef" * 2, 3 if reload < 19 else 10)
        shown, said = await bars(teacher)
        await teacher.close()
        return shown, said

    shown, said = run_apart(replay())
    assert shown is not None and shown.voters == 1 and shown.counts[10] == 1, said
