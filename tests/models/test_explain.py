"""attnviz.models.explain against references computed in torch from Hugging Face transformers' own attentions, value
projections and masked runs (tests/tools/make_model_fixtures.py), held-out sentences included; and the properties
every rollout, value-weighted map and run without a token must have."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attnviz import AttnvizInputError
from attnviz.models.explain import (
    EmbeddingChange,
    NextTokenChange,
    output_change,
    rollout,
    shares,
    sink_share,
    value_weighted,
)
from tests.models.conftest import ATTENTION_ATOL, RELATIVE, prefix, relative_error

EXPLAINED = range(5)  # the reference run's three sentences, then two held out
REMOVED = range(3)


def _explained(model, reference, i):
    return model.run(str(reference[f"{prefix(model)}_explain_sentences"][i]))


@pytest.mark.parametrize("i", EXPLAINED)
def test_rollout_matches_the_reference(model, reference, i):
    expected = reference[f"{prefix(model)}_explain_{i}_rollout"]  # (layers, n, n)
    rolled = rollout(_explained(model, reference, i))
    assert rolled.shape == expected.shape
    assert np.abs(rolled - expected).max() <= ATTENTION_ATOL


@pytest.mark.parametrize("i", EXPLAINED)
def test_value_weighted_attention_matches_the_reference(model, reference, i):
    expected = reference[f"{prefix(model)}_explain_{i}_value_weighted"]  # (layers, heads, n, n)
    weighted = value_weighted(_explained(model, reference, i))
    assert weighted.shape == expected.shape
    assert np.abs(expected).max() > 1  # value norms reach 80 in the decoder: the tolerance is relative to that
    assert relative_error(weighted, expected) <= RELATIVE
    assert np.abs(shares(weighted) - shares(expected)).max() <= ATTENTION_ATOL  # as the page shows them, in [0, 1]


@pytest.mark.parametrize("i", REMOVED)
def test_a_run_without_a_token_matches_transformers_with_that_key_masked(model, reference, i):
    key = prefix(model)
    sentence, index = str(reference[f"{key}_removed_sentences"][i]), int(reference[f"{key}_removed_index"][i])
    run = model.run(sentence)
    without = run.without(index)
    assert without.removed == index and without.tokens == run.tokens and type(without) is type(run)
    expected = reference[f"{key}_removed_{i}_attention"]
    assert np.abs(without.attention - expected).max() <= ATTENTION_ATOL
    hidden = reference[f"{key}_removed_{i}_hidden"]
    assert relative_error(without.hidden, hidden) <= RELATIVE
    assert not np.allclose(without.hidden, run.hidden, atol=1e-3)  # the token's absence did reach the output
    if model.causal:
        logits = reference[f"{key}_removed_{i}_last_logits"]
        assert relative_error(without.last_logits, logits) <= RELATIVE  # logits reach about 40
        assert without.next_token(top=1).ids[0] == logits.argmax()


def test_rollout_rows_sum_to_one_and_a_decoder_never_draws_on_the_future(model):
    run = model.run("Rollout multiplies the layers' attention, with the residual, through the model.")
    rolled = rollout(run)
    n = len(run.tokens)
    assert rolled.shape == (run.n_layers, n, n) and (rolled >= 0).all()
    np.testing.assert_allclose(rolled.sum(axis=-1), 1.0, atol=1e-12)
    if run.causal:
        assert (rolled[:, np.triu(np.ones((n, n), bool), 1)] == 0).all()


def test_rollout_of_the_first_layer_is_half_its_average_head_plus_half_itself(model):
    run = model.run("One layer: half the average head, half the token itself.")
    expected = 0.5 * run.attention[0].mean(axis=0) + 0.5 * np.eye(len(run.tokens))
    np.testing.assert_allclose(rollout(run)[0], expected, atol=1e-12)
    second = 0.5 * run.attention[1].mean(axis=0) + 0.5 * np.eye(len(expected))
    np.testing.assert_allclose(rollout(run)[1], second @ expected, atol=1e-12)


def test_value_weighted_is_the_weight_times_its_keys_value_norm_through_the_output(encoder):
    run = encoder.run("A weight says how much is taken, not how much arrives.")
    layer, head, query, key = 2, 5, 3, 7
    out = encoder.weights[f"{layer}.o"].astype(np.float64)  # (384, 384), (d_in, d_out): rows 32h… take head h
    f = run.v[layer, head, key].astype(np.float64) @ out[32 * head : 32 * (head + 1)]  # (384,)
    expected = run.attention[layer, head, query, key] * np.linalg.norm(f)
    assert value_weighted(run)[layer, head, query, key] == pytest.approx(expected, rel=1e-6)


def test_value_weighted_uses_the_decoders_shared_value_heads(decoder):
    run = decoder.run("Three query heads share one value head.")
    norms = run.value_norms  # (layers, heads, n)
    np.testing.assert_array_equal(run.v[:, 0], run.v[:, 1])  # heads 1–3 read the same values…
    assert not np.allclose(norms[:, 0], norms[:, 1])  # …through their own slices of the output projection
    out = decoder.weights["4.o"].astype(np.float64)  # (576, 576), (d_in, d_out)
    f = run.v[4, 7, 2].astype(np.float64) @ out[64 * 7 : 64 * 8]
    assert norms[4, 7, 2] == pytest.approx(np.linalg.norm(f), rel=1e-6)


def test_bert_hands_on_little_through_its_sinks(encoder):
    run = encoder.run("The animal didn't cross the street because it was too tired.")
    raw = np.mean([sink_share(run.attention[-1, h], run.sinks) for h in range(run.n_heads)])
    weighted = value_weighted(run)
    arrives = np.mean([sink_share(weighted[-1, h], run.sinks) for h in range(run.n_heads)])
    assert raw > 0.4 and arrives < raw / 2  # Kobayashi et al.'s finding, on this sentence


@pytest.mark.parametrize("index", [1, 3, -1])
def test_a_removed_key_has_weight_zero_and_rows_still_sum_to_one(model, index):
    run = model.run("Take one token away and the others share its attention.")
    index = index % len(run.tokens)
    without = run.without(index)
    assert (without.attention[..., index] == 0).all()
    np.testing.assert_allclose(without.attention.sum(axis=-1), 1.0, atol=1e-12)
    np.testing.assert_allclose(rollout(without).sum(axis=-1), 1.0, atol=1e-12)
    column = rollout(without)[..., index]  # (layers, n): only the token's own residual still carries it
    halves = 0.5 ** np.arange(1, run.n_layers + 1)  # half of it stays through each layer
    np.testing.assert_allclose(column, np.eye(len(run.tokens))[index] * halves[:, None], atol=1e-15)
    assert run.without(index) is without  # kept with the model's recent runs


def test_taking_away_the_decoders_last_token_changes_only_its_own_row(decoder):
    run = decoder.run("Only the last token looks at the last token")
    without = run.without(len(run.tokens) - 1)
    np.testing.assert_array_equal(without.attention[:, :, :-1], run.attention[:, :, :-1])  # no earlier query sees it
    assert not np.array_equal(without.last_logits, run.last_logits)


def _removed_with_full_run(model, reference) -> tuple[str, int]:
    """The reference sentence stored both whole and with a token masked in transformers: (sentence, index)."""
    key = prefix(model)
    sentence, index = str(reference[f"{key}_removed_sentences"][0]), int(reference[f"{key}_removed_index"][0])
    assert str(reference[f"{key}_sentences"][0]) == sentence
    return sentence, index


def _probabilities(logits) -> np.ndarray:
    """Transformers' logits as probabilities, by log-sum-exp (not the product's shifted exponentials)."""
    logits = np.asarray(logits, dtype=np.float64)
    return np.exp(logits - np.logaddexp.reduce(logits))


def test_the_decoders_change_is_transformers_top_five_and_total_variation(decoder, reference):
    sentence, index = _removed_with_full_run(decoder, reference)
    run = decoder.run(sentence)
    change = output_change(run, run.without(index))
    assert isinstance(change, NextTokenChange) and change.removed == index
    p = _probabilities(reference["decoder_0_last_logits"])  # transformers' next token, the sentence whole
    q = _probabilities(reference["decoder_removed_0_last_logits"])  # and with the token's key masked
    assert change.total_variation == pytest.approx(np.clip(p - q, 0, None).sum(), abs=1e-5)  # the mass that moved
    assert change.total_variation > 0.1  # this token matters to the next one: a change of zero would pass above
    np.testing.assert_array_equal(change.before.ids, np.argsort(-p, kind="stable")[:5])
    np.testing.assert_array_equal(change.after.ids, np.argsort(-q, kind="stable")[:5])
    np.testing.assert_allclose(change.before.probabilities, np.sort(p)[::-1][:5], rtol=1e-4)
    np.testing.assert_allclose(change.after.probabilities, np.sort(q)[::-1][:5], rtol=1e-4)
    assert change.top_changed is bool(p.argmax() != q.argmax())


def test_the_encoders_change_is_transformers_cosine_and_largest_move(encoder, reference):
    sentence, index = _removed_with_full_run(encoder, reference)
    run = encoder.run(sentence)
    change = output_change(run, run.without(index))
    assert isinstance(change, EmbeddingChange) and change.removed == index
    whole = reference["encoder_0_hidden"].astype(np.float64)  # transformers' final vectors, the sentence whole
    masked = reference["encoder_removed_0_hidden"].astype(np.float64)  # and with the token's key masked
    a, b = (vectors.mean(axis=0) / np.sqrt((vectors.mean(axis=0) ** 2).sum()) for vectors in (whole, masked))
    assert change.cosine == pytest.approx(1 - ((a - b) ** 2).sum() / 2, abs=1e-6)  # unit vectors: |a − b|² = 2 − 2cos
    moved = np.sqrt(((whole - masked) ** 2).sum(axis=-1))  # (n,)
    assert change.at == moved.argmax() and change.largest == pytest.approx(moved.max(), rel=1e-5)
    assert change.size == pytest.approx(np.sqrt((whole[change.at] ** 2).sum()), rel=1e-5)
    assert change.cosine < 0.95  # taking the token away did move the sentence


@pytest.mark.parametrize(
    ("index", "message"),
    [(99, "no token 99 to take away: choose one from 0 to"), (-1, "no token -1"), ("2", "no token '2'"),
     (True, "no token True")],
)  # fmt: skip
def test_a_bad_index_is_refused(model, index, message):
    with pytest.raises(AttnvizInputError, match=message):
        model.run("Hello there").without(index)


def test_the_decoders_first_token_cannot_be_taken_away(decoder):
    with pytest.raises(AttnvizInputError, match="The first token cannot be taken away"):
        decoder.run("Hello there").without(0)


def test_a_run_without_a_token_cannot_lose_another_nor_be_compared_the_wrong_way(encoder):
    run = encoder.run("Hello there")
    with pytest.raises(AttnvizInputError, match="already taken away"):
        run.without(1).without(2)
    with pytest.raises(AttnvizInputError, match="Compare a sentence's run"):
        output_change(run.without(1), run)


def test_shares_and_sink_share():
    values = np.array([[2.0, 2.0, 0.0], [0.0, 0.0, 0.0], [1.0, 0.0, 3.0]])
    np.testing.assert_array_equal(shares(values), [[0.5, 0.5, 0], [0, 0, 0], [0.25, 0, 0.75]])
    assert sink_share(values, (0,)) == pytest.approx((0.5 + 0 + 0.25) / 3)


PROPERTY_SENTENCE = "Any token taken away leaves every row summing to one."


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.floats(0, 1, exclude_max=True), layer=st.integers(0, 5), head=st.integers(0, 11))
def test_any_token_taken_away_from_any_run_keeps_the_properties(encoder, decoder, where, layer, head):
    for model in (encoder, decoder):
        run = model.run(PROPERTY_SENTENCE)
        n = len(run.tokens)
        index = 1 + int(where * (n - 1))  # any token but the first, which a decoder cannot lose
        without = run.without(index)
        assert (without.attention[..., index] == 0).all() and (without.attention >= 0).all()
        np.testing.assert_allclose(without.attention.sum(axis=-1), 1.0, atol=1e-12)
        for shown in (run, without):
            rows = shares(value_weighted(shown)[layer, head % shown.n_heads])  # 12 heads, or 9
            np.testing.assert_allclose(rows.sum(axis=-1), 1.0, atol=1e-12)
            np.testing.assert_allclose(rollout(shown).sum(axis=-1), 1.0, atol=1e-12)
        assert (shares(value_weighted(without))[..., index] == 0).all()  # what arrives from it is nothing too
