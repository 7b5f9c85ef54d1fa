"""A store that stops answering mid-question, in a real browser on a real server: the phone says one plain line, and
its answer is counted once the store answers, with no move from the student (the page asks for the run itself). The
server log says so in one line, and holds no traceback (quiet_server fails the test otherwise)."""

from __future__ import annotations

import pytest

from attnviz.ui.class_join import STORE_DOWN_ANSWER
from attnviz.ui.class_tally import URL_SETTING
from tests.e2e.conftest import quiet_server
from tests.e2e.test_class_join import BARS_JS, PHONE, PROJECTOR, answer, ask_the_class, phone_says
from tests.support.live import open_app_page


@pytest.fixture
def store_server(browser_executable, redis_server):
    yield from quiet_server({URL_SETTING: redis_server.url})


def test_an_answer_the_store_missed_is_counted_when_it_answers_with_no_move(browser, store_server, redis_server):
    contexts = [browser.new_context(viewport=PROJECTOR), browser.new_context(viewport=PHONE)]
    try:
        teacher, phone = (context.new_page() for context in contexts)
        code, address = ask_the_class(teacher, store_server.url)
        open_app_page(phone, address)
        redis_server.refuse_clients()  # every client turned away; the question stays in the store
        answer(phone, 10)
        phone_says(phone, STORE_DOWN_ANSWER)
        redis_server.admit_clients()
        phone_says(phone, f"Counted for the class question {code}: 10: amazing.")  # the page's own run sent it
        teacher.wait_for_function(f"() => ({BARS_JS})()[10] === 1", timeout=30_000)  # refreshed every 2 s
        assert sum(teacher.evaluate(BARS_JS)) == 1
    finally:
        for context in contexts:
            context.close()
    log = store_server.output()
    assert log.count("the class tally's store is not answering") == 1, log
    assert log.count("the class tally's store answers again") == 1, log
