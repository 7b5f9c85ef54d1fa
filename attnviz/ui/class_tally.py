"""Which class tally this process uses: the shared store named by ``ATTNVIZ_TALLY_URL`` (the environment first, then
Streamlit's secrets), else this process's own. Read on each use, so the tally follows the setting; the store's
client is made once per process (attnviz.classroom.tally.tally_at)."""

from __future__ import annotations

import os

import streamlit as st

from attnviz.classroom.tally import QUESTION_TTL_S, Tally, tally_at

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
