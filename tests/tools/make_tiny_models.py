"""Regenerates tests/fixtures/tiny_models/: one tiny checkpoint a family, made by transformers with random weights, and
transformers' own outputs on a few sentences (not needed to run the tests).

    python3 -m venv /work/torchvenv
    /work/torchvenv/bin/pip install torch==2.13.0 transformers safetensors tokenizers numpy   # pinned: the CPU build
    /work/torchvenv/bin/python tests/tools/make_tiny_models.py

Each folder holds what attnviz.models reads (config.json, model.safetensors, tokenizer.json) and tokenizer_config.json
(for transformers), written by ``save_pretrained``: 2 layers, d_model 32, 4 heads; Llama and Qwen2 with 2 key/value
heads (grouped-query attention), Qwen2 with its q/k/v biases and tied output, Llama with an untied one. The weights
are drawn at N(0, 0.2²) (norm weights near 1) rather than transformers' N(0, 0.02²), so heads attend unevenly and a
wrong step shows. The tokenizers are trained here on CORPUS: BERT a WordPiece with [CLS] … [SEP], the decoders a
byte-level BPE (Llama's adds a <s> start token).

reference.npz stores, per family and sentence, transformers' token ids, every layer's attention (eager attention),
the last hidden state (after the final norm for a decoder) and a decoder's logits at the last position, computed in
float64.
"""

from pathlib import Path

import numpy as np
import tokenizers
import torch
import transformers
from tokenizers import decoders, models, normalizers, pre_tokenizers, processors, trainers
from transformers import (
    AutoModel,
    AutoTokenizer,
    BertConfig,
    BertModel,
    GPT2Config,
    GPT2LMHeadModel,
    LlamaConfig,
    LlamaForCausalLM,
    PreTrainedTokenizerFast,
    Qwen2Config,
    Qwen2ForCausalLM,
)

TARGET = Path(__file__).resolve().parents[1] / "fixtures" / "tiny_models"
CORPUS = [
    "The animal didn't cross the street because it was too tired.",
    "Once upon a time, 3 robots counted to 1024 and sang.",
    "A quiet river bends past the old mill at dawn.",
    "Attention heads look at other tokens; some look back at the first one.",
    "Paris is the capital of France, and Rome is the capital of Italy.",
]
SENTENCES = ("The cat sat on the mat.", "Once upon a time, robots counted to 42!", "Hi")
SIZES = {"hidden": 32, "layers": 2, "heads": 4, "ff": 64, "positions": 64}


def wordpiece() -> PreTrainedTokenizerFast:
    tk = tokenizers.Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tk.normalizer = normalizers.BertNormalizer(lowercase=True)
    tk.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    tk.train_from_iterator(CORPUS, trainers.WordPieceTrainer(vocab_size=160, special_tokens=specials))
    cls, sep = tk.token_to_id("[CLS]"), tk.token_to_id("[SEP]")
    tk.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=[("[CLS]", cls), ("[SEP]", sep)]
    )
    tk.decoder = decoders.WordPiece()
    return PreTrainedTokenizerFast(
        tokenizer_object=tk, unk_token="[UNK]", cls_token="[CLS]", sep_token="[SEP]", pad_token="[PAD]"
    )


def byte_bpe(specials: list[str], start: str | None = None) -> PreTrainedTokenizerFast:
    tk = tokenizers.Tokenizer(models.BPE())
    tk.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tk.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=320, special_tokens=specials, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    tk.train_from_iterator(CORPUS, trainer)
    if start:  # Llama's tokenizer puts a start token before every sentence
        tk.post_processor = processors.TemplateProcessing(
            single=f"{start} $A", pair=f"{start} $A {start} $B", special_tokens=[(start, tk.token_to_id(start))]
        )
    else:
        tk.post_processor = processors.ByteLevel(trim_offsets=False)
    return PreTrainedTokenizerFast(tokenizer_object=tk, bos_token=start or specials[0], eos_token=specials[-1])


def families() -> dict:
    h, layers, heads, ff, positions = (SIZES[k] for k in ("hidden", "layers", "heads", "ff", "positions"))
    bert_tok, gpt2_tok = wordpiece(), byte_bpe(["<|endoftext|>"])
    llama_tok, qwen_tok = byte_bpe(["<s>", "</s>"], start="<s>"), byte_bpe(["<|endoftext|>"])
    return {
        "bert": (bert_tok, BertModel(BertConfig(vocab_size=len(bert_tok), hidden_size=h, num_hidden_layers=layers,
                 num_attention_heads=heads, intermediate_size=ff, max_position_embeddings=positions))),
        "gpt2": (gpt2_tok, GPT2LMHeadModel(GPT2Config(vocab_size=len(gpt2_tok), n_embd=h, n_layer=layers,
                 n_head=heads, n_positions=positions, bos_token_id=0, eos_token_id=0))),
        "llama": (llama_tok, LlamaForCausalLM(LlamaConfig(vocab_size=len(llama_tok), hidden_size=h,
                  intermediate_size=ff, num_hidden_layers=layers, num_attention_heads=heads, num_key_value_heads=2,
                  max_position_embeddings=positions, rope_theta=500.0, tie_word_embeddings=False))),
        "qwen2": (qwen_tok, Qwen2ForCausalLM(Qwen2Config(vocab_size=len(qwen_tok), hidden_size=h,
                  intermediate_size=ff, num_hidden_layers=layers, num_attention_heads=heads, num_key_value_heads=2,
                  max_position_embeddings=positions, tie_word_embeddings=True))),
    }  # fmt: skip


def randomise(model: torch.nn.Module) -> None:
    generator = torch.Generator().manual_seed(54)
    with torch.no_grad():
        for name, parameter in model.named_parameters():
            noise = torch.randn(parameter.shape, generator=generator) * 0.2
            is_norm = "norm" in name.lower() or ".ln_" in name or name.endswith(("ln_f.weight", "LayerNorm.weight"))
            parameter.copy_(1 + noise if is_norm and name.endswith("weight") else noise)


def main() -> None:
    torch.set_grad_enabled(False)
    out = {"torch_version": np.array(torch.__version__), "transformers_version": np.array(transformers.__version__)}
    for family, (tokenizer, model) in families().items():
        folder = TARGET / family
        randomise(model)
        model.save_pretrained(folder)  # config.json, model.safetensors (safetensors is the default)
        tokenizer.save_pretrained(folder)
        for extra in ("generation_config.json", "special_tokens_map.json"):
            (folder / extra).unlink(missing_ok=True)
        tokenizer = AutoTokenizer.from_pretrained(folder, split_special_tokens=True)
        loader = AutoModel if family == "bert" else transformers.AutoModelForCausalLM
        reference = loader.from_pretrained(folder, dtype=torch.float64, attn_implementation="eager").eval()
        for i, sentence in enumerate(SENTENCES):
            ids = tokenizer(sentence, return_tensors="pt")["input_ids"]  # (1, n)
            result = reference(ids, output_attentions=True, output_hidden_states=True)
            key = f"{family}_{i}"
            out[f"{key}_ids"] = ids[0].numpy()
            out[f"{key}_attention"] = torch.stack(result.attentions)[:, 0].numpy()  # (layers, heads, n, n)
            out[f"{key}_hidden"] = result.hidden_states[-1][0].numpy()  # (n, d_model)
            if family != "bert":
                out[f"{key}_last_logits"] = result.logits[0, -1].numpy()  # (vocab,)
        out[f"{family}_sentences"] = np.array(SENTENCES)
    np.savez_compressed(TARGET / "reference.npz", **out)
    size = sum(path.stat().st_size for path in TARGET.rglob("*") if path.is_file())
    print(
        f"wrote {TARGET} ({size / 1e3:.0f} kB) with torch {torch.__version__}, transformers {transformers.__version__}"
    )


if __name__ == "__main__":
    main()
