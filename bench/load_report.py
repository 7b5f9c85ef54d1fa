"""What the load test measures beside latency (server memory and CPU, read from /proc), and how it reports."""

from __future__ import annotations

import asyncio
import json
import os
import platform
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

TICKS = os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    """Resident memory (VmRSS) of one process in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime (fields 14 and 15 of stat)


@dataclass
class Sampler:
    """Samples the servers' summed RSS and CPU once a second while running; ``cpu_pct`` is of one core."""

    pids: list[int]
    interval: float = 1.0
    times: list[float] = field(default_factory=list)  # seconds since start(), one per sample
    rss: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    _task: asyncio.Task | None = None

    def rss_now(self) -> float:
        return sum(rss_mb(pid) for pid in self.pids)

    def cpu_now(self) -> float:
        """The servers' CPU seconds so far (user and system)."""
        return sum(map(cpu_seconds, self.pids))

    def rss_at(self, seconds: float) -> float:
        """The first RSS sampled at or after ``seconds`` since start() (the last one if the run was shorter)."""
        return next((rss for t, rss in zip(self.times, self.rss, strict=True) if t >= seconds), self.rss[-1])

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        last_cpu, last_time = sum(map(cpu_seconds, self.pids)), time.monotonic()
        started = last_time
        while True:
            await asyncio.sleep(self.interval)
            cpu, now = sum(map(cpu_seconds, self.pids)), time.monotonic()
            self.cpu.append(100 * (cpu - last_cpu) / (now - last_time))
            self.rss.append(self.rss_now())
            self.times.append(now - started)
            last_cpu, last_time = cpu, now


PERCENTILES = (50, 95, 99)  # of a move's time: p50_ms, p95_ms, p99_ms


def latency_figures(times_ms: list[float]) -> dict:
    values = np.percentile(times_ms, PERCENTILES).tolist() if times_ms else [None] * len(PERCENTILES)
    return {f"p{q}_ms": None if v is None else round(v, 1) for q, v in zip(PERCENTILES, values, strict=True)}


def cpu_figures(sampler: Sampler) -> dict:
    cpu = sampler.cpu or [0.0]
    return {"server_cpu_pct_mean": round(float(np.mean(cpu)), 1), "server_cpu_pct_max": round(float(np.max(cpu)), 1)}


COLUMNS = (  # (heading, key, format)
    ("scenario", "name", "{}"),
    ("sessions", "sessions", "{}"),
    ("moves", "moves", "{}"),
    *((f"p{q} ms", f"p{q}_ms", "{:.0f}") for q in PERCENTILES),
    ("errors", "errors", "{}"),
    ("wrong", "wrong", "{}"),
    ("RSS MB", "rss_mb", "{:.0f}"),
    ("CPU % mean", "server_cpu_pct_mean", "{:.0f}"),
    ("CPU ms/move", "server_cpu_ms_per_move", "{:.1f}"),
    ("opened/s", "sessions_opened_per_s", "{:.1f}"),
    ("load avg", "loadavg_1min_after", "{:.1f}"),
    ("targets", "met", "{}"),
)


def _cell(row: dict, key: str, pattern: str) -> str:
    value = row.get(key)
    if value is None:
        return "–"
    if key == "met":
        return "met" if value else "MISSED"
    return pattern.format(value)


def table(rows: list[dict]) -> str:
    cells = [[heading for heading, _, _ in COLUMNS]] + [[_cell(r, k, p) for _, k, p in COLUMNS] for r in rows]
    widths = [max(len(line[i]) for line in cells) for i in range(len(COLUMNS))]
    lines = [
        "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(line, widths, strict=True)))
        for line in cells
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    notes = [f"  {r['name']}: {r['notes']}" for r in rows if r.get("notes")]
    return "\n".join(lines + notes)


def _cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.machine()


def write(rows: list[dict], path: Path) -> None:
    """Writes ``rows`` to ``path``, keeping scenarios measured earlier under other names (e.g. the soak). Each row
    says when and where it was measured."""
    stamp = {
        "measured_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": f"{os.cpu_count()} × {_cpu_model()}, Python {platform.python_version()}",
    }
    rows = [row | stamp for row in rows]
    kept = []
    if path.exists():
        names = {r["name"] for r in rows}
        kept = [r for r in json.loads(path.read_text()) if r.get("name") not in names]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(kept + rows, indent=2, ensure_ascii=False) + "\n")
