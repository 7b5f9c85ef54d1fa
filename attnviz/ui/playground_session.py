"""The Playground's session: its state, and the steps that change it, each explicit.

- ``begin`` and ``take_typed_cells``: the router's steps on every run, before any page reads the state: the first
  screen on a session's first run, then the cells typed into the Q, K and V tables since the last run, made a move;
- ``set_playground`` (a move), ``start_from`` (a share link), ``undo``, ``randomise_again``: what changes the state;
- ``playground``, ``previous_playground``, ``can_undo``: getters, which never write;
- ``playground_control`` and ``views_callbacks``: how a widget or a control beside the views makes a move.

The keys it keeps are in ``attnviz.ui.state``'s registry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from random import SystemRandom
from typing import Any

import streamlit as st

from attnviz.classroom.controls import ACTIONS, CONTROLS, set_control
from attnviz.core.errors import AttnvizInputError
from attnviz.core.limits import MAX_SEED, MAX_UNDO
from attnviz.core.playground_state import MATRICES, PlaygroundState, apply_edits, column_names, randomise
from attnviz.lessons import predictions
from attnviz.lessons.playground import OPENING, dropped_line, undone_line
from attnviz.ui.state import (
    CONFIRMATIONS,
    CONTROL,
    MESSAGES,
    OUTSIDE_VIEWS,
    PICKS,
    PLAYGROUND,
    PREDICTION,
    PREVIOUS,
    TABLE_MESSAGES,
    TABLE_VERSION,
    UNDO,
    VIEWS,
    confirm,
    control_key,
    name_voter,
    renew_tables,
    say,
    table_key,
    typed_cells,
)

# How a Playground widget's value becomes a field value. A value that fails here is ignored: the state is kept and the
# widget redrawn. (The controls beside the views are not widgets: attnviz.classroom.controls.set_control checks theirs.)
_seeds = SystemRandom()  # Randomise's new seeds

_PARSERS: dict[str, Callable[[Any], Any]] = {
    "d_k": int,
    "d_v": int,
    "seed": int,
}


def playground() -> PlaygroundState:
    """The current Playground state (the first screen's on a session's first run). Reads only: the cells typed into
    the Q, K and V tables join it in ``take_typed_cells``, which the router calls before every page."""
    return st.session_state.get(PLAYGROUND, OPENING)


def begin() -> None:
    """The router's first step on a session's first run: the Playground starts on its first screen (a share link,
    opened next, replaces it)."""
    if PLAYGROUND not in st.session_state:
        st.session_state[PLAYGROUND] = OPENING
    name_voter()


def take_typed_cells() -> None:
    """Merges the cells typed into the Q, K and V tables since the last run into the state (a move, so Undo takes it
    back). A refused cell keeps its old value, its message is said at the tables, and they are drawn afresh."""
    current = playground()
    typed = {matrix: _typed_in(current, matrix) for matrix in MATRICES}
    if not any(typed.values()):
        return
    new, problems = current, []
    for matrix, cells in typed.items():
        new, refused = apply_edits(new, matrix, cells)
        problems += refused
    if new != current:
        set_playground(new, typed=True)
    if problems:
        st.session_state[TABLE_MESSAGES] = problems  # said at the tables, where the cell was typed
        renew_tables()  # redraw from the state, without the refused text


def _typed_in(current: PlaygroundState, matrix: str) -> dict:
    width = current.d_v if matrix == "V" else current.d_k
    return typed_cells(table_key(matrix), column_names(matrix, width))


def set_playground(state: PlaygroundState, *messages: str | None, undoable: bool = True, typed: bool = False) -> None:
    """Makes ``state`` current; every Playground widget and table shows it on the next draw. The state it replaces
    is the one Undo goes back to (unless ``undoable`` is False: an Undo itself, or a share link opening). ``typed``:
    the move is what the tables already show, so they are not drawn afresh (which would drop a cell being typed)."""
    old = st.session_state.get(PLAYGROUND, OPENING)
    if old != state:
        st.session_state[PREVIOUS] = old
        if undoable:
            st.session_state[UNDO] = [*st.session_state.get(UNDO, [])[-MAX_UNDO + 1 :], old]
    st.session_state[PLAYGROUND] = state
    if not typed and _replaces_tables(old, state):
        st.session_state[TABLE_VERSION] = st.session_state.get(TABLE_VERSION, 0) + 1
    _show(state)
    say(*messages)


def set_up(state: PlaygroundState) -> None:
    """A fresh start that is still a move (a challenge's starting state): Undo takes it back, but the views compare it
    with nothing, as it is no change to count or box."""
    set_playground(state)
    st.session_state.pop(PREVIOUS, None)


def start_from(state: PlaygroundState, *messages: str | None) -> None:
    """A share link's state: current, with nothing before it to undo or to compare with."""
    set_playground(state, *messages, undoable=False)
    st.session_state.pop(UNDO, None)
    st.session_state.pop(PREVIOUS, None)


def previous_playground() -> PlaygroundState | None:
    return st.session_state.get(PREVIOUS)


def can_undo() -> bool:
    return bool(st.session_state.get(UNDO))


def undo() -> None:
    """A button callback: back to the state before the last move, saying what came back."""
    if not can_undo():
        return
    current = playground()
    earlier = st.session_state[UNDO].pop()
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
    return VIEWS


def views_callbacks() -> dict:
    """The callbacks of the controls drawn inside the views component (attnviz.ui.attention_grid), one a field of
    attnviz.classroom.controls and one an action: ``on_<name>_change``. Each control sends its field's new value as
    a trigger of that name; a click on a view's cell or row label sends "focus" too."""
    return (
        {f"on_{field}_change": partial(_on_view_control, field) for field in CONTROLS}
        | {f"on_{action}_change": _VIEW_ACTIONS[action] for action in ACTIONS}
        | {"on_guess_change": _on_guess}
    )


def predicts() -> bool:
    """Whether the Playground is in predict mode: the guided pages ask first too."""
    return bool(playground().predict)


def predicted() -> tuple[int, PlaygroundState] | None:
    """In predict mode, once the student has clicked a prediction for the state shown now: (the prediction, the state
    it was asked on, which the state shown is or follows by the change the question asked about). None until then:
    the weights and outputs stay covered. Any change asks again."""
    made = st.session_state.get(PREDICTION)
    return (made[1], made[2]) if made is not None and made[0] == playground() else None


def picks() -> tuple[int, ...]:
    """The keys clicked so far for the mask question asked now (any change starts the set again)."""
    kept = st.session_state.get(PICKS)
    return kept[1] if kept is not None and kept[0] == playground() else ()


def last_prediction() -> tuple[int, PlaygroundState] | None:
    """The student's last prediction, whatever is shown now: (the prediction, the state it was asked on), or None."""
    made = st.session_state.get(PREDICTION)
    return None if made is None else (made[1], made[2])


def _on_guess() -> None:
    """A click on a covered view (trigger "guess": ``{"row": i, "col": j}``, or ``{"choice": k}`` on its buttons).
    What it predicts is kept (the mask question's clicks pick keys until its Check); the change the question asks
    about (if any) is made, so the reveal shows its effect. Anything else is no click."""
    current = playground()
    sent = st.session_state.get(VIEWS, {}).get("guess")
    if (keys := predictions.picked(current, sent, picks())) is not None:
        st.session_state[PICKS] = (current, keys)
        return
    guess = predictions.guess_of(current, sent, picks())
    if not current.predict or guess is None:
        return
    after = predictions.outcome(current)
    if after != current:
        set_playground(after)
    st.session_state[PREDICTION] = (after, guess, current)  # a class's answer follows it (attnviz.ui.class_join)


def _on_view_control(field: str) -> None:
    """A value from the browser, checked as a share link's is. One that fails (a focus row from before the sentence
    changed, say) is ignored, and every control shows the state again."""
    current = playground()
    try:
        new = set_control(current, field, st.session_state.get(VIEWS, {}).get(field))
    except AttnvizInputError:
        new = current
    set_playground(new)


_VIEW_ACTIONS = {"undo": undo}


def _replaces_tables(old: PlaygroundState, new: PlaygroundState) -> bool:
    """Whether the tables' data changed other than by the user's typing (which the tables already show)."""
    data = ("sentence", "source", "seed", "d_k", "d_v", "model_tokens")
    return any(getattr(old, f) != getattr(new, f) for f in data) or not set(old.edits) <= set(new.edits)


def _show(state: PlaygroundState) -> None:
    for key in [k for k in st.session_state if str(k).startswith(CONTROL)]:
        field = key[len(CONTROL) :]
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
    set_playground(new, message, dropped_line(state, new))


def note_full_run() -> None:
    """Called by the Playground on every full run, before its views: what is drawn outside them shows this state."""
    st.session_state[OUTSIDE_VIEWS] = playground()


def outdated_outside_views(current: PlaygroundState, *, open_tab_follows_views: bool) -> bool:
    """True in a run of the Playground's views alone (a fragment run) that made ``current`` the state, after a change
    that something outside the views shows: any change when the open tab follows the views, else new table data or a
    sentence (Undo) or a message."""
    drawn = st.session_state.get(OUTSIDE_VIEWS)
    if drawn is None or drawn == current:
        return False
    said = any(st.session_state.get(key) for key in (MESSAGES, CONFIRMATIONS, TABLE_MESSAGES))
    return open_tab_follows_views or _replaces_tables(drawn, current) or bool(said)
