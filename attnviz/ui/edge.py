"""The app's edge against what a browser should never send: a crafted widget value is refused before it costs work
or prints a traceback, the session gets a plain message, and the server log one short line (a bounded number per
session, never the payload).

What a real browser sends is small and well formed; what the developer tools can send is not. Streamlit decodes each
widget's value (JSON for a table's edits or a component's trigger) before the script sees it, and a value nested
100,000 deep, an integer of 5,000 digits or a value of another widget's type raised inside Streamlit or the app,
whose traceback went to the session and the log whole. So every value is held to the shape an honest browser sends
for its widget: an element's id, at most MAX_WIDGET_VALUE_BYTES, the widget's own value type, a value its decoder
reads (JSON's own recursion limit stops deep nesting after about a kilobyte), and for a table, cells of the tables the
app draws. Whether a value is one the app takes (an option offered, a number in range) is its field's own check, where
the value is used: attnviz.playground.fields for the Playground, ``state.page_setting`` for a guided page's choice. A value that fails is dropped as it arrives, so the widget keeps the value
it had; one first read as its widget is drawn becomes the widget's default. Streamlit's own log lines about messages
it refuses before the app sees them (a frame that is not a message, a fragment that does not exist) become the same
kind of line. ``server.maxMessageSize`` (.streamlit/config.toml) drops a larger message before any of this.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import traceback
from collections import OrderedDict

from streamlit.elements.widgets.data_editor import DataEditorSerde
from streamlit.logger import get_logger
from streamlit.proto.WidgetStates_pb2 import WidgetState, WidgetStates
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.state.common import WidgetMetadata, is_array_value_field_name, is_element_id
from streamlit.runtime.state.session_state import (
    STREAMLIT_INTERNAL_KEY_PREFIX,
    Serialized,
    SessionState,
    Value,
    WStates,
)

from attnviz.core.limits import MAX_CELL_CHARS, MAX_DIM, MAX_TOKENS, MAX_WIDGET_VALUE_BYTES

# The largest value an honest widget sends: every cell of a 128 × 64 table edited, each up to 32 characters, is
# about 390 kB of JSON (README: Reliability).
LOG_LINES = 5  # a session's, or each of Streamlit's lines a minute; then one line saying the rest go unlogged
REFUSED_MESSAGE = "A change the browser sent could not be read, so it was ignored; everything else is as it was."
# Streamlit notes a number input as taking a double_value and a slider a double_array_value; the browser sends a
# whole number as an int_value or int_array_value. Each is the same kind of value.
_KIND = {"int_value": "double_value", "int_array_value": "double_array_value"}
# What decoding a crafted value raises: bad JSON, too deep, too many digits, the wrong shape.
_DECODING_ERRORS = (ValueError, RecursionError, TypeError, AttributeError, IndexError, KeyError, OverflowError)
# Streamlit's own lines about a message it refuses, by logger: how each begins (its text before any value). Every
# line of the websocket handler is about a frame it refused; uvicorn's are checked by where their exception arose.
_STREAMLIT_REFUSALS = {
    "streamlit.web.server.starlette.starlette_websocket": ("",),
    "streamlit.runtime.app_session": ("The fragment with id", 'No handler for "'),
    "streamlit.runtime.state.query_params": ("Ignoring query string",),
    "uvicorn.error": (),
}
_WEBSOCKET_HANDLER = "_websocket_endpoint"  # Streamlit's: an exception out of it is a frame it could not read

log = get_logger("attnviz.edge")  # Streamlit's format and level, beside its own lines
_lock = threading.Lock()
_counts: OrderedDict[str, list] = OrderedDict()  # session or kind -> [lines logged, message to show]; newest last
_MAX_KEPT = 10_000


class Refused(Exception):
    """A value no honest browser sends; the text says why, never what it held."""


def refused(what: str, error: BaseException | str) -> None:
    """Notes a refused value of this session: a plain message for its next run, and a log line (bounded)."""
    context = get_script_run_ctx()
    session = context.session_id if context else "no session"
    reason = str(error) if isinstance(error, (str, Refused)) else type(error).__name__
    _log_bounded(f"session {session}", REFUSED_MESSAGE, "refused %s from session %s: %s", what, session, reason)


def _log_bounded(key: str, message: str | None, line: str, *args) -> None:
    with _lock:
        entry = _counts.pop(key, None) or [0, None]
        entry[0] += 1
        entry[1] = message or entry[1]
        _counts[key] = entry
        while len(_counts) > _MAX_KEPT:
            _counts.popitem(last=False)
        count = entry[0]
    if count <= LOG_LINES:
        log.warning(line, *args)
    if count == LOG_LINES:
        log.warning("%s: further refusals are not logged", key)


def take_refusal() -> str | None:
    """This session's message about a refused value, once."""
    context = get_script_run_ctx()
    if context is None:
        return None
    with _lock:
        entry = _counts.get(f"session {context.session_id}")
        if entry is None:
            return None
        message, entry[1] = entry[1], None
    return message


def _unpacked(state: WidgetState):
    """What a widget's decoder receives for ``state``, unpacked as Streamlit does (1.67 in unpack_widget_state_value,
    1.65, for Python 3.10, inside WStates.__getitem__)."""
    field = state.WhichOneof("value")
    if field is None:  # a cleared value
        return None
    value = getattr(state, field)
    if is_array_value_field_name(field) or field == "string_trigger_value":
        return value.data
    return json.loads(value) if field == "json_value" else value


def _check(state: WidgetState, metadata: WidgetMetadata) -> None:
    """Raises Refused unless ``state`` is a value an honest browser sends for the widget ``metadata`` describes."""
    if (size := state.ByteSize()) > MAX_WIDGET_VALUE_BYTES:
        raise Refused(f"{size:,} bytes, over the limit of {MAX_WIDGET_VALUE_BYTES:,}")
    sent = state.WhichOneof("value")  # None: a cleared value, which every widget reads as its default
    if sent and metadata.value_type and _KIND.get(sent, sent) != _KIND.get(metadata.value_type, metadata.value_type):
        raise Refused(f"a {sent} for a widget that takes a {metadata.value_type}")
    try:
        value = metadata.deserializer(_unpacked(state))
    except _DECODING_ERRORS as error:
        raise Refused(f"{type(error).__name__} while decoding") from None
    if isinstance(getattr(metadata.deserializer, "__self__", None), DataEditorSerde):
        _check_table_edit(value)


def _check_table_edit(edits: dict) -> None:
    """The app's tables have fixed rows, at most MAX_TOKENS × MAX_DIM cells, each text of at most MAX_CELL_CHARS;
    the table itself then refuses a row or column it does not have (attnviz/ui/editors.py)."""
    if edits["added_rows"] or edits["deleted_rows"] or set(edits) - {"edited_rows", "added_rows", "deleted_rows"}:
        raise Refused("rows added to or deleted from a table whose rows are fixed")
    rows = edits["edited_rows"]  # row position (decoded to int) -> {column: text}
    if not all(
        0 <= row < MAX_TOKENS and isinstance(cells, dict) and len(cells) <= MAX_DIM for row, cells in rows.items()
    ):
        raise Refused("edits of more cells than a table has")
    texts = [text for cells in rows.values() for text in cells.values()]
    if not all(text is None or (isinstance(text, str) and len(text) <= MAX_CELL_CHARS) for text in texts):
        raise Refused(f"a cell that is not text of at most {MAX_CELL_CHARS} characters")


def _screened(original):
    """SessionState.set_widgets_from_proto, keeping only the values an honest browser sends: a refused one is as if
    never sent, so its widget keeps the value it had and no callback runs."""

    def set_widgets_from_proto(self: SessionState, widget_states: WidgetStates) -> None:
        kept, refusals = WidgetStates(), []
        for state in widget_states.widgets:
            metadata = self._new_widget_state.widget_metadata.get(state.id)  # None: not drawn yet (read when it is)
            try:
                # An element's id, or a component's trigger (internal): Streamlit takes any other id for a key.
                if not (is_element_id(state.id) or state.id.startswith(STREAMLIT_INTERNAL_KEY_PREFIX)):
                    raise Refused("an id that is not an element's")
                if metadata is not None:
                    _check(state, metadata)
            except Refused as why:
                refusals.append((state.id, why))
                continue
            kept.widgets.append(state)
        if refusals:  # one line a message, however many values it held
            (first, why), more = refusals[0], len(refusals) - 1
            refused(f"a value for {first[:60]!r}" + (f" and {more:,} more" if more else ""), why)
        original(self, kept)

    set_widgets_from_proto.attnviz_edge = True
    return set_widgets_from_proto


def _guarded_getitem(original):
    """WStates.__getitem__, where a value is decoded: one not checked as it arrived (its widget was not drawn yet)
    is checked here, and a refused one is the widget's default."""

    def getitem(self: WStates, key: str):
        stored, metadata = self.states.get(key), self.widget_metadata.get(key)
        if isinstance(stored, Serialized) and metadata is not None:
            try:
                _check(stored.value, metadata)
            except Refused as why:
                value = metadata.deserializer(None)
                self.states[key] = Value(value)
                refused(f"a value for {key[:60]!r}", why)
                return value
        return original(self, key)

    getitem.attnviz_edge = True
    return getitem


class _StreamlitRefusals(logging.Filter):
    """Turns Streamlit's lines about a message it refused into one short line each (LOG_LINES a minute of each line):
    no traceback, no payload. Its other lines pass unchanged."""

    def filter(self, record: logging.LogRecord) -> bool:
        said = str(record.msg).split("%")[0].strip()
        error = record.exc_info[1] if record.exc_info else None
        in_handler = error is not None and any(
            frame.f_code.co_name == _WEBSOCKET_HANDLER for frame, _ in traceback.walk_tb(error.__traceback__)
        )
        if not in_handler and not any(said.startswith(p) for p in _STREAMLIT_REFUSALS[record.name]):
            return True
        what = said[:80] + (f" ({type(error).__name__})" if error else "")
        minute = int(time.monotonic() // 60)
        _log_bounded(f"{what[:40]}…, minute {minute}", None, "refused a message from a browser: %s", what)
        return False


def guard_the_edge() -> None:
    """Puts the checks in front of Streamlit's reading of every widget value and its refusals' log lines (once a
    process)."""
    if not getattr(SessionState.set_widgets_from_proto, "attnviz_edge", False):
        SessionState.set_widgets_from_proto = _screened(SessionState.set_widgets_from_proto)
    if not getattr(WStates.__getitem__, "attnviz_edge", False):
        WStates.__getitem__ = _guarded_getitem(WStates.__getitem__)
    for name in _STREAMLIT_REFUSALS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, _StreamlitRefusals) for f in logger.filters):
            logger.addFilter(_StreamlitRefusals())
