"""``make bench``: every benchmark of issue 5, printed as a table and written to artifacts/bench.json.

    python -m bench                  # everything (about 3 minutes)
    python -m bench core server      # a subset: core, server, models, train, worst, bystander, click, load, memory
                                     # (browser = click + load)

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

GROUPS = ("core", "server", "models", "train", "worst", "bystander", "click", "load", "memory")
ALIASES = {"browser": ("click", "load"), "all": GROUPS}
BROWSER_GROUPS = {"click", "load", "memory"}


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


def run(groups: list[str]) -> tuple[list[dict], str | None]:
    rows: list[dict] = []
    chromium_version = None
    for group in ("core", "server", "models", "train", "worst", "bystander"):
        if group in groups:
            print(f"… {group}", file=sys.stderr, flush=True)
            try:
                module = __import__(f"bench.{group}", fromlist=["run"])
                rows += module.run()
            except Exception as error:
                rows.append(_failed(group, error))
    wanted = [g for g in groups if g in BROWSER_GROUPS]
    if not wanted:
        return rows, chromium_version
    try:
        from playwright.sync_api import sync_playwright

        from tests.support.live import find_browser

        executable, _ = find_browser()
    except (ImportError, FileNotFoundError) as error:
        for group in wanted:
            rows.append({**_failed(group, error), "measure": f"{group}: SKIPPED (no browser)"})
        return rows, chromium_version

    from bench import browser as browser_bench
    from bench import memory as memory_bench
    from tests.support.live import REPO, StreamlitServer, launch_chromium

    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright, executable)  # one Chromium for every browser benchmark
        chromium_version = chromium.version
        try:
            if "click" in wanted or "load" in wanted:
                with contextlib.ExitStack() as stack:
                    app = stack.enter_context(StreamlitServer(REPO / "app.py"))
                    if "click" in wanted:
                        print("… click (floor app and Playground)", file=sys.stderr, flush=True)
                        try:
                            floor = stack.enter_context(StreamlitServer(REPO / "bench" / "floor_app.py"))
                            charts = stack.enter_context(StreamlitServer(REPO / "bench" / "chart_floor_app.py"))
                            rows += browser_bench.measure_clicks(chromium, app.url, floor.url, charts.url)
                        except Exception as error:
                            rows.append(_failed("click", error))
                    if "load" in wanted:
                        print("… load", file=sys.stderr, flush=True)
                        try:
                            rows += browser_bench.measure_warm_load(chromium, app.url)
                        except Exception as error:
                            rows.append(_failed("load", error))
            if "memory" in wanted:
                print("… memory (a fresh server, 20 sessions)", file=sys.stderr, flush=True)
                try:
                    with StreamlitServer(REPO / "app.py") as fresh:
                        rows += memory_bench.measure(chromium, fresh)
                except Exception as error:
                    rows.append(_failed("memory", error))
        finally:
            chromium.close()
    return rows, chromium_version


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
