"""Streamlit's session state for the features that keep no key of their own: messages said once, tab bars, the
guided pages' settings, the class join, the lesson plan, session flags (Watch it learn keeps its own:
attnviz.ui.training_run).

Pages never touch ``st.session_state``. The Playground's session (attnviz.playground.session, plain Python) is kept
whole under one key by its Streamlit host, ``attnviz.ui.playground_host``, which owns that key. A guided page binds a
widget with ``page_setting(page, name, default)``: its own slider or input, which survives a visit to another page.
Getters never write.
"""

from __future__ import annotations

import secrets
from typing import Any

import streamlit as st

from attnviz.classroom import page_settings
from attnviz.pages import PAGES

MESSAGES = "messages"  # plain-words messages from the last move, shown once on the next run
CONFIRMATIONS = "confirmations"  # what the last move did, when it is not to be seen at a glance (Undo, Randomise)
SHARE_SAID = "share.said"  # what "Add to my lesson" did, said once beside the Share box of the page it was pressed on
LINK_CHECKED = "link_checked"  # the share link in the address is applied once, on a session's first run
TABS = "tabs."  # prefix of a page's tab bar key: tabs.<page>, the open tab's name
VIEWS = "playground.views"  # the Playground's views component: its controls' changes and clicks arrive as "event"
TABLES = "playground.tables"  # the Playground's Q, K and V tables (the same component): typed cells arrive as "event"
CONTROL = "pg."  # prefix of the Playground's widget keys: pg.<field>
SETTING = "setting."  # prefix of the guided pages' widget keys: setting.<page>.<name>
ASK = "ask."  # prefix of a guided page's guess box (attnviz.ui.predict.ask_choice): ask.<page>.<name>
SOLVED = "challenges.solved"  # the keys of the challenges this student solved (never in a share link)
CHALLENGE = "challenges.active"  # the challenge being tried, and whether its last check missed: (key, missed)
PLAYING = "challenges.playing"  # "Show me": ([(words, Situation)] still to play, words played, when the last was)
VOTER_CODE = "class.code"  # the class question this student answers, by its code
VOTER = "class.voter"  # this session's anonymous id in a class tally: one answer a student, never a name
CLASS_JOIN = "class.join"  # the box a student types the class code into (a widget: it shows CLASS_TYPED)
CLASS_TYPED = "class.typed"  # the code this student typed or opened last, accepted or not
CLASS_LINK_CHECKED = "class.link_checked"  # a join address (?join=<code>) is applied once, on a session's first run
CLASS_ASKED = "class.asked"  # the PlaygroundState the joined question asks about (None: any)
CLASS_PROBLEM = "class.problem"  # why the typed code was refused, said under the box until another is typed
CLASS_SENT = "class.sent"  # the last answer sent: (code, (state asked on, option), why it was refused or None,
# whether it is to be sent again: a refusal that was not the answer's fault, such as the store not answering)
BROWSER_VOTER = "browser_voter"  # a component sending this browser's own voter id (trigger "id"), from localStorage
BROWSER_VOTER_HEARD = "browser_voter.heard"  # the browser has sent its id (or said it keeps none): answers may go
LESSON_PLAN = "lesson.plan"  # the lesson plan being built (attnviz.classroom.lesson_plan.LessonPlan)
LESSON_RUN = "lesson.run"  # the plan being presented: (plan, step index, whether the step's answer is shown)
LESSON_KEYS = "lesson.keys"  # the arrow keys of a lesson being presented: a component whose trigger "move" says where
LESSON_MOVED = "lesson.moved"  # a Back or Next was just pressed: the bar goes to the step's page
CLASS_QUESTION = "lesson.class_question"  # the teacher's open class question, by its code
CLASS_ANSWERED = "lesson.class_answered"  # its answers as Answer closed it (TallyCounts): the bars beside the reveal
CLASS_STORE_SAID = "lesson.class_store_said"  # why Answer or a step's move could not reach the tally's store, said once
LESSON_KEYED = "lesson.keyed"  # a key asked the bar for "ask" (Ask the class) or "qr" (the code large), this run
CLASS_RATES = "class.rates"  # this session's token buckets for class answers and code guesses, by kind
ARRIVAL = "lesson.arrival"  # counts a lesson's arrivals at a step: each scrolls its page to the step's subject, once

# ----------------------------------------------------------------------------- key names (tests use them too)


def kept(key: str, default: Any = None) -> Any:
    """What is kept under ``key`` (one of the keys above), or ``default``: the stores with no more to them."""
    return st.session_state.get(key, default)


def keep(key: str, value: Any) -> None:
    st.session_state[key] = value


def take(key: str, default: Any = None) -> Any:
    """What is kept under ``key``, once: it is forgotten."""
    return st.session_state.pop(key, default)


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
    st.session_state[MESSAGES] = [m for m in messages if m]


def take_messages() -> list[str]:
    """The messages of the last move, once."""
    return st.session_state.pop(MESSAGES, [])


def confirm(message: str) -> None:
    st.session_state[CONFIRMATIONS] = [message]


def say_at_share(message: str) -> None:
    st.session_state[SHARE_SAID] = message


def take_share_said() -> str | None:
    """What the Share box's button did, once: shown on the page it was pressed on, never later on another."""
    return st.session_state.pop(SHARE_SAID, None)


def take_confirmations() -> list[str]:
    """What the last move did, once (shown as a confirmation, not a warning)."""
    return st.session_state.pop(CONFIRMATIONS, [])


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
    keeping = tuple(f"{SETTING}{page.name}." for page in PAGES if page.keeps_settings)
    for key in [k for k in st.session_state if str(k).startswith(keeping)]:
        st.session_state[key] = st.session_state[key]


# ----------------------------------------------------------------------------- session flags


def first_run() -> bool:
    """True once per session: on the run that should apply a share link from the address."""
    if st.session_state.get(LINK_CHECKED):
        return False
    st.session_state[LINK_CHECKED] = True
    return True


def shared_settings(page: str) -> dict:
    """The page's settings a share link carries (attnviz.classroom.page_settings), as they are now."""
    names = page_settings.SHAREABLE.get(page, {})
    return {
        name: st.session_state[setting_key(page, name)] for name in names if setting_key(page, name) in st.session_state
    }


# ----------------------------------------------------------------------------- challenges


def solved_challenges() -> tuple[str, ...]:
    return tuple(sorted(st.session_state.get(SOLVED, ())))


def mark_solved(*keys: str) -> None:
    st.session_state[SOLVED] = tuple(sorted(set(solved_challenges()) | set(keys)))


def active_challenge() -> tuple[str, bool] | None:
    """(the challenge being tried, whether the student's last check missed), or None."""
    return st.session_state.get(CHALLENGE)


def set_active_challenge(key: str | None, *, missed: bool = False) -> None:
    if key is None:
        st.session_state.pop(CHALLENGE, None)
        st.session_state.pop(PLAYING, None)
    else:
        st.session_state[CHALLENGE] = (key, missed)


def moves_to_play() -> tuple[list, list[str], float]:
    """ "Show me": (the moves still to play, the words of those played so far, when the last was played)."""
    rest, played, at = st.session_state.get(PLAYING, ([], [], 0.0))
    return list(rest), list(played), at


def set_moves_to_play(rest: list, played: list[str], at: float = 0.0) -> None:
    st.session_state[PLAYING] = (list(rest), list(played), at)


# ----------------------------------------------------------------------------- the class question


def class_code() -> str | None:  # the code of the class question this student joined
    return st.session_state.get(VOTER_CODE)


def set_class_code(code: str | None) -> None:
    st.session_state[VOTER_CODE] = code


def name_voter() -> None:
    """On a session's first run: an anonymous id for the class tally, random, never shown, this session's only."""
    if VOTER not in st.session_state:
        st.session_state[VOTER] = secrets.token_hex(8)


def voter() -> str:  # this session's anonymous id in a class's tally (set by name_voter)
    return st.session_state.get(VOTER, "")
