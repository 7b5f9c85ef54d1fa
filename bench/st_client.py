"""A Streamlit session driven the way the browser drives it: over ``/_stcore/stream`` with the ``streamlit`` package's
own protobuf messages (BackMsg out, ForwardMsg in), on the ``websockets`` client that Streamlit itself depends on.

Widgets are found in the deltas the server sends, by the user key at the end of their id or by their label, so the
load test keeps working while the app's layout changes. Like the browser, a session resends the widget values it set,
tells the server which large messages it has cached (the server then sends a reference instead), and reruns a
fragment when the widget it moved lives in one.
"""

from __future__ import annotations

import asyncio
import random
import time
import urllib.request
from http.cookies import SimpleCookie

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.asyncio.client import connect

from bench.harness.triggers import trigger_state
from bench.st_elements import ProtocolError, RunResult, Widget, element_id, user_key

FINAL_STATUSES = {  # a run that another run replaced (FINISHED_EARLY_FOR_RERUN) is not the end of a move
    ForwardMsg.FINISHED_SUCCESSFULLY: "ok",
    ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY: "ok",
    ForwardMsg.FINISHED_WITH_COMPILE_ERROR: "compile error",
}
REPLICA_HEADER = "X-Attnviz-Replica"  # set by deploy/two-replicas.sh's nginx: which replica answered


def _http_get(url: str, cookie: str) -> tuple[str, str]:
    """GET like a browser loading the page: returns (cookies to keep, replica header or "")."""
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(request, timeout=30) as response:
        response.read()
        jar = SimpleCookie()
        for header in response.headers.get_all("Set-Cookie") or []:
            jar.load(header)
        return "; ".join(f"{name}={morsel.value}" for name, morsel in jar.items()), response.headers.get(
            REPLICA_HEADER, ""
        )


class Session:
    """One browser tab. ``await open()`` loads the page; ``await rerun(...)`` makes one move and waits for its end."""

    def __init__(self, base_url: str, *, timeout: float = 30.0, load_timeout: float = 120.0):
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout  # how long a move may take before it counts as an error
        self.load_timeout = load_timeout  # the same for opening the page, which a whole class may do at once
        self.cookie = ""
        self.session_id = ""  # the server's id for this session, kept across reconnects
        self.replicas: list[str] = []  # the replica named by each HTTP answer and websocket handshake, in order
        self.widgets: dict[str, Widget] = {}  # widget id -> Widget, as of the last runs
        self._values: dict[str, WidgetState] = {}  # widget id -> the value this session set, resent every run
        self._triggers: list[WidgetState] = []  # component triggers, sent with the next run only
        self._cache: dict[str, ForwardMsg] = {}  # message hash -> cacheable message, as the browser keeps them
        self._page_hash = ""  # the page the last run showed: a rerun without a page stays on it, as in the browser
        self._socket = None

    # ------------------------------------------------------------------ connection

    async def open(self, *, page: str = "", query: str = "") -> RunResult:
        """Loads ``page`` (its url path; "" for the default page) as a fresh tab does: GET, websocket, first run;
        ``query`` is the address's query string (a share link's ``s=…``)."""
        started = time.perf_counter()
        kept, replica = await asyncio.to_thread(_http_get, f"{self.base_url}/{page}", self.cookie)
        self.cookie = "; ".join(part for part in (self.cookie, kept) if part)
        self._note_replica(replica)
        await self._connect()
        result = await self.rerun(page=page, timeout=self.load_timeout, query=query)
        result.elapsed_ms = (time.perf_counter() - started) * 1000
        return result

    async def reconnect(self) -> RunResult:
        """Drops the websocket and opens a new one asking for the same session, as the browser does after a network
        blip: it waits 250–500 ms, asks /_stcore/health, reconnects and reruns (the Playground has fragments, and
        then Streamlit's frontend reruns). On another replica, or after the server forgot it, the session id changes.
        """
        await self.close()
        await asyncio.sleep(random.uniform(0.25, 0.5))
        _, replica = await asyncio.to_thread(_http_get, f"{self.base_url}/_stcore/health", self.cookie)
        self._note_replica(replica)
        await self._connect()
        return await self.rerun()

    async def resume(self) -> None:
        """A new websocket asking for the same session, with no run: a tab the server dropped, connecting again before
        it sends anything (``reconnect`` is the browser's whole way back, with its wait and its rerun)."""
        await self.close()
        await self._connect()

    async def _connect(self) -> None:
        ws_url = "ws" + self.base_url[len("http") :] + "/_stcore/stream"
        xsrf = SimpleCookie(self.cookie).get("_streamlit_xsrf")
        # The server reads positions: subprotocol, XSRF token, session to resume. An entry may not be empty here, and
        # the XSRF token only matters for logged-in users, so a placeholder keeps the session id in third place.
        protocols = ["streamlit", xsrf.value if xsrf else "no-xsrf", *([self.session_id] if self.session_id else [])]
        self._socket = await connect(
            ws_url,
            subprotocols=protocols,
            additional_headers={"Cookie": self.cookie} if self.cookie else None,
            max_size=None,
            open_timeout=self.timeout,
            ping_interval=None,  # browsers send no websocket pings; a starved server would fail this client's alone
        )
        self._note_replica(self._socket.response.headers.get(REPLICA_HEADER, ""))

    def _note_replica(self, replica: str) -> None:
        if replica:
            self.replicas.append(replica)

    async def close(self) -> None:
        if self._socket is not None:
            await self._socket.close()
            self._socket = None

    # ------------------------------------------------------------------ widgets

    def find(self, **criteria) -> Widget:
        """The widget on the page that matches ``label``, ``kind`` and ``key_part`` (those given)."""
        for widget in self.widgets.values():
            if widget.matches(**criteria):
                return widget
        raise ProtocolError(f"no widget {criteria} on the page; widgets: {sorted(map(user_key, self.widgets))}")

    def set_value(self, widget: Widget, **value) -> None:
        """Sets a widget's value for the next run, e.g. ``bool_value=True`` or ``string_value="..."``."""
        state = WidgetState(id=widget.id, **value)
        self._values[widget.id] = state

    def press(self, button: Widget) -> None:
        """Presses ``button`` with the next run only, as a click does."""
        self._triggers.append(WidgetState(id=button.id, trigger_value=True))

    def trigger(self, component: Widget, event: str, value) -> None:
        """Sends ``value`` as the v2 component's trigger ``event`` with the next run, and only that one, as the
        component's ``setTriggerValue`` does in the browser (the Playground's controls beside its views)."""
        self._triggers.append(trigger_state(component.id, event, value))

    def trigger_raw(self, component: Widget, events: str) -> None:
        """Sends ``events`` as it is, JSON or not, as the v2 component's triggers with the next run: what the
        developer tools can send instead of ``trigger``'s well-formed list."""
        state = trigger_state(component.id, "", None)
        state.json_trigger_value = events
        self._triggers.append(state)

    async def send_raw(self, frame: bytes | str) -> None:
        """Sends one websocket frame as it is (a str goes as a text frame): what the developer tools can send."""
        if self._socket is None:
            raise ProtocolError("the session is not connected")
        await self._socket.send(frame)

    # ------------------------------------------------------------------ runs

    async def rerun(
        self, *, fragment_id: str = "", page: str | None = None, timeout: float | None = None, query: str = ""
    ) -> RunResult:
        """Sends a rerun with every value this session set (for widgets still on the page) and waits until the
        server says the run has finished. The time is from sending to that last message."""
        if self._socket is None:
            raise ProtocolError("the session is not connected")
        message = BackMsg()
        state = message.rerun_script
        state.query_string = query
        state.fragment_id = fragment_id
        if page is not None:
            state.page_name = page
        else:
            state.page_script_hash = self._page_hash
        state.widget_states.widgets.extend([*self._values.values(), *self._triggers])
        self._triggers = []
        state.cached_message_hashes.extend(self._cache)
        started = time.perf_counter()
        await self._socket.send(message.SerializeToString())
        timeout = timeout or self.timeout
        try:
            result = await asyncio.wait_for(self._read_run(fragment_id), timeout)
        except TimeoutError:
            raise ProtocolError(f"no end of run within {timeout:.0f} s") from None
        result.elapsed_ms = (time.perf_counter() - started) * 1000
        return result

    async def _read_run(self, fragment_id: str) -> RunResult:
        result = RunResult(elapsed_ms=0.0, status="")
        seen: dict[str, Widget] = {}
        hashes: set[str] = set()
        while True:
            raw = await self._socket.recv()
            message = ForwardMsg()
            message.ParseFromString(raw)
            result.messages += 1
            result.largest_message = max(result.largest_message, len(raw))
            kind = message.WhichOneof("type")
            if kind == "new_session":
                self.session_id = message.new_session.initialize.session_id or self.session_id
            elif kind == "navigation":
                self._page_hash = message.navigation.page_script_hash
            elif kind in ("delta", "ref_hash"):
                self._take_delta(message, result, seen, hashes)
            elif kind == "script_finished" and message.script_finished in FINAL_STATUSES:
                result.status = FINAL_STATUSES[message.script_finished]
                break
        self._remember(seen, fragment_id, hashes)
        return result

    def _take_delta(self, message: ForwardMsg, result: RunResult, seen: dict, hashes: set) -> None:
        if message.WhichOneof("type") == "ref_hash":
            cached = self._cache.get(message.ref_hash)
            if cached is None:
                raise ProtocolError(f"the server referred to a message this session never cached: {message.ref_hash}")
            delta = cached.delta
            hashes.add(message.ref_hash)
        else:
            delta = message.delta
            if message.metadata.cacheable:
                self._cache[message.hash] = message
                hashes.add(message.hash)
        if delta.WhichOneof("type") != "new_element":
            return
        element = delta.new_element
        kind = element.WhichOneof("type")
        if kind == "exception":
            result.exceptions.append(f"{element.exception.type}: {element.exception.message}")
            return
        if kind == "alert":
            result.alerts.append(element.alert.body)
        if kind == "progress":
            result.progress.append(element.progress.text)
        if kind in ("markdown", "code"):
            result.texts.append(element.markdown.body if kind == "markdown" else element.code.code_text)
        found = element_id(element)
        if found:
            inner = getattr(element, kind)
            seen[found] = Widget(found, kind, getattr(inner, "label", ""), delta.fragment_id, inner)
            result.elements.append(seen[found])

    def _remember(self, seen: dict[str, Widget], fragment_id: str, hashes: set[str]) -> None:
        """After a full run the page is what this run sent; after a fragment run only that fragment was redrawn."""
        if fragment_id:
            self.widgets = {i: w for i, w in self.widgets.items() if w.fragment_id != fragment_id} | seen
            self._cache = {h: m for h, m in self._cache.items() if h in hashes or m.delta.fragment_id != fragment_id}
        else:
            self.widgets = seen
            self._cache = {h: m for h, m in self._cache.items() if h in hashes}
        self._values = {i: v for i, v in self._values.items() if i in self.widgets}
