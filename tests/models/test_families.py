"""The three families against transformers: a tiny random-weight checkpoint of each (BERT, GPT-2, Llama with grouped
query attention and an untied output, Qwen2 with q/k/v biases and a tied one), made and run by transformers in
tests/tools/make_tiny_models.py, read by attnviz from the same config.json, model.safetensors and tokenizer.json."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from attnviz import attention
from attnviz.models.runs import DecoderRun
from attnviz.models.transformer import Transformer
from tests.models.conftest import ATTENTION_ATOL, RELATIVE, relative_error

TINY = Path(__file__).resolve().parents[1] / "fixtures" / "tiny_models"
FAMILIES = ("bert", "gpt2", "llama", "qwen2")
SENTENCES = range(3)


@pytest.fixture(scope="module")
def tiny_reference():
    with np.load(TINY / "reference.npz") as stored:
        assert str(stored["torch_version"]).startswith("2.13")  # made by transformers on PyTorch 2.13
        return dict(stored)


@pytest.fixture(scope="module", params=FAMILIES)
def tiny(request):
    return Transformer(TINY / request.param, f"tiny-{request.param}")


@pytest.fixture(scope="module", params=FAMILIES[1:])
def tiny_decoder(request):
    return Transformer(TINY / request.param, f"tiny-{request.param}")


def _run(tiny, tiny_reference, i):
    return tiny.run(str(tiny_reference[f"{tiny.family}_sentences"][i]))


@pytest.mark.parametrize("i", SENTENCES)
def test_token_ids_are_transformers(tiny, tiny_reference, i):
    np.testing.assert_array_equal(_run(tiny, tiny_reference, i).token_ids, tiny_reference[f"{tiny.family}_{i}_ids"])


@pytest.mark.parametrize("i", SENTENCES)
def test_every_heads_attention_matches_transformers(tiny, tiny_reference, i):
    run = _run(tiny, tiny_reference, i)
    expected = tiny_reference[f"{tiny.family}_{i}_attention"]  # (layers, heads, n, n)
    assert run.attention.shape == expected.shape == (2, 4, len(run.tokens), len(run.tokens))
    assert np.abs(run.attention - expected).max() <= ATTENTION_ATOL
    if len(run.tokens) > 2:
        assert expected.max() > 0.3  # the random weights make heads attend unevenly: a wrong step would show


@pytest.mark.parametrize("i", SENTENCES)
def test_the_last_hidden_state_matches_transformers(tiny, tiny_reference, i):
    run = _run(tiny, tiny_reference, i)
    assert run.hidden.dtype == np.float32
    assert relative_error(run.hidden, tiny_reference[f"{tiny.family}_{i}_hidden"]) <= RELATIVE


@pytest.mark.parametrize("i", SENTENCES)
def test_a_decoders_logits_match_transformers(tiny_decoder, tiny_reference, i):
    run = _run(tiny_decoder, tiny_reference, i)
    expected = tiny_reference[f"{tiny_decoder.family}_{i}_last_logits"]  # (vocab,)
    assert isinstance(run, DecoderRun) and run.last_logits.shape == expected.shape
    assert relative_error(run.last_logits, expected) <= RELATIVE
    assert run.next_token(top=1).ids[0] == expected.argmax()


def test_each_family_is_read_as_it_is(tiny):
    spec = tiny.spec
    expected = {  # causal, key/value heads, norm, pre-norm, activation, gated, RoPE
        "bert": (False, 4, "layer", False, "gelu", False, None),
        "gpt2": (True, 4, "layer", True, "gelu_tanh", False, None),
        "llama": (True, 2, "rms", True, "silu", True, 500.0),
        "qwen2": (True, 2, "rms", True, "silu", True, 10000.0),
    }[tiny.family]
    assert (spec.causal, spec.n_kv_heads, spec.norm, spec.pre_norm, spec.activation, spec.gated, spec.rope_base) == (
        expected
    )
    assert ("0.k.bias" in tiny.weights) == (tiny.family != "llama")  # Qwen2's q/k/v biases; Llama has none
    if tiny.causal:  # GPT-2 and Qwen2 tie the output to the embeddings; this Llama has its own lm_head
        assert (tiny.weights["output"] is tiny.weights["embed"]) == (tiny.family != "llama")


def test_grouped_query_heads_share_their_keys_and_values(tiny):
    run = tiny.run("Two query heads share each key head.")
    group = run.n_heads // tiny.spec.n_kv_heads
    for head in range(run.n_heads):
        np.testing.assert_array_equal(run.k[:, head], run.k[:, head - head % group])
    assert (group == 2) == (tiny.family in ("llama", "qwen2"))


def test_every_head_is_attnviz_attention_on_its_q_k_v(tiny):
    run = tiny.run("Open any head in the Playground.")
    for layer, head in ((0, 0), (1, 3)):
        result = attention(run.q[layer, head], run.k[layer, head], run.v[layer, head], causal=run.causal)
        np.testing.assert_array_equal(result.weights, run.attention[layer, head])
