"""``make bench``: every benchmark of issue 5, printed as a table and written to artifacts/bench.json.

    python -m bench                  # everything (about 3 minutes)
    python -m bench core server      # a subset: core, server, models, train, worst, bystander, click, moves, load,
                                     # memory (browser = click + moves + load)

Times are medians. Nothing here asserts: a target not met shows as "NO" in the table and ``"met": false`` in the JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
import traceback
from pathlib import Path

from bench import report

GROUPS = ("core", "server", "models", "train", "induction", "worst", "bystander", "click", "moves", "load", "memory")
ALIASES = {"browser": ("click", "moves", "load"), "all": GROUPS}
BROWSER_GROUPS = {"click", "moves", "load", "memory"}


def _groups(names: list[str]) -> list[str]:
    chosen = []
    for name in names or ["all"]:
        for group in ALIASES.get(name, (name,)):
            if group not in GROUPS:
                raise SystemExit(f"unknown benchmark {name!r}; choose from {', '.join([*GROUPS, *ALIASES])}")
            if group not in chosen:
                chosen.append(group)
    return [g for g in GROUPS if g in chosen]


def _failed(group: str, error: BaseException) -> dict:
    traceback.print_exception(error, file=sys.stderr)
    return {
        "measure": f"{group}: FAILED",
        "value": None,
        "unit": "",
        "target": None,
        "met": False,
        "n": 0,
        "detail": f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}",
    }


def _attempt(rows: list[dict], group: str, measure) -> None:
    """Runs one benchmark group; a failure becomes a FAILED row instead of stopping the others."""
    print(f"… {group}", file=sys.stderr, flush=True)
    try:
        rows += measure()
    except Exception as error:
        rows.append(_failed(group, error))


def _server_groups(groups: list[str]) -> list[dict]:
    rows: list[dict] = []
    for group in [g for g in GROUPS if g in groups and g not in BROWSER_GROUPS]:
        _attempt(rows, group, __import__(f"bench.{group}", fromlist=["run"]).run)
    return rows


def _browser_groups(wanted: list[str], executable) -> tuple[list[dict], str]:
    from playwright.sync_api import sync_playwright

    from bench import browser as browser_bench
    from bench import browser_moves
    from bench import memory as memory_bench
    from bench.harness.chromium import launch_chromium
    from bench.harness.server import REPO, StreamlitServer

    rows: list[dict] = []
    with sync_playwright() as playwright, contextlib.ExitStack() as stack:
        chromium = launch_chromium(playwright, executable)  # one Chromium for every browser benchmark
        stack.callback(chromium.close)
        if {"click", "moves", "load"} & set(wanted):
            app = stack.enter_context(StreamlitServer(REPO / "app.py"))
        if "click" in wanted:

            def clicks():
                urls = {"app": app.url}
                for name in ("floor", "chart_floor"):
                    urls[name] = stack.enter_context(StreamlitServer(REPO / "bench" / f"{name}_app.py")).url
                return browser_bench.measure_clicks(chromium, urls)

            _attempt(rows, "click (floor apps and Playground)", clicks)
        if "moves" in wanted:
            _attempt(
                rows, "moves", lambda: browser_moves.rows(browser_moves.measure(chromium, {"app": app.url})["app"])
            )
        if "load" in wanted:
            _attempt(rows, "load", lambda: browser_bench.measure_warm_load(chromium, app.url))
        if "memory" in wanted:

            def memory():
                with StreamlitServer(REPO / "app.py") as fresh:  # a fresh server, 20 sessions
                    return memory_bench.measure(chromium, fresh)

            _attempt(rows, "memory", memory)
        return rows, chromium.version


def run(groups: list[str]) -> tuple[list[dict], str | None]:
    rows = _server_groups(groups)
    wanted = [g for g in groups if g in BROWSER_GROUPS]
    if not wanted:
        return rows, None
    try:
        from bench.harness.chromium import find_browser

        executable, _ = find_browser()
        import playwright.sync_api  # noqa: F401
    except (ImportError, FileNotFoundError) as error:
        return rows + [{**_failed(g, error), "measure": f"{g}: SKIPPED (no browser)"} for g in wanted], None
    browser_rows, chromium_version = _browser_groups(wanted, executable)
    return rows + browser_rows, chromium_version


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("groups", nargs="*", help=f"any of {', '.join([*GROUPS, *ALIASES])} (default: all)")
    parser.add_argument("--json", type=str, default=str(report.JSON_PATH), help="where to write the results")
    args = parser.parse_args(argv)
    groups = _groups(args.groups)

    started = time.perf_counter()
    rows, chromium_version = run(groups)
    seconds = time.perf_counter() - started

    info = report.machine(chromium_version)
    path = report.write_json(rows, info, groups=groups, seconds=seconds, path=Path(args.json))
    print(report.machine_line(info))
    print(report.table(rows))
    print(f"{len(rows)} results in {seconds:.0f} s; JSON: {path}")
    return 1 if any(row["measure"].endswith(("FAILED", "(no browser)")) for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
