"""Why-scale page: the d_k slider, the seed and the row size, every shown number checked by loops.

The variance is recomputed with plain loops from the same documented draw (dimension by dimension from
default_rng(seed)); the weights from tests.reference.naive_attention; entropies with math.log2.
"""

import math

import numpy as np
import pytest

from attnviz import random_qkv
from tests.reference import naive_attention
from tests.support.apptest import as_read, chart, open_page, setting_key, texts, trace

PAGE = "pages/why_scale.py"
N_PAIRS, WIDEST = 4000, 512


@pytest.fixture
def page():
    return open_page(PAGE)


def metrics(at) -> list[str]:
    return [m.value for m in at.metric]


def variance_by_loops(d_k: int, seed: int) -> float:
    """Var(q·k) over the page's 4,000 pairs: the first d_k of 512 dimensions drawn in order, summed in a loop."""
    draw = np.random.default_rng(seed).standard_normal((WIDEST, 2, N_PAIRS))  # (dimension, q or k, pair)
    q, k = draw[:d_k, 0, :].T.tolist(), draw[:d_k, 1, :].T.tolist()
    scores = [sum(a * b for a, b in zip(qs, ks, strict=True)) for qs, ks in zip(q, k, strict=True)]
    mean = sum(scores) / N_PAIRS
    return sum((s - mean) ** 2 for s in scores) / N_PAIRS


def rows_by_loops(d_k: int, n_tokens: int, seed: int, *, scale: bool) -> list[list[float]]:
    Q, K, V = random_qkv(n_tokens, d_k, 1, seed)  # the page's random vectors
    return naive_attention(Q.tolist(), K.tolist(), V.tolist(), scale=scale)[1]


def entropy_bits(row) -> float:
    return -sum(w * math.log2(w) for w in row if w > 0)


def check_metrics(page, d_k: int, seed: int, n_tokens: int):
    """All six metrics, as shown, against loops."""
    raw = variance_by_loops(d_k, seed)
    unscaled = rows_by_loops(d_k, n_tokens, seed, scale=False)
    scaled = rows_by_loops(d_k, n_tokens, seed, scale=True)
    mean = lambda values: sum(values) / len(values)  # noqa: E731
    assert metrics(page) == [
        f"{raw:.3f}",  # to the digits of the scaled one beside it ("1.00" beside "1.004" at d_k = 1)
        f"{raw / d_k:.3f}",
        f"{mean([entropy_bits(r) for r in unscaled]):.2f} bits",
        f"{mean([entropy_bits(r) for r in scaled]):.2f} bits",
        f"{mean([max(r) for r in unscaled]):.3f}",
        f"{mean([max(r) for r in scaled]):.3f}",
    ]
    np.testing.assert_allclose(trace(page, "why_row", 0, "y"), unscaled[0], rtol=1e-9, atol=1e-300)
    np.testing.assert_allclose(trace(page, "why_row", 1, "y"), scaled[0], rtol=1e-9)
    assert f"largest weight is **{max(unscaled[0]):.3f}**; scaled, it is **{max(scaled[0]):.3f}**" in texts(
        page.markdown
    )
    return raw


def test_default_dk_64_every_number_by_loops(page):
    raw = check_metrics(page, 64, 0, 16)
    assert raw == pytest.approx(64, rel=0.1)  # and the theory: Var(q·k) = d_k
    measured = trace(page, "why_variance", 2, "y")
    widths = trace(page, "why_variance", 2, "x")
    assert list(widths) == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]
    for d_k, value in zip(widths[:5], measured[:5], strict=True):
        assert value == pytest.approx(variance_by_loops(int(d_k), 0), rel=1e-9)
    np.testing.assert_allclose(trace(page, "why_variance", 3, "y") * widths, measured, rtol=1e-12)
    np.testing.assert_allclose(measured / widths, 1, rtol=0.12)
    assert "log₂ 16 = 4.00 bits" in texts(page.markdown)


def test_dk_slider_to_512_saturates_the_unscaled_row(page):
    page.slider(key=setting_key("why_scale", "d_k")).set_value(512).run()
    assert not page.exception
    check_metrics(page, 512, 0, 16)
    assert trace(page, "why_row", 0, "y").max() > 0.95 and trace(page, "why_row", 1, "y").max() < 0.5
    saturation = [entropy_bits(r) for r in rows_by_loops(512, 16, 0, scale=False)]
    np.testing.assert_allclose(trace(page, "why_saturation", 0, "y")[-1], sum(saturation) / 16, rtol=1e-9)


def test_dk_1_reads_the_same_variance_twice_and_the_slider_end_is_said(page):
    """"Var(q·k) 1.00" beside "Var(q·k / √d_k) 1.004" (÷ √1 changes nothing), "all 2 query rows", and
    "Slide d_k up" at the slider's largest d_k."""
    page.slider(key=setting_key("why_scale", "d_k")).set_value(1).run()
    page.slider(key=setting_key("why_scale", "tokens")).set_value(2).run()
    raw, scaled = metrics(page)[:2]
    assert raw == scaled
    assert "Averaged over both query rows of one random Q and K at each d_k." in texts(page.caption)
    assert "all 2" not in texts(page.caption)
    page.slider(key=setting_key("why_scale", "d_k")).set_value(512).run()
    said = texts(page.markdown)
    assert "Slide d_k up" not in said and "d_k = 512 is the slider's largest: slide it down" in said


def test_odd_dk_is_added_to_the_curve(page):
    page.slider(key=setting_key("why_scale", "d_k")).set_value(100).run()
    assert not page.exception
    assert 100 in trace(page, "why_variance", 2, "x")
    assert "Var(q·k) at d_k = 100" in [m.label for m in page.metric]
    check_metrics(page, 100, 0, 16)


def test_seed_and_token_count(page):
    page.number_input(key=setting_key("why_scale", "seed")).set_value(7).run()
    page.slider(key=setting_key("why_scale", "tokens")).set_value(4).run()
    assert not page.exception
    assert len(trace(page, "why_row", 0, "y")) == 4
    check_metrics(page, 64, 7, 4)
    assert "log₂ 4 = 2.00 bits" in texts(page.markdown)


def test_words_say_number_of_dimensions_and_explain_the_gradient(page):
    """D_k counts dimensions, it is not a length; no unexplained "gradient"."""
    words = as_read(texts(page.markdown))
    assert "the number of dimensions d_k counts the numbers in a vector; it is not the vector's length |q|" in words
    assert "gradient" not in words and "one-hot" not in words
    assert "a small nudge to any score barely changes any weight" in words


def test_the_variance_grows_like_d_k_and_the_spread_like_its_square_root(page):
    """The chart plots a variance, so its title says the variance grows like d_k; the text speaks of the
    spread (the standard deviation), which grows like √d_k. Both are read off the chart's own measurements."""
    widths, measured = trace(page, "why_variance", 2, "x"), trace(page, "why_variance", 2, "y")
    np.testing.assert_allclose(measured / widths, 1, rtol=0.12)  # the variance ∝ d_k ...
    np.testing.assert_allclose(np.sqrt(measured) / np.sqrt(widths), 1, rtol=0.06)  # ... so the spread ∝ √d_k
    title = chart(page, "why_variance")["layout"]["title"]["text"]
    assert title == "Var(q·k) grows like d_k; ÷ √d_k, it stays near 1"
    assert "When the scores spread out like √d_k" in as_read(texts(page.markdown))


def test_the_scaled_series_say_they_are_divided_by_the_square_root_of_d_k(page):
    """The scores are divided by √d_k, so no legend says "scaled by √d_k" (a multiplication)."""
    d_k = 64
    Q, K, _ = random_qkv(16, d_k, 1, 0)  # the page's vectors: query 0's row
    scores = np.array([sum(a * b for a, b in zip(Q[0], k, strict=True)) for k in K])
    divided = np.exp(scores / math.sqrt(d_k)) / np.exp(scores / math.sqrt(d_k)).sum()
    np.testing.assert_allclose(trace(page, "why_row", 1, "y"), divided, rtol=1e-9)
    names = [t["name"] for key in ("why_row", "why_saturation") for t in chart(page, key)["data"] if "name" in t]
    assert "divided by √d_k" in names and not [name for name in names if "scaled by" in name]


def test_the_page_shows_the_count_of_one_hot_rows_the_challenge_checks(page):
    """The d_k challenge said Solved at d_k = 131 beside "largest weight, unscaled" 0.964 < 0.99; the count
    of rows it checks (most rows one-hot) was never shown. Counted here by loops over the reference's weights."""
    page.slider(key=setting_key("why_scale", "d_k")).set_value(131).run()
    Q, K, V = random_qkv(16, 131, 1, 0)
    counts = []
    for scale in (False, True):
        _, weights, _ = naive_attention(Q.tolist(), K.tolist(), V.tolist(), scale=scale)
        counts.append(sum(max(row) >= 0.99 for row in weights))
    assert counts[0] > 8 and f"**{counts[0]} of 16** unscaled, **{counts[1]} of 16** scaled." in texts(page.markdown)


def test_in_predict_mode_d_k_waits_for_a_guess_judged_by_the_curves():
    """"Predict first" was a sentence with nothing to commit a guess to. Now a guess before the move: in
    predict mode the d_k slider waits for it, and the reveal says the curves' own numbers."""
    from tests.support.apptest import open_app, use_control

    at = open_app()
    use_control(at, "predict", "most")
    at.switch_page("pages/why_scale.py").run()
    slider = at.slider(key=setting_key("why_scale", "d_k"))
    guess = at.radio(key="ask.why_scale.spread")
    assert slider.disabled and guess.value is None and guess.label.startswith("Predict first: as d_k grows")
    guess.set_value(1).run()  # "…the top weight shrinks": not what the curves do
    assert not at.slider(key=setting_key("why_scale", "d_k")).disabled
    said = texts(at.info)
    assert said.startswith("Not this time: you predicted “Scores spread out; the top weight shrinks”")
    assert "From d_k = 1 to d_k = 512, Var(q·k) goes from " in said
