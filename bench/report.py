"""The machine a run was measured on, the printed table and the JSON file."""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import subprocess
from importlib import metadata
from pathlib import Path

from bench.harness.server import REPO

JSON_PATH = REPO / "artifacts" / "bench.json"
COLUMNS = ("measure", "median", "unit", "target", "met?", "samples", "detail")


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _memory_gb() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 1024**2, 1)
    except OSError:
        pass
    return None


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def _git_commit() -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True, timeout=5
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def machine(browser_version: str | None = None) -> dict:
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {
        "nproc": cpus,
        "cpu": _cpu_model(),
        "memory_gb": _memory_gb(),
        "os": platform.platform(),
        "python": platform.python_version(),
        "streamlit": _version("streamlit"),
        "plotly": _version("plotly"),
        "numpy": _version("numpy"),
        "playwright": _version("playwright"),
        "chromium": browser_version,
        "git_commit": _git_commit(),
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
    }


def machine_line(info: dict) -> str:
    parts = [
        f"{info['nproc']} CPU ({info['cpu']})",
        f"{info['memory_gb']} GB RAM",
        f"Python {info['python']}",
        f"streamlit {info['streamlit']}",
        f"plotly {info['plotly']}",
        f"numpy {info['numpy']}",
    ]
    if info.get("chromium"):
        parts.append(f"Chromium {info['chromium']}")
    parts.append(f"commit {info['git_commit']}" if info.get("git_commit") else "no commit")
    parts.append(info["date"])
    return "machine: " + ", ".join(parts)


def format_value(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    if unit == "s":
        return f"{value:.2f}"
    if unit in ("MB/session", "µs/call") or abs(value) < 100:
        return f"{value:.1f}"
    return f"{value:.0f}"


def _met(met: bool | None) -> str:
    return "—" if met is None else ("yes" if met else "NO")


def table(rows: list[dict]) -> str:
    cells = [
        (
            row["measure"],
            format_value(row["value"], row["unit"]),
            row["unit"],
            row["target"] or "—",
            _met(row["met"]),
            str(row["n"]),
            row["detail"] or "",
        )
        for row in rows
    ]
    widths = [max(len(c[i]) for c in [COLUMNS, *cells]) for i in range(len(COLUMNS) - 1)]

    def line(c) -> str:
        fixed = " | ".join(
            text.rjust(width) if i in (1, 5) else text.ljust(width)
            for i, (text, width) in enumerate(zip(c, widths, strict=False))
        )
        return f"{fixed} | {c[-1]}"

    rule = "-+-".join("-" * w for w in widths) + "-+-" + "-" * 6
    return "\n".join([line(COLUMNS), rule, *(line(c) for c in cells)])


def write_json(rows: list[dict], info: dict, *, groups: list[str], seconds: float, path: Path = JSON_PATH) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    document = {"machine": info, "groups": groups, "runtime_s": round(seconds, 1), "results": rows}
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    return path
