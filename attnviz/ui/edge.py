"""The app's edge against values a browser should never send: a crafted widget value is refused before it costs work
or prints a traceback, the session gets a plain message, and the server log one short line (a bounded number per
session, never the payload).

What a real browser sends is small and well formed; what the developer tools can send is not. Streamlit decodes each
widget's value (JSON for a table's edits or a component's trigger) before the script runs, and a value nested
100,000 deep, an integer of 5,000 digits or text that is not JSON raises inside Streamlit, whose traceback goes to
the session and the log whole. So every widget value is first held to a size limit, then decoded under a guard: a
value that is too large or fails to decode is replaced by the widget's default (a table: no new edits), as if it
had never been sent. ``server.maxMessageSize`` (.streamlit/config.toml) drops a larger message before any of this.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict

from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.state.session_state import Serialized, Value, WStates

# The largest value an honest widget sends: every cell of a 128 × 64 table edited, each up to 32 characters, is
# about 390 kB of JSON (README: Reliability).
MAX_WIDGET_VALUE_BYTES = 512_000
LOG_LINES_PER_SESSION = 5  # then one line saying the rest of this session's refusals go unlogged
REFUSED_MESSAGE = "A change the browser sent could not be read, so it was ignored; everything else is as it was."
# What decoding a crafted value raises: bad JSON, too deep, too many digits, the wrong shape. (KeyError is not here:
# WStates raises it to say "no such widget".)
_DECODING_ERRORS = (ValueError, RecursionError, TypeError, AttributeError, IndexError, OverflowError)

log = logging.getLogger("attnviz.edge")
_lock = threading.Lock()
_sessions: OrderedDict[str, list] = OrderedDict()  # session id -> [refusals logged, message to show]; newest last
_MAX_SESSIONS_KEPT = 10_000


def refused(what: str, error: BaseException | str) -> None:
    """Notes a refused value of this session: a plain message for its next run, and a log line (bounded)."""
    context = get_script_run_ctx()
    session = context.session_id if context else "no session"
    reason = error if isinstance(error, str) else type(error).__name__
    with _lock:
        entry = _sessions.pop(session, None) or [0, None]
        entry[1] = REFUSED_MESSAGE
        _sessions[session] = entry
        while len(_sessions) > _MAX_SESSIONS_KEPT:
            _sessions.popitem(last=False)
        entry[0] += 1
        count = entry[0]
    if count <= LOG_LINES_PER_SESSION:
        log.warning("refused a value for %s from session %s: %s", what, session, reason)
    if count == LOG_LINES_PER_SESSION:
        log.warning("session %s: further refused values are not logged", session)


def take_refusal() -> str | None:
    """This session's message about a refused value, once."""
    context = get_script_run_ctx()
    if context is None:
        return None
    with _lock:
        entry = _sessions.get(context.session_id)
        if entry is None:
            return None
        message, entry[1] = entry[1], None
    return message


def _guarded_getitem(original):
    def getitem(self: WStates, key: str):
        stored = self.states.get(key)
        metadata = self.widget_metadata.get(key)
        if isinstance(stored, Serialized) and metadata is not None:
            size = stored.value.ByteSize()
            if size > MAX_WIDGET_VALUE_BYTES:
                return _default(self, key, metadata, f"{size:,} bytes, over the limit of {MAX_WIDGET_VALUE_BYTES:,}")
        try:
            return original(self, key)
        except _DECODING_ERRORS as error:
            return _default(self, key, metadata, error)

    getitem.attnviz_edge = True
    return getitem


def _default(states: WStates, key: str, metadata, why) -> object:
    value = metadata.deserializer(None)
    states.states[key] = Value(value)
    refused(f"widget {key}", why)
    return value


def guard_widget_values() -> None:
    """Puts the guard in front of Streamlit's decoding of every widget value (once a process)."""
    if not getattr(WStates.__getitem__, "attnviz_edge", False):
        WStates.__getitem__ = _guarded_getitem(WStates.__getitem__)
