"""Both real models against Hugging Face transformers on PyTorch 2.13 (tests/tools/make_model_fixtures.py stored it),
and the properties every run must have: shapes, rows summing to 1, a real causal mask, Q/K/V that reproduce it."""

from __future__ import annotations

import numpy as np
import pytest

from attnviz import AttnvizInputError, attention
from attnviz.models import DecoderRun
from tests.models.conftest import ATTENTION_ATOL, RELATIVE, prefix, relative_error

SENTENCES = range(3)


def _run(model, reference, i):
    return model.run(str(reference[f"{prefix(model)}_sentences"][i]))


def test_the_reference_came_from_torch(reference):
    assert str(reference["torch_version"]).startswith("2.13")


@pytest.mark.parametrize("i", SENTENCES)
def test_token_ids_are_the_reference_tokenizers(model, reference, i):
    run = _run(model, reference, i)
    np.testing.assert_array_equal(run.token_ids, reference[f"{prefix(model)}_{i}_ids"])
    assert len(run.tokens) == len(run.token_ids)


@pytest.mark.parametrize("i", SENTENCES)
def test_attention_of_every_head_matches_the_reference(model, reference, i):
    run = _run(model, reference, i)
    expected = reference[f"{prefix(model)}_{i}_attention"]  # (layers, heads, n, n)
    assert run.attention.shape == expected.shape
    assert np.abs(run.attention - expected).max() <= ATTENTION_ATOL


@pytest.mark.parametrize("i", SENTENCES)
def test_last_hidden_state_matches_the_reference(model, reference, i):
    run = _run(model, reference, i)
    expected = reference[f"{prefix(model)}_{i}_hidden"]  # (n, d_model)
    assert run.hidden.dtype == np.float32  # computed in float32, against transformers in float64
    # Relative to the largest value: the decoder's hidden state reaches tens, the encoder's a few units.
    assert relative_error(run.hidden, expected) <= RELATIVE


@pytest.mark.parametrize("i", SENTENCES)
def test_decoder_logits_match_the_reference(decoder, reference, i):
    run = _run(decoder, reference, i)
    expected = reference[f"decoder_{i}_last_logits"]  # (vocab,)
    assert relative_error(run.last_logits, expected) <= RELATIVE  # logits reach about 40
    assert run.next_token(top=1).ids[0] == expected.argmax()


def test_encoder_tokens_include_cls_and_sep(encoder):
    run = encoder.run("Hello.")
    assert run.tokens == ["[CLS]", "hello", ".", "[SEP]"]
    assert run.sinks == (0, 3)
    assert run.model == "all-MiniLM-L6-v2" and not run.causal


def test_decoder_tokens_are_their_text(decoder):
    run = decoder.run("Once upon a time, 42")
    assert run.tokens == ["Once", " upon", " a", " time", ",", " ", "4", "2"]
    assert "".join(run.tokens) == run.sentence
    assert run.sinks == (0,) and run.causal


@pytest.mark.parametrize(
    ("name", "shape"), [("encoder", (6, 12, 32)), ("decoder", (30, 9, 64))], ids=["encoder", "decoder"]
)
def test_shapes(request, name, shape):
    layers, heads, d_head = shape
    run = request.getfixturevalue(name).run("The animal didn't cross the street because it was too tired.")
    n = len(run.tokens)
    assert run.attention.shape == (layers, heads, n, n)
    assert run.q.shape == run.k.shape == run.v.shape == (layers, heads, n, d_head)
    assert (run.n_layers, run.n_heads) == (layers, heads)


def test_rows_sum_to_one(model):
    run = model.run("Rows of attention weights sum to one, in every head of every layer.")
    np.testing.assert_allclose(run.attention.sum(axis=-1), 1.0, atol=1e-12)
    assert (run.attention >= 0).all()


def test_decoder_never_attends_to_a_later_token(decoder):
    run = decoder.run("A token sees only the tokens before it and itself.")
    n = len(run.tokens)
    above_diagonal = np.triu(np.ones((n, n), dtype=bool), k=1)
    assert (run.attention[..., above_diagonal] == 0.0).all()  # exactly zero, not merely small
    assert (run.attention[..., 0, 0] == 1.0).all()  # the first token can only look at itself


def test_encoder_attends_in_both_directions(encoder):
    run = encoder.run("Every token sees every other token.")
    n = len(run.tokens)
    assert (run.attention[..., np.triu(np.ones((n, n), dtype=bool), k=1)] > 0).all()


@pytest.mark.parametrize(("layer", "head"), [(0, 0), (2, 5), (-1, -1)])
def test_q_k_v_reproduce_the_attention_through_attnviz(model, layer, head):
    run = model.run("Open any head in the Playground and get the same weights.")
    result = attention(run.q[layer, head], run.k[layer, head], run.v[layer, head], causal=run.causal)
    np.testing.assert_array_equal(result.weights, run.attention[layer, head])  # the very same computation


def test_decoder_query_heads_share_key_value_heads_in_threes(decoder):
    run = decoder.run("Nine query heads, three key and value heads.")
    for shared in range(3):
        group = slice(3 * shared, 3 * shared + 3)
        np.testing.assert_array_equal(run.k[:, group], np.repeat(run.k[:, 3 * shared : 3 * shared + 1], 3, axis=1))
        np.testing.assert_array_equal(run.v[:, group], np.repeat(run.v[:, 3 * shared : 3 * shared + 1], 3, axis=1))
    assert not np.array_equal(run.q[:, 0], run.q[:, 1])  # each query head has its own queries


def test_arrays_are_read_only(model):
    run = model.run("Shared between sessions, so nobody may change it.")
    for array in (run.attention, run.q, run.k, run.v, run.hidden, run.token_ids):
        with pytest.raises(ValueError, match="read-only"):
            array[..., 0] = 0


def test_a_sentence_seen_before_is_not_computed_again(model):
    first = model.run("The same sentence twice.")
    assert model.run("The same sentence twice.") is first
    assert model.run("The same sentence twice ") is not first


def test_next_token_probabilities_sum_to_one(decoder):
    prediction = decoder.run("Once upon a time, there was a").next_token(temperature=1.0, top=10)
    assert len(prediction.tokens) == len(prediction.ids) == len(prediction.probabilities) == 10
    assert prediction.probabilities.sum() + prediction.other == pytest.approx(1.0, abs=1e-12)
    assert (np.diff(prediction.probabilities) <= 0).all()  # most likely first
    assert prediction.tokens[0] == decoder.token_text(int(prediction.ids[0]))


def test_next_token_is_the_softmax_of_logits_over_temperature(decoder):
    run = decoder.run("The capital of France is")
    logits = run.last_logits.astype(np.float64)
    for temperature in (0.5, 1.0, 2.0):
        scaled = logits / temperature
        expected = np.exp(scaled - scaled.max()) / np.exp(scaled - scaled.max()).sum()
        prediction = run.next_token(temperature, top=5)
        np.testing.assert_allclose(prediction.probabilities, np.sort(expected)[::-1][:5], rtol=1e-12)


def test_temperature_sharpens_or_flattens(decoder):
    run = decoder.run("The capital of France is")
    cold, warm, hot = (run.next_token(t, top=3) for t in (0.1, 1.0, 5.0))
    assert cold.ids[0] == warm.ids[0] == hot.ids[0]  # the order never changes
    assert cold.probabilities[0] > warm.probabilities[0] > hot.probabilities[0]
    assert cold.other < warm.other < hot.other
    assert run.next_token(0.01, top=1).probabilities[0] == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("temperature", "message"),
    [(0, "positive number, not 0"), (-1.0, "positive number, not -1.0"), (float("nan"), "not nan"), ("hot", "'hot'")],
)
def test_a_bad_temperature_is_refused(decoder, temperature, message):
    run = decoder.run("Hello")
    with pytest.raises(AttnvizInputError, match=message):
        run.next_token(temperature)


def test_a_bad_top_is_refused(decoder):
    with pytest.raises(AttnvizInputError, match="between 1 and 49152"):
        decoder.run("Hello").next_token(1.0, top=0)


def test_only_a_decoder_run_predicts(encoder, decoder):
    assert isinstance(decoder.run("Hello"), DecoderRun)
    assert not hasattr(encoder.run("Hello"), "next_token")


def test_the_decoder_converts_once_then_loads_from_the_cache(decoder, decoder_cache, monkeypatch):
    from attnviz.models.decoder import Decoder

    monkeypatch.setenv("ATTNVIZ_CACHE_DIR", str(decoder_cache))
    cached = Decoder()
    assert decoder.converted_now and not cached.converted_now
    sentence = "Converted once, read many times."
    np.testing.assert_array_equal(cached.run(sentence).attention, decoder.run(sentence).attention)


def test_decoder_weights_are_shared_read_only_memory_maps(decoder):
    embedding = decoder.weights["embed"]
    assert embedding.shape == (49152, 576) and embedding.dtype == np.float32
    assert not embedding.flags.writeable
    bases = [embedding]
    while isinstance(bases[-1], np.ndarray) and bases[-1].base is not None:
        bases.append(bases[-1].base)
    assert any(isinstance(base, np.memmap) for base in bases)  # pages of the cached file, shared by every process
    assert decoder.weights["output"] is embedding  # the output layer is tied to the embeddings


@pytest.mark.parametrize("name", ["0.q", "0.k", "0.gate", "0.up", "0.o", "0.down", "29.v"])
def test_decoder_matrices_are_float32_views_in_the_layout_the_matmul_takes(decoder, name):
    weight = decoder.weights[name]  # (d_in, d_out): x @ weight
    assert weight.dtype == np.float32 and weight.shape[0] in (576, 1536)
    assert weight.T.flags.c_contiguous  # nn.Linear's (d_out, d_in) as stored: BLAS reads it as it lies, no copy a pass
    assert not weight.flags.owndata and not weight.flags.writeable  # the mapped file's own pages
