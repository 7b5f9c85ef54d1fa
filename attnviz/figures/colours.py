"""Colours and colour ranges every chart shares, so a colour keeps one meaning on every page.

Scales are colour-blind safe: Viridis (sequential) for weights, blue–red (diverging, centred on 0) for scores and
values, and the Okabe–Ito palette for lines and markers.
"""

from __future__ import annotations

import numpy as np

VIRIDIS = ["#440154", "#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89", "#35b779", "#6ece58", "#b5de2b", "#fde725"]
BLUE_RED = [
    "#053061",
    "#2166ac",
    "#4393c3",
    "#92c5de",
    "#d1e5f0",
    "#f7f7f7",
    "#fddbc7",
    "#f4a582",
    "#d6604d",
    "#b2182b",
    "#67001f",
]
MASKED_GREY = "rgba(128,128,128,0.35)"
CHANGED = "#E69F00"  # Okabe–Ito orange: cells the last change altered
FOCUS = "#000000"

BLUE, ORANGE, GREEN, VERMILION, PURPLE, SKY, YELLOW = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#D55E00",
    "#CC79A7",
    "#56B4E9",
    "#F0E442",
)
UNSCALED, SCALED = VERMILION, BLUE  # the same two colours for "without √d_k" and "with" on every lesson chart


def signed_log(values, reach: float) -> np.ndarray:
    """Colour positions in [−1, 1] on a signed log scale: sign(x)·log(1 + |x|) / log(1 + reach).

    Linear near 0 and compressed far out, so one huge score (800 in the movie example) does not turn every other cell
    white, and one edited cell does not wash out the rest. ``reach`` fixes the scale: pass the same reach before and
    after a toggle and the colours change only where the numbers do.
    """
    values = np.asarray(values, dtype=float)
    span = np.log1p(max(float(reach), 1e-12))
    with np.errstate(invalid="ignore"):
        return np.clip(np.sign(values) * np.log1p(np.abs(values)) / span, -1.0, 1.0)


def reach_of(matrix) -> float:
    """The largest finite |value| (1 for an all-zero matrix, so the scale is never empty)."""
    matrix = np.asarray(matrix, dtype=float)
    finite = np.abs(matrix[np.isfinite(matrix)])
    return float(finite.max()) if finite.size and finite.max() > 0 else 1.0
