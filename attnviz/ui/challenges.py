"""Challenges on the page: starting one, the bar above its page that checks it live, a hint after a miss, and
"Show me", which plays the solution one move a second. What each challenge is: attnviz.lessons.challenges."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import streamlit as st

from attnviz.lessons import app_words
from attnviz.lessons.challenge import Situation
from attnviz.lessons.challenges import CHALLENGES, progress_words
from attnviz.pages import page_named
from attnviz.ui import playground_host, state
from attnviz.ui.text import literal

MOVE_EVERY_S = 1.0  # "Show me": one move a second, so each can be seen
TRIED = "challenges"  # this student's challenges: their one key in st.session_state, a Tried


@dataclass(frozen=True)
class Tried:
    """This student's challenges, as the session keeps them (read by ``tried``, written by ``_keep``); never in a share
    link."""

    solved: tuple[str, ...] = ()  # the keys of the challenges solved, sorted
    active: str | None = None  # the challenge being tried
    missed: bool = False  # whether its last check missed
    to_play: tuple = ()  # "Show me": the (words, Situation) moves still to play
    played: tuple[str, ...] = ()  # the words of those played so far
    played_at: float = 0.0  # when the last was played (time.monotonic)


def tried() -> Tried:
    return st.session_state.get(TRIED) or Tried()


def _keep(**changes) -> None:
    """Keeps ``tried()`` with ``changes`` (fields of Tried) made."""
    st.session_state[TRIED] = replace(tried(), **changes)


def _mark_solved(key: str) -> None:
    _keep(solved=tuple(sorted({*tried().solved, key})))


def situation(page: str) -> Situation:
    """The Playground's state and ``page``'s own settings, as they are now."""
    return Situation(playground_host.playground(), state.shared_settings(page))


def solved_now(key: str) -> bool:
    challenge = CHALLENGES[key]
    return challenge.solved(situation(challenge.page))


def start(key: str) -> None:
    """Sets the challenge's starting situation (the Playground's state as a move Undo can take back) and tries it."""
    challenge = CHALLENGES[key]
    begin = challenge.start()
    _show(challenge.page, begin, fresh=True)
    _keep(active=key, missed=False)


def _show(page: str, shown: Situation, *, fresh: bool = False) -> None:
    """Shows ``shown``: a move ("Show me" plays one), or a ``fresh`` start that the views compare with nothing."""
    (playground_host.set_up if fresh else playground_host.set_playground)(shown.state)
    for name, value in shown.settings.items():
        state.set_setting(page, name, value)


def _check(key: str) -> None:
    solved = solved_now(key)
    if solved:
        _mark_solved(key)
    _keep(active=key, missed=not solved)


def _show_me(key: str) -> None:
    challenge = CHALLENGES[key]
    _keep(to_play=tuple(challenge.solution(situation(challenge.page))), played=(), played_at=0.0)


def _leave() -> None:
    _keep(active=None, missed=False, to_play=(), played=(), played_at=0.0)


def challenge_bar(page: str) -> None:
    """Above ``page``: the challenge being tried there, checked on every run; nothing when none is."""
    if not tried_on(page):
        return
    key, missed = tried().active, tried().missed
    challenge = CHALLENGES[key]
    done = solved_now(key)
    if done:
        _mark_solved(key)
    rest, played = tried().to_play, tried().played
    with st.container(border=True, key="challenge_bar"):  # one compact row: the page keeps the screen
        goal, check, show, leave = st.columns([7, 1, 1.2, 1], vertical_alignment="center")
        goal.markdown(app_words.challenge_bar_line(literal(challenge.goal), done))
        check.button("Check", on_click=_check, args=(key,), disabled=done, width="stretch")
        show.button("Show me", on_click=_show_me, args=(key,), disabled=done, width="stretch")
        leave.button("Leave", on_click=_leave, width="stretch")
        if missed and not done:
            st.caption(app_words.not_yet_line(literal(challenge.hint)))
        if played:
            st.caption(app_words.shown_moves_line(played, bool(rest)))
        if rest:
            _play(page)  # a fragment that ticks only while there are moves to play


@st.fragment(run_every=MOVE_EVERY_S)
def _play(page: str) -> None:
    """Plays "Show me"'s moves, one a tick, each said; the whole page redraws with it."""
    now = tried()
    rest, played, last = now.to_play, now.played, now.played_at
    if not rest or time.monotonic() - last < MOVE_EVERY_S:  # the page's own runs call it too: the clock paces it
        return
    (words, after), rest = rest[0], rest[1:]
    _show(page, after)
    _keep(to_play=rest, played=(*played, words), played_at=time.monotonic())
    st.rerun(scope="app")


def tried_on(page: str) -> bool:
    """Whether a challenge is being tried on ``page`` (its bar is above it)."""
    active = tried().active
    return active is not None and CHALLENGES[active].page == page


def bar_outdated(page: str) -> bool:
    """True in a run of the Playground's views alone (a fragment) after a move that solved the challenge being tried
    there: the bar above the page must say so."""
    if not tried_on(page):
        return False
    key = tried().active
    return solved_now(key) and key not in tried().solved


def progress_line() -> str:
    """How many challenges this student solved, in words (attnviz.lessons.challenges)."""
    return progress_words(len(tried().solved))


def open_challenge(key: str) -> None:
    """Starts ``key`` and goes to its page (from the Challenges page's button)."""
    start(key)
    st.switch_page(page_named(CHALLENGES[key].page).file)


def sticky_controls(page: str):
    """A container for ``page``'s sizes that stays at the top of the screen (on a laptop) while the page scrolls, unless
    a challenge's bar holds the top there."""
    return st.container(key=None if tried_on(page) else "page_controls")
