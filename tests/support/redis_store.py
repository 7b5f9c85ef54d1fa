"""A real Redis-protocol server for the tests: the system's ``redis-server`` (or ``valkey-server``), which .ci/run
installs from Debian, on a free loopback port, in memory only, stopped by its owner. No fake stands in for it.

Nothing here asserts anything; callers decide what a failure means.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time

import redis

from bench.harness.server import free_port, stop_process

SERVERS = ("redis-server", "valkey-server")
ADMIN = "attnviz-test"  # the test's own user, which a store refusing the app's clients still admits


def find_server() -> str:
    for name in SERVERS:
        if found := shutil.which(name):
            return found
    raise FileNotFoundError(f"no {' or '.join(SERVERS)} on PATH (Debian: apt-get install redis-server)")


class RedisServer:
    """A store on 127.0.0.1 for one test. ``start()`` returns once it answers PING; ``stop()`` ends it."""

    def __init__(self, executable: str) -> None:
        self.executable = executable
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self._dir = tempfile.TemporaryDirectory(prefix="attnviz-redis-")
        self._log = tempfile.TemporaryFile(mode="w+b")  # noqa: SIM115 (closed in close()); a full pipe would block it

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, decode_responses=True)

    def output(self) -> str:
        self._log.flush()
        self._log.seek(0)
        return self._log.read().decode(errors="replace")

    def start(self, *, timeout_s: float = 30.0) -> RedisServer:
        # In memory only (no snapshot, no append-only file), on loopback, in its own folder.
        command = [self.executable, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        command += ["--dir", self._dir.name]
        self.process = subprocess.Popen(command, stdout=self._log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.executable} exited with {self.process.returncode}:\n{self.output()}")
            try:
                if self.client().ping():
                    return self
            except redis.ConnectionError:
                time.sleep(0.05)  # polling for the state "answers PING", not waiting a duration
        self.stop()
        raise RuntimeError(f"{self.executable} did not answer within {timeout_s:.0f} s:\n{self.output()}")

    def refuse_clients(self) -> None:
        """The store turns every client of the default user away at once (its connections closed, new ones refused)
        but keeps its data: a store that is down to the app, up again with ``admit_clients()``. The test's own
        connection is another user's."""
        self.client().acl_setuser(ADMIN, enabled=True, nopass=True, commands=["+@all"], keys=["*"], channels=["*"])
        self._admin().acl_setuser("default", enabled=False)
        self._admin().client_kill_filter(user="default")

    def admit_clients(self) -> None:
        """The default user is admitted again, and the store's command counts start from zero (``scripts_run``)."""
        self._admin().config_resetstat()
        self._admin().acl_setuser("default", enabled=True)

    def scripts_run(self) -> int:
        """How many scripts (opening, answering, closing) the store ran since its counts were last reset: not those it
        refused (a script it did not hold yet, which the client then loads and sends again)."""
        stats = self._admin().info("commandstats")
        runs = [stats.get(f"cmdstat_{name}", {}) for name in ("evalsha", "eval")]
        return sum(run.get("calls", 0) - run.get("failed_calls", 0) for run in runs)

    def _admin(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, username=ADMIN, password="-", decode_responses=True)

    def stop(self) -> None:
        stop_process(self.process)

    def close(self) -> None:
        self.stop()
        self._log.close()
        self._dir.cleanup()
