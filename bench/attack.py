"""What one hostile browser can send over Streamlit's protocol, replayed against a server (tests/load/test_attack.py).

    python -m bench.attack oversized http://127.0.0.1:8501 3   # three 9 MB table edits, one per line on stdin

Run as its own process by the tests, so that building and sending 9 MB costs the attacker's CPU, not the client that
times the bystander.
"""

from __future__ import annotations

import asyncio
import json
import sys

from websockets.exceptions import ConnectionClosed

from bench.st_client import ProtocolError, Session

OVERSIZED_BYTES = 9_000_000  # the table edit of the replay

# Crafted values for a Q/K/V table's edits, each a way Streamlit's or the app's decoding used to fail loudly.
CRAFTED_TABLE_EDITS = {
    "nested 100,000 deep": "[" * 100_000 + "]" * 100_000,
    "an integer of 5,000 digits": '{"edited_rows": {"0": {"d0": ' + "1" * 5_000 + "}}}",
    "not JSON": "{{{",
    "a list, not an object": "[1, 2, 3]",
    "an unknown column": json.dumps({"edited_rows": {"0": {"nope": "1"}}, "added_rows": [], "deleted_rows": []}),
    "a row the table lacks": json.dumps({"edited_rows": {"9999": {"q1": "1"}}, "added_rows": [], "deleted_rows": []}),
    "600 kB of edits": json.dumps({"edited_rows": {"0": {"q1": "1" * 600_000}}}),
}


def oversized_table_edit() -> str:
    row = {f"d{j}": "1.000000000000000000000000000000" for j in range(64)}
    edits, i = {}, 0
    while len(json.dumps(edits)) < OVERSIZED_BYTES:
        for _ in range(2_000):
            edits[str(i)] = row
            i += 1
    return json.dumps({"edited_rows": edits, "added_rows": [], "deleted_rows": []})


async def send_oversized(url: str, count: int) -> None:
    """Opens ``count`` Playgrounds, prints "ready", then for each line read from stdin sends one oversized table edit
    from the next of them and prints "closed" (the server dropped the connection) or "answered"."""
    payload = oversized_table_edit()
    sessions = []
    for _ in range(count):
        session = Session(url)
        await session.open()
        session.set_value(session.find(kind="dataframe", key_part="Q"), string_value=payload)
        sessions.append(session)
    print("ready", flush=True)
    for session in sessions:
        await asyncio.to_thread(sys.stdin.readline)
        try:
            await session.rerun(timeout=60)
            print("answered", flush=True)
        except (ConnectionClosed, ProtocolError):
            print("closed", flush=True)
        await session.close()


def main(argv: list[str]) -> None:
    kind, url, count = argv
    if kind != "oversized":
        raise SystemExit(f"unknown attack {kind!r}")
    asyncio.run(send_oversized(url, int(count)))


if __name__ == "__main__":
    main(sys.argv[1:])
