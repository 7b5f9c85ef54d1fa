"""The Playground's session in Streamlit: the host of attnviz.playground.session (plain Python, kept whole under this
module's one key, ``PLAYGROUND``), and the Streamlit parts around it: the widgets beside the tables, and what a move says
on the page.

- ``begin``: the router's step on a session's first run, before any page reads the state: the first screen;
- ``set_playground`` (a move), ``set_up``, ``start_from`` (a share link), ``undo``, ``randomise_again``,
  ``on_views_event`` (the one handler of the views' controls and clicks, and of what is typed into the Q, K and V
  tables): what changes the session;
- ``current`` and ``playground``: getters, which never write;
- ``playground_control``: how a widget beside the tables makes a move (the field's own, attnviz.playground.controls).
"""

from __future__ import annotations

from collections.abc import Callable
from random import SystemRandom
from typing import Any

import streamlit as st

from attnviz.core.errors import AttnvizInputError
from attnviz.core.limits import MAX_SEED
from attnviz.core.playground_state import PlaygroundState, randomise
from attnviz.lessons.app_words import randomised
from attnviz.lessons.playground import dropped_line
from attnviz.playground.controls import set_field
from attnviz.playground.session import Session
from attnviz.ui import state as store
from attnviz.ui.state import CONTROL, confirm, control_key, name_voter, say

# How a Playground widget's value becomes a field's value as sent. A value that fails here is stale (from before the
# widget's options changed) and ignored: the state is kept and the widget redrawn. attnviz.playground.controls checks it.
PLAYGROUND = "playground"  # the session's one key in st.session_state: state, undo, predictions
_seeds = SystemRandom()  # Randomise's new seeds

_PARSERS: dict[str, Callable[[Any], Any]] = {
    "d_k": int,
    "d_v": int,
    "seed": int,
}


def current() -> Session:
    """The Playground's session (a fresh one, on the first screen, before the router's first step keeps it)."""
    return st.session_state.get(PLAYGROUND) or Session()


def keep(session: Session) -> None:
    """Keeps ``session`` whole under the one key: no more than this (``_keep`` shows a move too)."""
    st.session_state[PLAYGROUND] = session


def playground() -> PlaygroundState:
    """The current Playground state (the first screen's on a session's first run). Reads only."""
    return current().state


def begin() -> None:
    """The router's first step on a session's first run: the Playground starts on its first screen (a share link,
    opened next, replaces it)."""
    keep(current())
    name_voter()


def set_playground(state: PlaygroundState, *messages: str | None) -> None:
    """Makes ``state`` current, a move Undo takes back; every Playground widget and table shows it on the next draw."""
    _keep(current().moved(state, *messages))


def set_up(state: PlaygroundState) -> None:
    """A challenge's starting state: a move, compared with nothing (attnviz.playground.session.Session.set_up)."""
    _keep(current().set_up(state))


def start_from(state: PlaygroundState, *messages: str | None) -> None:
    """A share link's state: current, with nothing before it to undo or to compare with."""
    _keep(current().started_from(state, *messages))


def undo() -> None:
    """A button callback: back to the state before the last move, saying what came back."""
    _keep(current().undone())


def randomise_again() -> None:
    """A button callback: fresh random vectors from a new seed, said on screen (an example or edits are replaced, and
    can be undone). The same seed again would change nothing on a fresh page and wipe an edit silently after one."""
    state = playground()
    seed = next(s for s in iter(lambda: _seeds.randint(0, MAX_SEED), None) if s != state.seed)
    _keep(current().confirmed(randomise(state, seed), randomised(seed)))


def on_views_event(event) -> None:
    """The views' one callback: a control's change, a click on a cell or a row label, a prediction, or a cell typed or
    a block pasted into the Q, K and V tables, as the browser sent it, made a move by the session's one handler
    (attnviz.playground.session.Session.apply)."""
    _keep(current().apply(event))


def predicts() -> bool:
    """Whether the Playground is in predict mode: the guided pages ask first too."""
    return bool(playground().predict)


def last_prediction():
    """The student's last prediction, whatever is shown now: (the prediction, the state it was asked on), or None."""
    return current().last_prediction()


def _keep(after: Session) -> None:
    """Keeps the session a move made, and shows it: the widgets beside the tables take its state, and what the move
    said is said (why a typed cell was refused is the tables' own: the page reads ``Said.at_tables``)."""
    keep(after)
    _show_in_widgets(after.state)
    say(*after.said.warnings)
    if after.said.confirmation:
        confirm(after.said.confirmation)


def _show_in_widgets(playground: PlaygroundState) -> None:
    """Every Playground widget drawn so far shows ``playground``'s value of its field on the next draw. Only what moved
    is set: a widget already drawn this run stays untouched."""
    for key in [k for k in st.session_state if str(k).startswith(CONTROL)]:
        value = getattr(playground, key[len(CONTROL) :])
        if st.session_state[key] != value:
            st.session_state[key] = value


def playground_control(field: str) -> dict:
    """Keyword arguments that bind a widget to ``field`` of the Playground state. A change makes the field's own move
    (``set_field``); a value its check refuses leaves the state as it was and shows why."""
    key = control_key(field)
    store.bind_widget(key, getattr(playground(), field))
    return {"key": key, "on_change": _on_control, "args": (field,)}


def example_control() -> dict:
    """``playground_control("example")``, and the box's value sent to the browser again on every full run, with the
    words its option has now (they change with a typed sentence, and with Undo): the browser sends back the words it
    shows, and without this it would send words the box no longer offers, which the edge refuses (attnviz.ui.edge)."""
    st.session_state[control_key("example")] = playground().example  # set anew: Streamlit sends it with its words
    return playground_control("example")


def _on_control(field: str) -> None:
    state = playground()
    try:
        value = _PARSERS.get(field, lambda v: v)(store.widget_value(control_key(field)))
    except (TypeError, ValueError):  # a value from before the widget's options changed: only this is ignored
        _keep(current().moved(state))  # puts the widget back where the state is
        return
    try:  # an error of any other kind inside the move is a bug: shown, never taken for a stale value
        new, message = set_field(state, field, value)
    except AttnvizInputError as error:  # the table's words are a clause (a link and a notebook quote them): a sentence
        refusal = str(error)
        set_playground(state, f"{refusal[:1].upper()}{refusal[1:]} The previous {field} is kept.")
        return
    set_playground(new, message, dropped_line(state, new))


def note_full_run() -> None:
    """Called by the Playground on every full run, before its views: what is drawn outside them shows this state."""
    keep(current().drawn())
