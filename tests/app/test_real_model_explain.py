"""The Real model page's check of its chosen head (attnviz.ui.explain): every view's numbers and every sentence
beside them read back from the page and checked against numpy written out here, from the run's own arrays and the
model's weights (not attnviz.models.explain)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from attnviz.ui.lesson_plan import LESSON
from tests.app.test_real_model import DECODER, ENCODER, SENTENCE, page_with, ready, setting
from tests.support.apptest import as_read, click_cell, matrix_views, shown_matrix

PERCENT = 0.05  # a share written with one decimal, in percent


def explain_view(at) -> dict:
    return matrix_views(at, "rm.explain")["explain"]


def said(at, start: str) -> str:
    return next(as_read(m.value) for m in at.markdown if as_read(m.value).startswith(start))


def numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"\d+\.\d+", text)]


def own_rollout(attention: np.ndarray) -> np.ndarray:
    """Abnar & Zuidema's rollout with loops: (layers, n, n)."""
    layers, _, n, _ = attention.shape
    rolled, so_far = [], np.eye(n)
    for layer in range(layers):
        mixed = 0.5 * attention[layer].mean(axis=0) + 0.5 * np.eye(n)
        mixed = mixed / mixed.sum(axis=1, keepdims=True)
        so_far = mixed @ so_far
        rolled.append(so_far)
    return np.array(rolled)


def own_value_shares(model, run, layer: int, head: int) -> np.ndarray:
    """α_ij ‖v_j W_O^hᵀ‖ with the encoder's own output projection, each row divided by its sum."""
    out = model.weights[f"{layer}.o"].astype(np.float64)  # (d_in, d_out): rows d·h … d·(h+1) take head h
    d = run.v.shape[-1]
    norms = np.array([np.linalg.norm(vj @ out[d * head : d * (head + 1)]) for vj in run.v[layer, head].astype(float)])
    weighted = run.attention[layer, head] * norms[None, :]
    return weighted / weighted.sum(axis=1, keepdims=True)


def sinks_on(matrix: np.ndarray, sinks) -> float:
    """Averaged over the rows the head's summary counts: every token's but the sinks' (25% beside 27.3%)."""
    rows = [row for i, row in enumerate(matrix) if i not in sinks]
    return float(np.mean([sum(row[j] for j in sinks) / row.sum() for row in rows]))


@pytest.fixture
def page(encoder):
    at = page_with(ENCODER)
    setting(at, "selectbox", "layer").set_value(2)
    setting(at, "selectbox", "head").set_value(5)
    return at.run()


def test_each_view_shows_its_own_numbers_on_one_scale(page, encoder):
    run = encoder.run(SENTENCE)
    expected = {
        "raw": run.attention[2, 5],
        "value": own_value_shares(encoder, run, 2, 5),
        "rollout": own_rollout(run.attention)[2],
    }
    titles = {"raw": "Layer 3, head 6: raw attention", "value": "Layer 3, head 6: value-weighted",
              "rollout": "Rolled out to layer 3"}  # fmt: skip
    for view in ("raw", "value", "rollout"):
        setting(page, "radio", "view").set_value(view).run()
        drawn = explain_view(page)
        assert drawn["title"] == titles[view] and drawn["range"] == [0.0, 1.0]  # one 0-to-1 scale for every view
        np.testing.assert_allclose(shown_matrix(drawn), expected[view], rtol=5.001e-4, atol=1e-12)
        assert not page.exception


def test_the_sinks_share_in_each_view_is_the_shown_maps(page, encoder):
    run = encoder.run(SENTENCE)
    line = said(page, "The sinks' share of the other tokens' rows, on [CLS] and [SEP]:")
    raw, value, rolled = numbers(line)[:3]
    assert raw == pytest.approx(100 * sinks_on(run.attention[2, 5], run.sinks), abs=PERCENT)
    assert value == pytest.approx(100 * sinks_on(own_value_shares(encoder, run, 2, 5), run.sinks), abs=PERCENT)
    assert rolled == pytest.approx(100 * sinks_on(own_rollout(run.attention)[2], run.sinks), abs=PERCENT)
    verdict = said(page, "In this head")
    assert value < raw and f"take {raw:.1f}% of the weight but hand on {value:.1f}% of what arrives" in verdict


def test_the_querys_row_names_its_largest_key_in_each_view(page, encoder):
    run = encoder.run(SENTENCE)
    click_cell(page, "rm.explain", "explain", 10, 3)  # a click on the map chooses its row as the query: “it”
    assert setting(page, "selectbox", "query").value == 10
    line = said(page, "Where query 10 (“it”) puts most: ")
    raw, rolled = run.attention[2, 5][10], own_rollout(run.attention)[2][10]
    assert f"“{run.tokens[int(np.argmax(raw))]}” ({raw.max():.2f}) in the raw attention" in line  # the map shown
    # The rolled-out map is not drawn: its key is named, and no number the page does not show is said.
    assert f"; “{run.tokens[int(np.argmax(rolled))]}” rolled out." in line and f"{rolled.max():.2f}" not in line


def test_taking_a_word_away_from_the_encoder_says_what_its_output_did(page, encoder):
    run = encoder.run(SENTENCE)
    setting(page, "selectbox", "removed").set_value(2).run()  # “animal”
    ready(page)
    line = said(page, "Without “animal” (token 2)")
    h, g = run.hidden.astype(float), encoder.run(SENTENCE, 2).hidden.astype(float)
    cosine = h.mean(0) @ g.mean(0) / np.linalg.norm(h.mean(0)) / np.linalg.norm(g.mean(0))
    moved = np.linalg.norm(h - g, axis=1)
    at = int(moved.argmax())
    assert f"cosine {cosine:.3f}" in line
    assert (
        f"is token {at} (“{run.tokens[at]}”)'s: by {moved[at]:.2f}, against its length {np.linalg.norm(h[at]):.2f}"
        in line
    )
    assert encoder.run(SENTENCE, 2).attention[..., 2].max() == 0  # the token really was taken away as a key


def softmax(logits: np.ndarray) -> np.ndarray:
    e = np.exp(logits.astype(float) - logits.max())
    return e / e.sum()


def test_taking_a_token_away_from_the_decoder_shows_both_predictions(decoder):
    sentence = "The capital of France is"
    at = page_with(DECODER, sentence)
    run = decoder.run(sentence)
    options = setting(at, "selectbox", "removed").options
    assert options[0] == "nothing" and not any(o.startswith("0:") for o in options)  # the first token stays
    setting(at, "selectbox", "removed").set_value(3).run()  # “ France”
    ready(at)
    p, q = softmax(run.last_logits), softmax(decoder.run(sentence, 3).last_logits)
    table = at.table[0].value
    before, after = np.argsort(-p, kind="stable")[:5], np.argsort(-q, kind="stable")[:5]
    assert [float(x.rstrip("%")) for x in table["probability"]] == pytest.approx(100 * p[before], abs=PERCENT)
    assert [float(x.rstrip("%")) for x in table["probability after"]] == pytest.approx(100 * q[after], abs=PERCENT)
    assert table["with every token"][0] == f"“{decoder.token_text(int(before[0]))}”" == "“ Paris”"
    line = said(at, "Without “ France” (token 3)")
    assert before[0] != after[0] and "the most likely next token changes from “ Paris”" in line
    assert f"Total variation distance between the two predictions: {0.5 * np.abs(p - q).sum():.3f}" in line


def test_taking_nothing_away_says_nothing(page):
    setting(page, "selectbox", "removed").set_value("none").run()
    assert not [m for m in page.markdown if as_read(m.value).startswith("Without")] and not page.table


def test_a_students_own_take_away_solves_its_challenge(encoder):
    from tests.app.test_challenges import bar, try_challenge

    at = ready(try_challenge("embedding_turns"))
    assert "Solved!" not in bar(at)
    setting(at, "selectbox", "removed").set_value(2).run()  # “animal”: cosine 0.88
    ready(at)
    assert "Solved!" in bar(at) and "cosine 0.880" in said(at, "Without “animal” (token 2)")


def button_disabled(at, key: str) -> bool:
    return bool(at.button(key=key).proto.disabled)


def test_the_ready_lesson_is_presented_on_the_real_model_page_question_first(encoder, decoder):
    from tests.app.test_lesson_plans import follow, present_ready

    at = ready(present_ready("Is attention an explanation?"))
    assert at.session_state["presenter"] is True and "step 1 of 4" in "\n".join(m.value for m in at.markdown)
    assert any("Will taking away the token this head attends to most change the next word?" in as_read(m.value)
               for m in at.markdown)  # fmt: skip
    assert setting(at, "selectbox", "layer").value == 29 and setting(at, "selectbox", "head").value == 1
    row = shown_matrix(matrix_views(at, "rm.head")["head"])[4]
    assert np.nanargmax(row) == 4 and f"{np.nanmax(row):.2f}" == "0.62"  # the note's number, as the page shows it
    shown, changes = [], []
    for _ in range(7):  # Answer and Next through the four steps (steps 1, 2 and 3 ask first), and to the end
        at.button(key="lesson.next").click().run()
        ready(follow(at))
        assert not at.exception
        shown.append((setting(at, "selectbox", "removed").value, setting(at, "radio", "view").value))
        changes.append(next((as_read(m.value) for m in at.markdown if as_read(m.value).startswith("Without")), ""))
    assert [shown[i] for i in (0, 2, 4, 5)] == [(4, "raw"), (3, "raw"), ("none", "value"), ("none", "rollout")]
    assert shown[1] == ("none", "raw") and changes[1] == ""  # step 2's question holds back its token's removal
    assert shown[3] == ("none", "raw")  # and step 3's its view: value-weighted says the number asked for
    assert at.session_state[LESSON].run[1] == 4  # past the last step: the end screen
    assert "the most likely next token stays “ Paris” (77.3% → 61.5%)" in changes[0]  # as the note says
    assert "changes from “ Paris” (77.3%) to “␣” (7.4%)" in changes[2] and "0.846" in changes[2]


def test_the_views_keep_the_sinks_when_the_maps_above_hide_them(page, encoder):
    setting(page, "toggle", "hide_sinks").set_value(True).run()
    assert any("The sinks stay in these views" in c.value for c in page.caption)
    np.testing.assert_allclose(shown_matrix(explain_view(page)), encoder.run(SENTENCE).attention[2, 5], rtol=5.001e-4)
