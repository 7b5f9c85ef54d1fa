"""Issue 36's slowest moves in Chromium, at the limits a share link can set: from the click to the moment the page has
received the rerun and its main thread has finished the work it caused.

- Multi-head: *Causal mask* at MAX_TOKENS tokens, d_model MAX_D_MODEL and as many heads;
- the Playground at MAX_TOKENS tokens, d_k = d_v = MAX_DIM: presenter mode switched on, then Randomise, then Undo
  (presenter mode is switched off again after each round, untimed);
- Real model: the model switched from the encoder to the decoder at about MAX_TOKENS tokens (its run warmed first, so
  the server answers from its cache, as it does for the second student asking).

Every time is ``performance.now()`` inside the page. A capturing ``pointerdown`` stamps the click; a
PerformanceObserver collects the main thread's long tasks (over 50 ms); the wrapped WebSocket stamps every message.
"Finished" is the later of the last message received and the end of the last long task after the click; "long tasks"
is their total, the time the page could not answer a key or a click. A move is over when the script is idle and no
long task has run for 1.5 s. ``python -m bench.browser_moves --against DIR`` times the same moves on a second checkout
(DIR, e.g. ``git worktree add /tmp/base main``) in turn with this one, a move each a round, so a slow minute of a
shared machine falls on both alike.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
from pathlib import Path

from attnviz.classroom import share
from attnviz.core.limits import MAX_D_MODEL, MAX_DIM, MAX_TOKENS
from attnviz.core.playground_state import PlaygroundState
from attnviz.models.registry import MODEL_NAMES
from bench.browser_probes import LONG_TASKS_INIT, MOVE_DONE_JS, MOVE_QUIET_JS, SCRIPT_IDLE_JS, WS_LOG_INIT
from bench.harness.chromium import wait_for_app
from bench.product import one_word_tokens

VIEWPORT = {"width": 1280, "height": 800}
ROUNDS = 5
TARGET_MS = 1000.0  # a move a class is promised
ENCODER, DECODER = MODEL_NAMES
# Words the decoder's tokenizer cuts into one token each with a space: 120 of them, about the limit with its specials.
REAL_MODEL_WORDS = 120
MOVES = (
    "Multi-head: Causal mask",
    "Playground: presenter mode on",
    "Playground: Randomise",
    "Playground: Undo",
    "Real model: encoder → decoder",
)


def _link(page: str, settings: dict | None = None) -> str:
    state = PlaygroundState(sentence=one_word_tokens(MAX_TOKENS), d_k=MAX_DIM, d_v=MAX_DIM)
    return f"{'' if page == 'playground' else page}?{share.PARAM}={share.encode(state, page, settings)}"


def _open(browser, url: str):
    context = browser.new_context(viewport=VIEWPORT)
    context.add_init_script(WS_LOG_INIT)
    context.add_init_script(LONG_TASKS_INIT)
    page = context.new_page()
    page.set_default_timeout(180_000)
    page.goto(url)
    wait_for_app(page, timeout_ms=180_000)
    _wait_quiet(page)
    return context, page


def _wait_quiet(page) -> None:
    page.wait_for_function(SCRIPT_IDLE_JS)
    page.wait_for_function(MOVE_QUIET_JS, polling=200)
    page.wait_for_function(SCRIPT_IDLE_JS)


def _timed(page, act) -> dict:
    page.evaluate("() => { window.__longTasks = []; window.__clickAt = null; }")
    act()
    page.wait_for_function("() => window.__clickAt !== null")
    _wait_quiet(page)
    return page.evaluate(MOVE_DONE_JS)


def _pick_model(page, name: str) -> None:
    page.locator('[data-testid="stSelectbox"]').filter(has_text="Model").click()
    page.get_by_role("option", name=name, exact=True).click()


class Pages:
    """One checkout's three pages, open at the limits, and each round's moves on them."""

    def __init__(self, browser, url: str):
        self.opened = []
        self.multi_head = self._open(
            browser, f"{url}/{_link('multi_head', {'d_model': MAX_D_MODEL, 'heads': MAX_D_MODEL})}"
        )
        self.playground = self._open(browser, f"{url}/{_link('playground')}")
        words = " ".join(["word"] * REAL_MODEL_WORDS)
        self.real_model = self._open(
            browser,
            f"{url}/real_model?{share.PARAM}={share.encode(PlaygroundState(), 'real_model', {'sentence': words})}",
        )
        for model in (DECODER, ENCODER):  # the decoder's run computed once, before any timing
            _pick_model(self.real_model, model)
            self.real_model.wait_for_timeout(100)
            _wait_quiet(self.real_model)

    def _open(self, browser, url: str):
        context, page = _open(browser, url)
        self.opened.append(context)
        return page

    def close(self) -> None:
        for context in self.opened:
            context.close()

    def round(self) -> dict[str, dict]:
        mh, pg, rm = self.multi_head, self.playground, self.real_model
        presenter = pg.get_by_text("Presenter mode", exact=True)
        times = {}
        mh.bring_to_front()
        causal = mh.locator('[data-testid="stCheckbox"]').filter(has_text="Causal mask")
        times[MOVES[0]] = _timed(mh, lambda: causal.get_by_text("Causal mask (decoder)").click())
        pg.bring_to_front()
        times[MOVES[1]] = _timed(pg, presenter.click)
        times[MOVES[2]] = _timed(pg, lambda: pg.get_by_role("button", name="Randomise").click())
        times[MOVES[3]] = _timed(pg, lambda: pg.locator(".attnviz-rail button").filter(has_text="Undo").click())
        _timed(pg, presenter.click)  # presenter mode off again: the next round switches it on
        rm.bring_to_front()
        times[MOVES[4]] = _timed(rm, lambda: _pick_model(rm, DECODER))
        _timed(rm, lambda: _pick_model(rm, ENCODER))
        return times


def measure(browser, urls: dict[str, str], rounds: int = ROUNDS) -> dict[str, dict[str, list[dict]]]:
    """Each checkout's (``urls``: name → app URL) five moves, a round of each in turn, ``rounds`` counted rounds after
    one warm-up: {checkout: {move: [timings]}}."""
    results = {name: {move: [] for move in MOVES} for name in urls}
    with contextlib.ExitStack() as stack:
        opened = {}
        for name, url in urls.items():
            opened[name] = Pages(browser, url)
            stack.callback(opened[name].close)
        for round_ in range(rounds + 1):
            for name, pages in opened.items():
                for move, timing in pages.round().items():
                    if round_:
                        results[name][move].append(timing)
    return results


def rows(results: dict[str, list[dict]], checkout: str = "") -> list[dict]:
    """The benchmark's rows for one checkout's moves: the median of "finished", with long tasks and bytes."""
    table = []
    for move, timings in results.items():
        finished = statistics.median(t["finished"] for t in timings)
        long_ms = statistics.median(t["long"] for t in timings)
        kib = statistics.median(t["bytesIn"] for t in timings) / 1024
        table.append(
            {
                "measure": f"browser {move}{f' ({checkout})' if checkout else ''}",
                "value": finished,
                "unit": "ms",
                "target": f"≤ {TARGET_MS:.0f}",
                "met": finished <= TARGET_MS,
                "n": len(timings),
                "detail": f"click → last reply and main thread done; long tasks {long_ms:.0f} ms (median), "
                f"longest {statistics.median(t['longest'] for t in timings):.0f} ms, {kib:.0f} KiB received",
            }
        )
    return table


def main(argv: list[str] | None = None) -> None:
    from playwright.sync_api import sync_playwright

    from bench.harness.chromium import find_browser, launch_chromium
    from bench.harness.server import REPO, StreamlitServer

    parser = argparse.ArgumentParser(prog="python -m bench.browser_moves", description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="another checkout, timed in turn with this one")
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args(argv)
    checkouts = {"this": REPO, **({"against": args.against.resolve()} if args.against else {})}
    with sync_playwright() as playwright, contextlib.ExitStack() as stack:
        browser = launch_chromium(playwright, find_browser()[0])
        stack.callback(browser.close)
        urls = {
            name: stack.enter_context(StreamlitServer(folder / "app.py", cwd=folder)).url
            for name, folder in checkouts.items()
        }
        for name, results in measure(browser, urls, args.rounds).items():
            for row, timings in zip(rows(results, name), results.values(), strict=True):
                print(f"{row['measure']}: {row['value']:.0f} ms; {row['detail']}")
                print("    finished, each round (ms):", [round(t["finished"]) for t in timings])


if __name__ == "__main__":
    main()
