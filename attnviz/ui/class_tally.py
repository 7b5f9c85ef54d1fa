"""Which class tally this process uses: the shared store named by ``ATTNVIZ_TALLY_URL`` (the environment first, then
Streamlit's secrets), else this process's own. Read on each use, so the tally follows the setting; each tally (the
store's client) is made once per process and URL."""

from __future__ import annotations

import os
from functools import cache

import streamlit as st

from attnviz.classroom.redis_tally import RedisTally
from attnviz.classroom.tally import QUESTION_TTL_S, MemoryTally, Tally

URL_SETTING = "ATTNVIZ_TALLY_URL"  # e.g. redis://attnviz-tally:6379/0
TTL_SETTING = "ATTNVIZ_TALLY_TTL_S"  # how long a question lives, in seconds (the tests shorten it)


def _setting(name: str) -> str | None:
    if value := os.environ.get(name):
        return value
    # Only a secrets file that exists is read: without one, Streamlit would show an error on the page.
    return str(st.secrets.get(name) or "") or None if st.secrets.load_if_toml_exists() else None


def class_tally() -> Tally:
    ttl = _setting(TTL_SETTING)
    return tally_at(_setting(URL_SETTING), ttl_s=int(ttl) if ttl and ttl.isdigit() and int(ttl) > 0 else QUESTION_TTL_S)


def tally_at(url: str | None, *, ttl_s: int = QUESTION_TTL_S) -> Tally:
    """The tally for ``url``, one per process and URL: this process's own for None (or ""), the shared store's for a
    ``redis://`` (or ``rediss://``, ``unix://``) URL. Questions live ``ttl_s`` seconds."""
    return _tally_at(url or None, ttl_s)


@cache
def _tally_at(url: str | None, ttl_s: int) -> Tally:
    return MemoryTally(ttl_s=ttl_s) if url is None else RedisTally.from_url(url, ttl_s=ttl_s)


def shared_tally() -> Tally:
    """This process's own tally, shared by every session (the tally without a store)."""
    return tally_at(None)
