"""The Playground as the product defines it, for the benchmarks that measure it: read from attnviz, never restated,
so that a benchmark follows the app when its first screen or its views change."""

from __future__ import annotations

from attnviz.lessons.playground import OPENING
from attnviz.playground.views import playground_views

FIRST_SCREEN_TOKENS = OPENING.n  # the sentence a student's first screen shows
PLAYGROUND_VIEWS = len(playground_views(OPENING))  # raw scores, scaled and masked scores, weights, outputs


def one_word_tokens(n: int) -> str:
    """A sentence of ``n`` words that are one token each: w0 w1 … (short labels, all different)."""
    return " ".join(f"w{i}" for i in range(n))
