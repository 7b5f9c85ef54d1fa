"""Server benchmark: AppTest rerun time per interaction on the Playground (a causal-mask toggle), per sentence length.

AppTest runs the whole script on every ``run()`` (it does not rerun a fragment on its own), so this is the cost of a
full Playground script run without a browser or a socket: the upper bound of what the server spends per click.
"""

from __future__ import annotations

import statistics
import time

from attnviz.core.limits import MAX_TOKENS
from attnviz.ui.state import control_key
from bench.harness.apptest import control_value, use_control
from bench.harness.server import REPO
from bench.product import FIRST_SCREEN_TOKENS, one_word_tokens

SIZES = (FIRST_SCREEN_TOKENS, 64, MAX_TOKENS, 2 * MAX_TOKENS)  # the last past the cap: the page cuts it
TOGGLES = 20
TARGET_FIRST_SCREEN_MS = 60.0  # at the first screen's size


def _toggle_times(at, toggles: int) -> list[float]:
    times = []
    for _ in range(toggles):
        turned_on = not control_value(at, "causal")
        started = time.perf_counter()
        use_control(at, "causal", turned_on)
        times.append((time.perf_counter() - started) * 1000)
        if at.exception:
            raise RuntimeError(f"the Playground raised during a causal toggle: {at.exception}")
    return times


def run(sizes=SIZES, toggles: int = TOGGLES) -> list[dict]:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60)
    at.run()  # imports plotly, pandas and the app: not counted
    if at.exception:
        raise RuntimeError(f"the Playground raised on its first run: {at.exception}")
    rows = []
    for n in sizes:
        at.text_input(key=control_key("sentence")).input(one_word_tokens(n)).run()
        _toggle_times(at, 2)  # warm-up, not counted
        times = _toggle_times(at, toggles)
        value = statistics.median(times)
        detail = f"full script run per toggle of the causal mask; min {min(times):.1f}, max {max(times):.1f} ms"
        if n > MAX_TOKENS:
            detail += f"; the page caps the sentence at {MAX_TOKENS} tokens, so this draws {MAX_TOKENS}"
        rows.append(
            {
                "measure": f"server AppTest rerun, n={n}",
                "value": value,
                "unit": "ms",
                "target": f"≤ {TARGET_FIRST_SCREEN_MS:.0f}" if n == FIRST_SCREEN_TOKENS else None,
                "met": value <= TARGET_FIRST_SCREEN_MS if n == FIRST_SCREEN_TOKENS else None,
                "n": len(times),
                "detail": detail,
            }
        )
    return rows
