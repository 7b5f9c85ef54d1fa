"""Contrast by ratio, not by eye (WCAG 2.1): every colour a view can paint, swept along both palettes, carries its
number at 4.5 : 1 or more in the text colour the browser picks (attnviz/component/colour.js: black or white,
whichever contrasts more), and a changed cell's box (black under the change orange) stands out at 3 : 1 or more."""

import numpy as np
import pytest

from attnviz.figures.colours import BLUE_RED, CHANGED, MASKED_GREY, VIRIDIS


def rgb(hex_colour: str) -> np.ndarray:
    return np.array([int(hex_colour[k : k + 2], 16) for k in (1, 3, 5)], dtype=float)


def luminance(colour) -> float:
    channel = np.asarray(colour, dtype=float) / 255
    linear = np.where(channel <= 0.04045, channel / 12.92, ((channel + 0.055) / 1.055) ** 2.4)
    return float(linear @ [0.2126, 0.7152, 0.0722])


def ratio(one, other) -> float:
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def painted(palette: list[str]) -> list[np.ndarray]:
    """Every colour the palette gives, 1,001 positions along it, as the browser interpolates its stops."""
    stops = np.array([rgb(colour) for colour in palette])
    spans, colours = len(stops) - 1, []
    for t in np.linspace(0, spans, 1001):
        k = min(int(t), spans - 1)
        colours.append(stops[k] * (1 - (t - k)) + stops[k + 1] * (t - k))
    return colours


def masked_greys() -> list[np.ndarray]:
    grey, alpha = np.array([128.0, 128.0, 128.0]), float(MASKED_GREY.rsplit(",", 1)[1].rstrip(")"))
    return [grey * alpha + rgb(page) * (1 - alpha) for page in ("#ffffff", "#000000")]  # light and dark themes


@pytest.mark.parametrize("palette", [VIRIDIS, BLUE_RED], ids=["viridis", "blue-red"])
def test_every_number_meets_4_5_to_1_on_every_colour_of_the_palette(palette):
    black, white = np.zeros(3), np.full(3, 255.0)
    worst = min(max(ratio(black, cell), ratio(white, cell)) for cell in [*painted(palette), *masked_greys()])
    assert worst >= 4.5


@pytest.mark.parametrize("palette", [VIRIDIS, BLUE_RED], ids=["viridis", "blue-red"])
def test_a_change_box_stands_out_at_3_to_1_on_every_colour(palette):
    worst = min(max(ratio(np.zeros(3), cell), ratio(rgb(CHANGED), cell)) for cell in painted(palette))
    assert worst >= 3


def test_choosing_by_lightness_failed_where_ratio_does_not():
    """The old rule (white text when perceived lightness ≤ 140) put white on #4d99c6 at 3.1 : 1."""
    cell = rgb("#4d99c6")
    assert 0.299 * cell[0] + 0.587 * cell[1] + 0.114 * cell[2] <= 140 and ratio(np.full(3, 255.0), cell) < 3.2
    assert ratio(np.zeros(3), cell) >= 4.5
