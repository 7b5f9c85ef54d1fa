"""A class joins a question at once over Streamlit's own protocol (``python -m bench.load_class``): 40 phones open the
join address together on one process and each answers once; the teacher's bars count all 40, with no error."""

from __future__ import annotations

from bench.harness.server import StreamlitServer
from bench.load_class import join_at_once
from tests.load.test_load_protocol import run_apart


def test_forty_phones_joining_at_once_are_all_counted_on_one_process():
    with StreamlitServer("app.py") as server:
        found = run_apart(join_at_once(server.url, 40))
    assert (found["answered"], found["counted"], found["errors"], found["failures"]) == (40, 40, 0, []), found
