"""The class scenario through two replicas behind nginx (deploy/two-replicas.sh), with reconnects.

Shows that both replicas serve sessions, that every answer a session gets (page, websocket, reconnect) comes from
the same replica, and that after a reconnect the session is the same one with the same numbers.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections import Counter
from pathlib import Path

from bench.harness.server import REPO
from bench.load_class import Scenario, run_class
from bench.load_report import Sampler, rss_mb

SCRIPT = REPO / "deploy" / "two-replicas.sh"
SCENARIO = Scenario(20, 1.0, 60.0, reconnect_every=10, prefix="two replicas behind nginx: ")


def _start(app_dir: Path, state: str) -> tuple[str, dict[str, int]]:
    """Starts the replicas and nginx; returns (proxy URL, {"127.0.0.1:port": pid})."""
    env = {**os.environ, "ATTNVIZ_REPLICAS_DIR": state, "ATTNVIZ_APP_DIR": str(app_dir)}
    done = subprocess.run([str(SCRIPT), "start"], env=env, capture_output=True, text=True, timeout=120)
    if done.returncode:
        raise RuntimeError(f"{SCRIPT.name} start failed:\n{done.stdout}{done.stderr}")
    lines = dict(line.split("=", 1) for line in done.stdout.split() if "=" in line)
    replicas = {}
    for key, value in lines.items():
        if key.startswith("REPLICA_"):
            port, pid = value.split(":")
            replicas[f"127.0.0.1:{port}"] = int(pid)
    return lines["URL"], replicas


def _stop(state: str) -> None:
    subprocess.run([str(SCRIPT), "stop"], env={**os.environ, "ATTNVIZ_REPLICAS_DIR": state}, check=True, timeout=60)


async def run_replicas(app_dir: Path, shorten) -> dict:
    scenario = shorten(SCENARIO)
    with tempfile.TemporaryDirectory(prefix="attnviz-replicas-") as state:
        url, replicas = _start(app_dir, state)
        try:
            row, tally = await run_class(url, scenario, Sampler(list(replicas.values())))
            rss_each = {address: round(rss_mb(pid), 1) for address, pid in replicas.items()}
        finally:
            _stop(state)
    served = Counter(s.session.replicas[0] for s in tally.students if s.session.replicas)
    moved = sum(len(set(s.session.replicas)) > 1 for s in tally.students)
    reconnects = row["per_move"].get("reconnect", {}).get("count", 0)
    row |= {
        "sessions_per_replica": dict(served),
        "sessions_that_moved_replica": moved,
        "reconnects": reconnects,
        "rss_per_replica_mb": rss_each,
        # The targets for this run. Its times are reported, not judged: here both replicas, nginx and the
        # load generator share the same 2 cores, so a second replica adds no capacity (p95 ≤ 1 s is judged on the
        # one-server scenarios).
        "targets": "both replicas serve, no session moves or loses its state, 0 errors, 0 wrong",
        "met": bool(len(served) == len(replicas) and moved == 0 and row["errors"] == 0 and row["wrong"] == 0),
        "notes": f"sessions per replica {dict(served)}, {moved} moved replica, {reconnects} reconnects kept their "
        f"session; RSS per replica {rss_each} MB",
    }
    return row
