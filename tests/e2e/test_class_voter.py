"""One answer a browser, however late the browser's own id reaches the server. The page keeps a random id
in localStorage and sends it once it is drawn; on a slow phone the first answer can reach the server before it. That
answer used to be counted under the session's id, and the same phone, reloaded, counted again under the browser's.

The test holds the browser's message that carries the id (Playwright's WebSocket route, as a slow network would)
until the answer's run is over: a run gate (ATTNVIZ_RUN_GATE) cannot order them, as Streamlit runs two requests that
arrive during one run together. On the process's own tally and on a Redis store."""

from __future__ import annotations

import re
import time

import pytest

from attnviz.ui.class_tally import URL_SETTING
from tests.e2e.conftest import quiet_server
from tests.e2e.test_class_join import BARS_JS, PHONE, PROJECTOR, answer, ask_the_class, phone_says
from tests.support.live import open_app_page, wait_for_app

VOTER_ID = re.compile(rb"[0-9a-f]{32}")


@pytest.fixture(params=["memory", "redis"])
def class_server(request, browser_executable):
    if request.param == "memory":
        yield request.getfixturevalue("server")
    else:
        yield from quiet_server({URL_SETTING: request.getfixturevalue("redis_server").url})


class HeldId:
    """Holds the page's messages to the server that carry the browser's id, until ``release()``."""

    def __init__(self, page) -> None:
        self.holding, self.held = True, []
        page.route_web_socket(re.compile(r"/_stcore/stream$"), self._route)

    def _route(self, socket) -> None:
        server = socket.connect_to_server()
        socket.on_message(lambda message: self._pass(server, message))

    def _pass(self, server, message) -> None:
        carries_id = isinstance(message, bytes) and b"browser_voter" in message and VOTER_ID.search(message)
        if self.holding and carries_id:
            self.held.append((server, message))
        else:
            server.send(message)

    def wait_until_held(self, page, timeout_s: float = 60) -> None:
        deadline = time.monotonic() + timeout_s
        while not self.held:
            assert time.monotonic() < deadline, "the page never sent the browser's id"
            page.wait_for_timeout(20)  # Playwright hands the route its messages while the test waits in a call

    def release(self) -> None:
        self.holding = False
        for server, message in self.held:
            server.send(message)


def test_an_answer_that_reaches_the_server_before_the_browsers_id_is_counted_once_after_a_reload(browser, class_server):
    contexts = [browser.new_context(viewport=PROJECTOR), browser.new_context(viewport=PHONE)]
    try:
        teacher, phone = (context.new_page() for context in contexts)
        code, address = ask_the_class(teacher, class_server.url)
        late_id = HeldId(phone)
        open_app_page(phone, address)
        late_id.wait_until_held(phone)
        answer(phone, 10)  # before the server has the browser's id
        wait_for_app(phone)
        late_id.release()
        phone_says(phone, f"Counted for the class question {code}: 10: amazing.")
        phone.reload()  # a new session, the same browser
        wait_for_app(phone)
        answer(phone, 5)
        phone_says(phone, f"Counted for the class question {code}: 5: ,.")
        teacher.wait_for_function(f"() => ({BARS_JS})()[5] === 1", timeout=30_000)  # refreshed every 2 s
        bars = teacher.evaluate(BARS_JS)
        assert (sum(bars), bars[5]) == (1, 1), bars  # one phone, its last answer
    finally:
        for context in contexts:
            context.close()
