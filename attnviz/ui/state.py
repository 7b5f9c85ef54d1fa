"""Streamlit's session state for what no feature of its own keeps: messages said once, tab bars, the guided pages'
settings and their last choices, this session's own flags. Each feature keeps one typed object under one key, read
and written through its own functions: the Playground (attnviz.ui.playground_host), Watch it learn
(attnviz.ui.training_run), presenter mode (attnviz.ui.presenter), challenges (attnviz.ui.challenges), a student's class
question (attnviz.ui.class_join), the teacher's (attnviz.ui.class_question), the lesson plan (attnviz.ui.lesson_plan),
the models opened (attnviz.ui.model_runs).

Pages never touch ``st.session_state``. A guided page binds a widget with ``page_setting(page, name, default)``: its
own slider or input, which survives a visit to another page. Getters never write.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import streamlit as st

from attnviz.classroom import page_settings
from attnviz.lessons import app_words
from attnviz.pages import PAGES
from attnviz.ui.text import literal

SAID = "said"  # what the last move said, shown once on the next run: a Said
VISIT = "visit"  # this session's own: a Visit
CHOSEN = "chosen"  # the guided pages' choices last taken from the options offered: a Chosen
TABS = "tabs."  # prefix of a page's tab bar key: tabs.<page>, the open tab's name
VIEWS = "playground.views"  # the Playground's views component: its controls' changes and clicks arrive as "event"
TABLES = "playground.tables"  # the Playground's Q, K and V tables (the same component): typed cells arrive as "event"
CONTROL = "pg."  # prefix of the Playground's widget keys: pg.<field>
SETTING = "setting."  # prefix of the guided pages' widget keys: setting.<page>.<name>


@dataclass(frozen=True)
class Said:
    """What the last move said, each kind shown once (taken by the run that shows it)."""

    warnings: tuple[str, ...] = ()  # plain-words messages from the last move
    confirmations: tuple[str, ...] = ()  # what it did, when that is not to be seen at a glance (Undo, Randomise)
    at_share: str | None = None  # what "Add to my lesson" did, beside the Share box of the page it was pressed on


@dataclass(frozen=True)
class Visit:
    """This session's own, read by its functions below."""

    voter: str = ""  # its anonymous id in a class tally: one answer a student, never a name (set by name_voter)
    link_checked: bool = False  # the share link in the address is applied once, on a session's first run


@dataclass(frozen=True)
class Chosen:
    """Each guided-page setting with options (a select box, radio), by its key: the value last taken from the options
    offered, kept when the browser sends one that is not offered."""

    values: Mapping[str, Any] = field(default_factory=dict)


def _said() -> Said:
    return st.session_state.get(SAID) or Said()


def _keep_said(**changes) -> None:
    st.session_state[SAID] = replace(_said(), **changes)


def _visit() -> Visit:
    return st.session_state.get(VISIT) or Visit()


def _keep_visit(**changes) -> None:
    st.session_state[VISIT] = replace(_visit(), **changes)


# ----------------------------------------------------------------------------- key names (tests use them too)


def widget_value(key: str) -> Any:
    """What the browser last sent for the widget or chart ``key`` (None before it sent anything), as sent."""
    return st.session_state.get(key)


def bind_widget(key: str, value: Any) -> None:
    """A widget's first value, before it is first drawn (later, the widget's own)."""
    if key not in st.session_state:
        st.session_state[key] = value


def control_key(field: str) -> str:
    return CONTROL + field


def setting_key(page: str, name: str) -> str:
    return f"{SETTING}{page}.{name}"


# ----------------------------------------------------------------------------- messages shown once, and tab bars


def say(*messages: str | None) -> None:
    _keep_said(warnings=tuple(m for m in messages if m))


def take_messages() -> list[str]:
    """The messages of the last move, once."""
    said = _said().warnings
    if said:
        _keep_said(warnings=())
    return list(said)


def confirm(message: str) -> None:
    _keep_said(confirmations=(message,))


def say_at_share(message: str) -> None:
    _keep_said(at_share=message)


def take_share_said() -> str | None:
    """What the Share box's button did, once: shown on the page it was pressed on, never later on another."""
    said = _said().at_share
    if said is not None:
        _keep_said(at_share=None)
    return said


def take_confirmations() -> list[str]:
    """What the last move did, once (shown as a confirmation, not a warning)."""
    said = _said().confirmations
    if said:
        _keep_said(confirmations=())
    return list(said)


def lazy_tabs(page: str) -> dict:
    """Keyword arguments for ``st.tabs`` that run only the open tab's contents (each tab's ``.open`` says which), so
    a move does not rebuild tables hidden behind another tab; switching tabs is a rerun."""
    return {"key": tabs_key(page), "on_change": "rerun"}


def tabs_key(page: str) -> str:
    return f"{TABS}{page}"


def open_tab(page: str, default: str) -> str:
    return st.session_state.get(tabs_key(page)) or default


# ----------------------------------------------------------------------------- guided pages' settings


def page_setting(page: str, name: str, default: Any, *, options=None) -> dict:
    """Keyword arguments that bind a guided page's widget to a setting that outlives visits to other pages.

    With ``options`` (a selector's choices), the one check of the value chosen: a value sent that is not offered (a
    select box passes on any text) is refused in one line where the widget is, the last choice kept; a kept value that
    is no longer a choice (the options changed under it) falls back to ``default``."""
    key = setting_key(page, name)
    if key not in st.session_state:
        st.session_state[key] = default
    elif options is not None and (sent := st.session_state[key]) not in options:
        last = _chosen().get(key, default)
        st.session_state[key] = last if last in options else default
        if sent != last:  # sent by the browser, not left behind by the options
            st.warning(app_words.not_a_choice(literal(str(sent)[:40])), icon="✋")
    if options is not None:
        st.session_state[CHOSEN] = Chosen({**_chosen(), key: st.session_state[key]})
    return {"key": key}


def _chosen() -> Mapping[str, Any]:
    return (st.session_state.get(CHOSEN) or Chosen()).values


def setting_value(page: str, name: str, default: Any = None) -> Any:
    return st.session_state.get(setting_key(page, name), default)


def set_setting(page: str, name: str, value: Any) -> None:
    """For button callbacks (Back/Next, Reset) that change a setting."""
    st.session_state[setting_key(page, name)] = value


def keep_page_settings() -> None:
    """Streamlit forgets a widget's value once its page is not drawn. Writing each guided-page setting back as plain
    session state on every run keeps a student's settings while they visit other pages."""
    keeping = tuple(f"{SETTING}{page.name}." for page in PAGES if page.keeps_settings)
    for key in [k for k in st.session_state if str(k).startswith(keeping)]:
        st.session_state[key] = st.session_state[key]


# ----------------------------------------------------------------------------- session flags


def first_run() -> bool:
    """True once per session: on the run that should apply a share link from the address."""
    if _visit().link_checked:
        return False
    _keep_visit(link_checked=True)
    return True


def shared_settings(page: str) -> dict:
    """The page's settings a share link carries (attnviz.classroom.page_settings), as they are now."""
    names = page_settings.SHAREABLE.get(page, {})
    return {
        name: st.session_state[setting_key(page, name)] for name in names if setting_key(page, name) in st.session_state
    }


# ----------------------------------------------------------------------------- this session's voter


def name_voter() -> None:
    """On a session's first run: an anonymous id for the class tally, random, never shown, this session's only."""
    if not _visit().voter:
        set_voter(secrets.token_hex(8))


def set_voter(voter: str) -> None:
    """This session's voter from now on (a browser's own id: attnviz.ui.class_join)."""
    _keep_visit(voter=voter)


def voter() -> str:  # this session's anonymous id in a class's tally (set by name_voter)
    return _visit().voter
