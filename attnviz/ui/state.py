"""The one owner of Streamlit's session state: every key the app keeps, and how widgets are bound to them.

Pages never touch ``st.session_state``. They read the Playground state with ``playground()``, change it with
``set_playground()``, and bind a widget with the ``**kwargs`` one of these functions returns:

- ``playground_control(field)``: a Playground widget showing one field of ``PlaygroundState``; a change is a move.
- ``page_setting(page, name, default)``: a guided page's own slider or input; it survives a visit to another page.
- ``table_key(name)``: an editable table's key, renewed whenever its data is replaced, so stale edits never land.

Every widget is reset one way: the state it shows is written back into its key (``_show``) before it is drawn.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from random import SystemRandom
from typing import Any

import streamlit as st
from streamlit import runtime
from streamlit.runtime.scriptrunner import get_script_run_ctx

from attnviz.classroom import link_values
from attnviz.core.errors import AttnvizInputError
from attnviz.core.limits import MAX_SEED
from attnviz.core.playground_state import MATRICES, PlaygroundState, apply_edits, column_names, randomise
from attnviz.lessons.playground import OPENING, undone_line
from attnviz.pages import PAGES
from attnviz.train import background

_PLAYGROUND = "playground"  # the PlaygroundState
_PREVIOUS = "playground.previous"  # the state before the last change: what the orange boxes compare against
_UNDO = "playground.undo"  # the states before each move, latest last (at most MAX_UNDO): what Undo steps back to
_MESSAGES = "messages"  # plain-words messages from the last move, shown once on the next run
_TABLE_MESSAGES = "table_messages"  # why typed cells were refused, shown once above the Q, K and V tables
_CONFIRMATIONS = "confirmations"  # what the last move did, when it is not to be seen at a glance (Undo, Randomise)
_TABLE_VERSION = "table_version"  # part of every editable table's key; bumped when tables get new data
_LINK_CHECKED = "link_checked"  # the share link in the address is applied once, on a session's first run
_PRESENTER = "presenter"  # presenter mode (a toggle drawn by app.py on every page)
_TABS = "tabs."  # prefix of a page's tab bar key: tabs.<page>, the open tab's name
_OUTSIDE_VIEWS = "playground.outside_views"  # the PlaygroundState the page around the views was last drawn from
_VIEWS = "playground.views"  # the attention views component: its controls' changes arrive as triggers, by field
_CONTROL = "pg."  # prefix of the Playground's widget keys: pg.<field>
_SETTING = "setting."  # prefix of the guided pages' widget keys: setting.<page>.<name>
_TRAINING_RUN = "training.run"  # Watch it learn: the session's run in the training worker, while it trains or waits
_TRAINING_RESULT = "training.result"  # Watch it learn: the last run's TrainResult

# How a Playground widget's value becomes a field value. A value that fails here is ignored: the state is kept and the
# widget redrawn. (The controls beside the views are not widgets: _VIEW_CHECKS checks theirs.)
_seeds = SystemRandom()  # Randomise's new seeds
MAX_UNDO = 50  # moves Undo can step back through; older ones are forgotten

_PARSERS: dict[str, Callable[[Any], Any]] = {
    "d_k": int,
    "d_v": int,
    "seed": int,
}


# ----------------------------------------------------------------------------- key names (tests use them too)


def control_key(field: str) -> str:
    return _CONTROL + field


def setting_key(page: str, name: str) -> str:
    return f"{_SETTING}{page}.{name}"


def table_key_at(name: str, version: int) -> str:
    return f"table.{name}.{version}"


# ----------------------------------------------------------------------------- the Playground state


def playground() -> PlaygroundState:
    """The current Playground state (the defaults on a session's first run), with the cells typed into the Q, K
    and V tables already in it: whatever a page draws, it draws the numbers the user typed."""
    if _PLAYGROUND not in st.session_state:
        st.session_state[_PLAYGROUND] = OPENING
    current = st.session_state[_PLAYGROUND]
    typed = {matrix: _typed_in(current, matrix) for matrix in MATRICES}
    if any(typed.values()):
        new, problems = current, []
        for matrix, cells in typed.items():
            new, refused = apply_edits(new, matrix, cells)
            problems += refused
        if new != current:
            set_playground(new)
        if problems:
            st.session_state[_TABLE_MESSAGES] = problems  # said at the tables, where the cell was typed
            renew_tables()  # redraw from the state, without the refused text
    return st.session_state[_PLAYGROUND]


def _typed_in(current: PlaygroundState, matrix: str) -> dict:
    width = current.d_v if matrix == "V" else current.d_k
    return typed_cells(table_key(matrix), column_names(matrix, width))


def set_playground(state: PlaygroundState, *messages: str | None, undoable: bool = True) -> None:
    """Makes ``state`` current; every Playground widget and table shows it on the next draw. The state it replaces
    is the one Undo goes back to (unless ``undoable`` is False: an Undo itself, or a share link opening)."""
    old = st.session_state.get(_PLAYGROUND, OPENING)
    if old != state:
        st.session_state[_PREVIOUS] = old
        if undoable:
            st.session_state[_UNDO] = [*st.session_state.get(_UNDO, [])[-MAX_UNDO + 1 :], old]
    st.session_state[_PLAYGROUND] = state
    if _replaces_tables(old, state):
        st.session_state[_TABLE_VERSION] = st.session_state.get(_TABLE_VERSION, 0) + 1
    _show(state)
    say(*messages)


def start_from(state: PlaygroundState, *messages: str | None) -> None:
    """A share link's state: current, with nothing before it to undo or to compare with."""
    set_playground(state, *messages, undoable=False)
    st.session_state.pop(_UNDO, None)
    st.session_state.pop(_PREVIOUS, None)


def previous_playground() -> PlaygroundState | None:
    return st.session_state.get(_PREVIOUS)


def can_undo() -> bool:
    return bool(st.session_state.get(_UNDO))


def undo() -> None:
    """A button callback: back to the state before the last move, saying what came back."""
    if not can_undo():
        return
    current = playground()
    earlier = st.session_state[_UNDO].pop()
    set_playground(earlier, undoable=False)
    confirm(undone_line(current, earlier))


def randomise_again() -> None:
    """A button callback: fresh random vectors from a new seed, said on screen (an example or edits are replaced, and
    can be undone). The same seed again would change nothing on a fresh page and wipe an edit silently after one."""
    current = playground()
    seed = next(s for s in iter(lambda: _seeds.randint(0, MAX_SEED), None) if s != current.seed)
    set_playground(randomise(current, seed))
    confirm(f"New random vectors from seed {seed}. Undo brings back the ones before.")


def views_key() -> str:
    return _VIEWS


def views_callbacks(fields: list[str]) -> dict:
    """The callbacks of the controls drawn inside the views component (attnviz.ui.attention_grid), one a field:
    ``on_<field>_change``. Each control sends its field's new value as a trigger of that name; a click on a view's
    cell or row label sends "focus" too."""
    return {
        f"on_{field}_change": _VIEW_ACTIONS[field] if field in _VIEW_ACTIONS else partial(_on_view_control, field)
        for field in {*fields, "focus"}
    }


def _on_view_control(field: str) -> None:
    """A value from the browser, checked as a share link's is. One that fails (a focus row from before the sentence
    changed, say) is ignored, and every control shows the state again."""
    current = playground()
    try:
        value = _VIEW_CHECKS[field](st.session_state.get(_VIEWS, {}).get(field), current.n)
    except AttnvizInputError:
        set_playground(current)
        return
    set_playground(replace(current, **{field: value}))


# How each control in the views checks the value it sends: (value, number of tokens) → the field's value.
_VIEW_CHECKS: dict[str, Callable[[Any, int], Any]] = {
    "causal": lambda value, n: link_values.boolean(value, "the causal setting"),
    "scale": lambda value, n: link_values.boolean(value, "the scaling setting"),
    "temperature": lambda value, n: link_values.temperature(value),
    "blocked_keys": lambda value, n: tuple(sorted(link_values.blocked_keys(value, n))),
    "focus": lambda value, n: link_values.whole(value, "the focus token", 0, n - 1),
}
_VIEW_ACTIONS = {"undo": undo}


def clicked_item(chart_key: str) -> tuple[int, int] | None:
    """(series index, data index) of the item just clicked in the ECharts chart ``chart_key``, or None. The selection
    arrives from the browser as sent, so anything but positions is no click (an index past the chart's items is the
    caller's to refuse)."""
    selected = st.session_state.get(chart_key, {}).get("selection", {}).get("selected")
    for group in selected if isinstance(selected, list) else []:
        if not isinstance(group, dict):
            continue
        series, indices = group.get("series_index"), group.get("data_indices")
        if _position(series) and isinstance(indices, list) and indices and _position(indices[0]):
            return series, indices[0]
    return None


def _position(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _replaces_tables(old: PlaygroundState, new: PlaygroundState) -> bool:
    """Whether the tables' data changed other than by the user's typing (which the tables already show)."""
    data = ("sentence", "example", "seed", "d_k", "d_v", "imported", "imported_tokens")
    return any(getattr(old, f) != getattr(new, f) for f in data) or not set(old.edits) <= set(new.edits)


def _show(state: PlaygroundState) -> None:
    for key in [k for k in st.session_state if str(k).startswith(_CONTROL)]:
        field = key[len(_CONTROL) :]
        value = getattr(state, field)
        if st.session_state[key] != value:  # only what moved: a widget already drawn this run stays untouched
            st.session_state[key] = value


def playground_control(field: str, move: Callable[..., PlaygroundState | tuple] | None = None, **args) -> dict:
    """Keyword arguments that bind a widget to ``field`` of the Playground state.

    A change calls ``move(state, value, **args)`` (by default, the field is simply set). A move may return the new
    state, or (state, message); an ``AttnvizInputError`` leaves the state as it was and shows its message.
    """
    key = control_key(field)
    current = playground()
    if key not in st.session_state:
        st.session_state[key] = getattr(current, field)
    return {"key": key, "on_change": _on_control, "args": (field, move, args)}


def _on_control(field: str, move, args: dict) -> None:
    state = playground()
    try:
        value = _PARSERS.get(field, lambda v: v)(st.session_state[control_key(field)])
    except (TypeError, ValueError):  # a value from before the widget's options changed: only this is ignored
        set_playground(state)  # puts the widget back where the state is
        return
    try:  # an error of any other kind inside the move is a bug: shown, never taken for a stale value
        new = move(state, value, **args) if move else replace(state, **{field: value})
    except AttnvizInputError as error:
        set_playground(state, str(error))
        return
    new, message = new if isinstance(new, tuple) else (new, None)
    set_playground(new, message)


def say(*messages: str | None) -> None:
    st.session_state[_MESSAGES] = [m for m in messages if m]


def take_messages() -> list[str]:
    """The messages of the last move, once."""
    return st.session_state.pop(_MESSAGES, [])


def take_table_messages() -> list[str]:
    """Why the cells just typed were refused, once."""
    return st.session_state.pop(_TABLE_MESSAGES, [])


def confirm(message: str) -> None:
    st.session_state[_CONFIRMATIONS] = [message]


def take_confirmations() -> list[str]:
    """What the last move did, once (shown as a confirmation, not a warning)."""
    return st.session_state.pop(_CONFIRMATIONS, [])


# ----------------------------------------------------------------------------- editable tables


def table_key(name: str) -> str:
    return table_key_at(name, st.session_state.get(_TABLE_VERSION, 0))


def renew_tables() -> None:
    """Draws every table afresh from its data (after a refused cell, so the refused text disappears)."""
    st.session_state[_TABLE_VERSION] = st.session_state.get(_TABLE_VERSION, 0) + 1


def typed_cells(key: str, column_names: list[str]) -> dict[tuple[int, int], Any]:
    """What the user typed into the table ``key`` so far, by (row, column index)."""
    pending = st.session_state.get(key) or {}
    column_of = {name: j for j, name in enumerate(column_names)}
    return {
        (int(row), column_of[name]): value
        for row, cells in (pending.get("edited_rows") or {}).items()
        if str(row).isdigit()
        for name, value in cells.items()
        if name in column_of
    }


def lazy_tabs(page: str) -> dict:
    """Keyword arguments for ``st.tabs`` that run only the open tab's contents (each tab's ``.open`` says which), so
    a move does not rebuild tables hidden behind another tab; switching tabs is a rerun."""
    return {"key": tabs_key(page), "on_change": "rerun"}


def tabs_key(page: str) -> str:
    return f"{_TABS}{page}"


def open_tab(page: str, default: str) -> str:
    return st.session_state.get(tabs_key(page)) or default


def note_full_run() -> None:
    """Called by the Playground on every full run, before its views: what is drawn outside them shows this state."""
    st.session_state[_OUTSIDE_VIEWS] = playground()


def outdated_outside_views(current: PlaygroundState, *, open_tab_follows_views: bool) -> bool:
    """True in a run of the Playground's views alone (a fragment run) that made ``current`` the state, after a change
    that something outside the views shows: any change when the open tab follows the views, else new table data or a
    sentence (Undo) or a message."""
    drawn = st.session_state.get(_OUTSIDE_VIEWS)
    if drawn is None or drawn == current:
        return False
    said = any(st.session_state.get(key) for key in (_MESSAGES, _CONFIRMATIONS, _TABLE_MESSAGES))
    return open_tab_follows_views or _replaces_tables(drawn, current) or bool(said)


# ----------------------------------------------------------------------------- guided pages' settings


def page_setting(page: str, name: str, default: Any, *, options=None) -> dict:
    """Keyword arguments that bind a guided page's widget to a setting that outlives visits to other pages.

    With ``options`` (a selector's choices), a kept value that is no longer a choice falls back to ``default``."""
    key = setting_key(page, name)
    if key not in st.session_state or (options is not None and st.session_state[key] not in options):
        st.session_state[key] = default
    return {"key": key}


def setting_value(page: str, name: str, default: Any = None) -> Any:
    return st.session_state.get(setting_key(page, name), default)


def set_setting(page: str, name: str, value: Any) -> None:
    """For button callbacks (Back/Next, Reset) that change a setting."""
    st.session_state[setting_key(page, name)] = value


def keep_page_settings() -> None:
    """Streamlit forgets a widget's value once its page is not drawn. Writing each guided-page setting back as plain
    session state on every run keeps a student's settings while they visit other pages."""
    keeping = tuple(f"{_SETTING}{page.name}." for page in PAGES if page.keeps_settings)
    for key in [k for k in st.session_state if str(k).startswith(keeping)]:
        st.session_state[key] = st.session_state[key]


# ----------------------------------------------------------------------------- Watch it learn's run


def training_owner() -> background.Owner:
    """This session as the owner of its training run: present while its browser is connected to this server."""
    context = get_script_run_ctx()
    if context is None or not runtime.exists():  # AppTest: no server, no connection to lose
        return background.Owner()
    session_id, server = context.session_id, runtime.get_instance()
    return background.Owner(session_id, present=lambda: server.is_active_session(session_id))


def training_run():
    """The session's run in the training worker (an ``attnviz.train.background.BackgroundRun``), or None."""
    return st.session_state.get(_TRAINING_RUN)


def set_training_run(run) -> None:
    st.session_state[_TRAINING_RUN] = run


def training_result():
    """The session's last ``TrainResult`` (finished or stopped), or None."""
    return st.session_state.get(_TRAINING_RESULT)


def set_training_result(result) -> None:
    st.session_state[_TRAINING_RESULT] = result


# ----------------------------------------------------------------------------- session flags


def first_run() -> bool:
    """True once per session: on the run that should apply a share link from the address."""
    if st.session_state.get(_LINK_CHECKED):
        return False
    st.session_state[_LINK_CHECKED] = True
    return True


def presenter_key() -> str:
    return _PRESENTER


def presenting() -> bool:
    return bool(st.session_state.get(_PRESENTER, False))
