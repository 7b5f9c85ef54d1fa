"""A live ``streamlit run`` on a free localhost port, for the e2e tests and the benchmarks. It asserts nothing: callers
decide what a failure means."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]  # bench/harness/server.py → the repository


class ServerError(RuntimeError):
    """The Streamlit server did not come up; the message carries its output."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def stop_process(process: subprocess.Popen | None) -> None:
    """Ends a process this harness started, if it still runs: politely, then by force after 10 s."""
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


class StreamlitServer:
    """``streamlit run <script>`` on a free localhost port. Use as a context manager: it always stops the server."""

    def __init__(
        self,
        script: str | Path = "app.py",
        *,
        cwd: Path = REPO,
        startup_timeout: float = 60.0,
        python: str | Path = sys.executable,
        env: dict[str, str] | None = None,
    ):
        self.script = str(script)
        self.python = str(
            python
        )  # another venv's interpreter serves the app as that venv has it (tests/e2e/test_cloud.py)
        self.env = env or {}  # added to this process's environment
        self.cwd = Path(cwd)
        self.startup_timeout = startup_timeout
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self._log = tempfile.TemporaryFile(mode="w+b")  # noqa: SIM115 (closed in stop()); a file, not a pipe: a full pipe would block the server

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def output(self) -> str:
        self._log.flush()
        self._log.seek(0)
        return self._log.read().decode(errors="replace")

    def start(self) -> StreamlitServer:
        command = [
            self.python,
            "-m",
            "streamlit",
            "run",
            self.script,
            "--server.headless",
            "true",
            "--server.address",
            "127.0.0.1",
            "--server.port",
            str(self.port),
            "--browser.gatherUsageStats",
            "false",
            # The server runs the code it started with. The checkout is shared and edited while tests and load runs
            # use it; a watched server re-imports edited modules under running sessions (import errors, and state
            # objects of a class that has since changed).
            "--server.fileWatcherType",
            "none",
        ]
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env}
        self.process = subprocess.Popen(command, cwd=self.cwd, stdout=self._log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise ServerError(
                    f"streamlit run {self.script} exited with code {self.process.returncode} before it was healthy.\n"
                    f"--- server output ---\n{self.output()}"
                )
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as response,
            ):
                if response.read().decode().strip() == "ok":
                    return self
            time.sleep(0.2)
        self.stop()
        raise ServerError(
            f"streamlit run {self.script} was not healthy after {self.startup_timeout:.0f} s.\n"
            f"--- server output ---\n{self.output()}"
        )

    def stop(self) -> None:
        stop_process(self.process)

    def rss_mb(self) -> float:
        """The server's resident memory (VmRSS) in MB."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError("VmRSS not found")

    def __enter__(self) -> StreamlitServer:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc) -> None:
        self.stop()
        self._log.close()
