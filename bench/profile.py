"""Where does a click's time go? ``python -m bench.profile`` (about a minute; not part of ``make bench``).

Server side: a live ``streamlit run app.py`` whose every script run is timed (wall and the script thread's CPU) and,
in a second pass, profiled with pyinstrument (a ``sitecustomize`` hook, switched on by an environment variable, wraps
``ScriptRunner._run_script``; the app itself is untouched). Browser side, per click on the causal mask: the in-page
times of bench.browser, the renderer's main-thread time from CDP ``Performance.getMetrics`` (script, style, layout)
and a CDP sampling CPU profile of the page's JavaScript, grouped by Streamlit frontend chunk (BidiComponent = the
Playground's views' component, EChartsChart = ECharts, DataFrame = the glide data grid, index = React and Streamlit's
core).

Writes artifacts/profile/: summary.json, server-n<N>.txt (pyinstrument trees of the fragment reruns, combined).
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from bench.harness.server import REPO

OUT = REPO / "artifacts" / "profile"
ENV_DIR = "ATTNVIZ_BENCH_PROFILE_DIR"
ENV_PYINSTRUMENT = "ATTNVIZ_BENCH_PYINSTRUMENT"
SITECUSTOMIZE = f"""
import os, sys
if os.environ.get({ENV_DIR!r}):
    sys.path.insert(0, {str(REPO)!r})
    import bench.profile
    bench.profile.install_server_hook(os.environ[{ENV_DIR!r}], bool(os.environ.get({ENV_PYINSTRUMENT!r})))
"""
# Marks every view's canvas before a click; afterwards, a view with an unmarked canvas was re-created, the others were
# repainted in place (the Playground's views, attnviz/component; ECharts charts on other pages).
VIEWS = '[data-testid="stEChartsChart"], .attnviz-view'
MARK_CHARTS_JS = f"""
() => document.querySelectorAll('{VIEWS}').forEach(view =>
  view.querySelectorAll('canvas').forEach(canvas => {{ canvas.__benchKept = true; }}))
"""
REPLACED_CHARTS_JS = f"""
() => [...document.querySelectorAll('{VIEWS}')]
  .filter(view => [...view.querySelectorAll('canvas')].some(canvas => !canvas.__benchKept))
  .map(view => (view.getAttribute('aria-label') || view.textContent || '').slice(0, 24))
"""
METRICS = ("TaskDuration", "ScriptDuration", "RecalcStyleDuration", "LayoutDuration")


def install_server_hook(directory: str, use_pyinstrument: bool) -> None:
    """In the server process: logs every script run to <directory>/runs.jsonl, with a pyinstrument session if asked."""
    from streamlit.runtime.scriptrunner import script_runner

    original = script_runner.ScriptRunner._run_script
    out = Path(directory)
    count = [0]
    gc_seconds = [0.0]

    class TimedGC:  # the script runner's post-run gc.collect(2) (config runner.postScriptGC), timed
        def __getattr__(self, name):
            return getattr(gc, name)

        def collect(self, *args):
            started = time.perf_counter()
            try:
                return gc.collect(*args)
            finally:
                gc_seconds[0] += time.perf_counter() - started

    script_runner.gc = TimedGC()

    def timed(self, rerun_data):
        profiler = None
        if use_pyinstrument:
            from pyinstrument import Profiler

            profiler = Profiler(interval=0.001)
            profiler.start()
        gc_seconds[0] = 0.0
        wall, cpu = time.perf_counter(), time.thread_time()
        try:
            return original(self, rerun_data)
        finally:
            wall, cpu = time.perf_counter() - wall, time.thread_time() - cpu
            count[0] += 1
            record = {"run": count[0], "fragment": bool(rerun_data.fragment_id_queue), "wall_ms": wall * 1000}
            record["cpu_ms"] = cpu * 1000
            record["gc_ms"] = gc_seconds[0] * 1000
            if profiler is not None:
                profiler.stop()
                session_path = out / f"run{count[0]:04d}.pyisession"
                profiler.last_session.save(str(session_path))
                record["session"] = str(session_path)
            with (out / "runs.jsonl").open("a") as f:
                f.write(json.dumps(record) + "\n")

    script_runner.ScriptRunner._run_script = timed


class HookedServer:
    """A StreamlitServer whose script runs are logged (and optionally profiled) through the sitecustomize hook."""

    def __init__(self, *, use_pyinstrument: bool):
        from bench.harness.server import StreamlitServer

        self.dir = Path(tempfile.mkdtemp(prefix="attnviz-profile-"))
        (self.dir / "sitecustomize.py").write_text(SITECUSTOMIZE)
        self._env = {
            ENV_DIR: str(self.dir),
            ENV_PYINSTRUMENT: "1" if use_pyinstrument else "",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(self.dir), os.environ.get("PYTHONPATH")])),
        }
        self._saved = {}
        self.server = StreamlitServer(REPO / "app.py")

    def __enter__(self):
        for key, value in self._env.items():  # StreamlitServer passes os.environ on to the server
            self._saved[key] = os.environ.get(key)
            os.environ[key] = value
        try:
            self.server.__enter__()
        finally:
            for key, value in self._saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
        return self

    def __exit__(self, *exc):
        self.server.__exit__(*exc)

    def cleanup(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)

    def runs(self) -> list[dict]:
        path = self.dir / "runs.jsonl"
        return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def _chunk(url: str) -> str:
    name = url.rsplit("/", 1)[-1]
    if not url:
        return "(no script: native, GC, idle)"
    return name.split(".", 1)[0] if "/static/js/" in url else name or url


def cpu_profile_by_chunk(profile: dict) -> dict[str, float]:
    """Self time (ms) per frontend chunk from a CDP Profiler profile."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    self_us: dict[str, float] = defaultdict(float)
    for node_id, delta in zip(profile["samples"], profile["timeDeltas"], strict=False):
        frame = nodes[node_id]["callFrame"]
        name = frame["functionName"]
        key = name if name in ("(idle)", "(program)", "(garbage collector)") else _chunk(frame["url"])
        self_us[key] += delta
    return {k: round(v / 1000, 1) for k, v in sorted(self_us.items(), key=lambda kv: -kv[1])}


def browser_pass(browser, url: str, sizes, clicks: int) -> dict:
    """Per sentence length: in-page times, main-thread metrics per click and a CPU profile over all clicks."""
    from bench import browser as B

    context, page = B.new_page(browser)
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 200})
    results = {}
    try:
        B.open_and_draw(page, url, B.PLAYGROUND_VIEWS)
        B.wait_idle(page, quiet_ms=500)
        for n in sizes:
            B.set_sentence(page, n)
            B.click_samples(page, "Causal mask", 2)
            before = {}
            replaced_per_click: list[list[str]] = []

            def metrics(moment, before=before, replaced_per_click=replaced_per_click):
                values = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
                if moment == "before":
                    page.evaluate(MARK_CHARTS_JS)
                    before.clear()
                    before.update(values)
                    return None
                replaced = page.evaluate(REPLACED_CHARTS_JS)
                replaced_per_click.append(replaced)
                return {
                    **{f"main_{k}": (values[k] - before[k]) * 1000 for k in METRICS},
                    "charts_recreated": len(replaced),
                }

            cdp.send("Profiler.start")
            samples = B.click_samples(page, "Causal mask", clicks, metrics)
            profile = cdp.send("Profiler.stop")["profile"]
            by_chunk = cpu_profile_by_chunk(profile)
            median = {
                k: round(statistics.median(values), 1)
                for k in samples[0]
                if (values := [s[k] for s in samples if s[k] is not None])
            }
            results[n] = {
                "median_per_click": median,
                "cpu_profile_ms_per_click": {k: round(v / clicks, 1) for k, v in by_chunk.items()},
                "charts_recreated_by_one_click": replaced_per_click[-1],
            }
    finally:
        context.close()
    return results


def _run_summary(runs: list[dict]) -> dict:
    fragment = [r for r in runs if r["fragment"]]
    return {
        "fragment_reruns": len(fragment),
        "wall_ms_median": round(statistics.median(r["wall_ms"] for r in fragment), 1) if fragment else None,
        "cpu_ms_median": round(statistics.median(r["cpu_ms"] for r in fragment), 1) if fragment else None,
        "wall_ms_max": round(max(r["wall_ms"] for r in fragment), 1) if fragment else None,
        "post_run_gc_ms_median": round(statistics.median(r["gc_ms"] for r in fragment), 1) if fragment else None,
    }


def main(sizes=None, clicks: int = 10) -> int:
    """``sizes``: sentence lengths, by default bench.browser's (the first screen's and the most the page allows)."""
    from playwright.sync_api import sync_playwright

    from bench.browser import CLICK_SIZES
    from bench.harness.chromium import find_browser, launch_chromium

    sizes = CLICK_SIZES if sizes is None else sizes

    OUT.mkdir(parents=True, exist_ok=True)
    summary: dict = {"clicks_per_size": clicks}
    executable, _ = find_browser()
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright, executable)
        try:
            # Pass 1: timings only (no pyinstrument), with the browser-side measurements.
            for n in sizes:
                with HookedServer(use_pyinstrument=False) as hooked:
                    summary.setdefault("browser", {}).update(browser_pass(browser, hooked.server.url, [n], clicks))
                    summary.setdefault("server_live", {})[n] = _run_summary(hooked.runs()[-clicks:])
                hooked.cleanup()
            # Pass 2: pyinstrument on the server's fragment reruns.
            from pyinstrument.session import Session

            for n in sizes:
                with HookedServer(use_pyinstrument=True) as hooked:
                    browser_pass(browser, hooked.server.url, [n], clicks)
                    runs = [r for r in hooked.runs()[-clicks:] if r["fragment"]]
                    summary.setdefault("server_live_pyinstrument", {})[n] = _run_summary(runs)
                    combined = None
                    for r in runs:
                        session = Session.load(r["session"])
                        combined = session if combined is None else Session.combine(combined, session)
                    if combined is not None:
                        from pyinstrument.renderers import ConsoleRenderer

                        text = ConsoleRenderer(unicode=True, color=False, show_all=False).render(combined)
                        (OUT / f"server-n{n}.txt").write_text(text)
                hooked.cleanup()
        finally:
            browser.close()
    (OUT / "summary.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps(summary, indent=2, ensure_ascii=False))
    print(f"written to {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
