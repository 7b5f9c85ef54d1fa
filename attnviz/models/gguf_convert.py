"""Turn SmolLM2's GGUF file (llama.cpp's format) into float32 safetensors and a tokenizer.json, once, on disk.

Reading a GGUF with the pure-Python ``gguf`` package takes seconds; the converted files load in a fraction of that.
Two things llama.cpp changed are undone here:
- the query and key matrices have their rows reordered within each head for llama.cpp's rotary layout
  (interleaved pairs); Hugging Face's layout, used by the forward pass, splits each head into two halves;
- the tokenizer lives only as a vocabulary and merge list inside the GGUF; it is rebuilt as a byte-level BPE.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from attnviz.models.sources import ModelUnavailableError, require

CONVERSION_VERSION = 1  # raise when the converted files change, so old caches are not read
CONTROL_TOKEN = 3  # llama.cpp's token type for special tokens such as <|im_start|>
CONFIG_KEYS = {  # GGUF metadata -> the names the forward pass uses
    "llama.block_count": "n_layers",
    "llama.attention.head_count": "n_heads",
    "llama.attention.head_count_kv": "n_kv_heads",
    "llama.embedding_length": "d_model",
    "llama.rope.freq_base": "rope_base",
    "llama.attention.layer_norm_rms_epsilon": "eps",
}


def converted_paths(gguf_path: Path, cache: Path) -> tuple[Path, Path]:
    """Where the converted weights and tokenizer of this GGUF file live (its size tells files apart)."""
    folder = cache / f"{gguf_path.stem}-{gguf_path.stat().st_size}-v{CONVERSION_VERSION}"
    return folder / "weights.safetensors", folder / "tokenizer.json"


def unpermute_rows(weight: np.ndarray, n_heads: int) -> np.ndarray:
    """Undo llama.cpp's reordering of a query or key matrix (n_heads · d_head, d_model).

    llama.cpp stores, within each head, row pairs (i, i + d_head/2) next to each other: (d_head/2, 2).
    Hugging Face keeps them as two halves: (2, d_head/2). Swapping those two axes back restores its order.
    """
    rows, columns = weight.shape
    d_half = rows // n_heads // 2
    return weight.reshape(n_heads, d_half, 2, columns).swapaxes(1, 2).reshape(rows, columns)


def _strings(field) -> list[str]:
    return [bytes(field.parts[i]).decode("utf-8") for i in field.data]


def build_tokenizer(tokens: list[str], merges: list[str], token_types: list[int]):
    """SmolLM2's tokenizer: digits split one by one, then GPT-2's byte-level BPE; control tokens are special."""
    tk = require("tokenizers")
    bpe = tk.models.BPE(
        vocab={token: i for i, token in enumerate(tokens)},
        merges=[tuple(merge.split(" ", 1)) for merge in merges],
        fuse_unk=False,
    )
    tokenizer = tk.Tokenizer(bpe)
    tokenizer.pre_tokenizer = tk.pre_tokenizers.Sequence(
        [
            tk.pre_tokenizers.Digits(individual_digits=True),
            tk.pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True),
        ]
    )
    tokenizer.decoder = tk.decoders.ByteLevel()
    specials = [token for token, kind in zip(tokens, token_types, strict=True) if kind == CONTROL_TOKEN]
    tokenizer.add_special_tokens([tk.AddedToken(token, special=True, normalized=False) for token in specials])
    return tokenizer


def convert(gguf_path: Path, cache: Path) -> tuple[Path, Path]:
    """Write float32 weights (with the config as metadata) and tokenizer.json; return their paths."""
    gguf, safetensors_numpy = require("gguf"), require("safetensors.numpy")
    reader = gguf.GGUFReader(gguf_path)
    config = {name: reader.fields[key].contents() for key, name in CONFIG_KEYS.items()}
    weights = {}
    for tensor in reader.tensors:
        weight = gguf.quants.dequantize(tensor.data, tensor.tensor_type).astype(np.float32)  # (d_out, d_in) or (d,)
        if tensor.name.endswith("attn_q.weight"):
            weight = unpermute_rows(weight, config["n_heads"])
        elif tensor.name.endswith("attn_k.weight"):
            weight = unpermute_rows(weight, config["n_kv_heads"])
        weights[tensor.name] = np.ascontiguousarray(weight)
    fields = reader.fields
    tokenizer = build_tokenizer(
        _strings(fields["tokenizer.ggml.tokens"]),
        _strings(fields["tokenizer.ggml.merges"]),
        [int(fields["tokenizer.ggml.token_type"].parts[i][0]) for i in fields["tokenizer.ggml.token_type"].data],
    )
    weights_path, tokenizer_path = converted_paths(gguf_path, cache)
    try:
        weights_path.parent.mkdir(parents=True, exist_ok=True)
        # Write under names of this process, then rename: no process ever reads a half-written file.
        partial = tokenizer_path.with_suffix(f".{os.getpid()}.part")
        tokenizer.save(str(partial))
        os.replace(partial, tokenizer_path)
        partial = weights_path.with_suffix(f".{os.getpid()}.part")
        safetensors_numpy.save_file(weights, partial, metadata={"config": json.dumps(config)})
        os.replace(partial, weights_path)  # last: its presence means the conversion is complete
    except OSError as error:
        raise ModelUnavailableError(
            f"Cannot save the converted SmolLM2 weights in {weights_path.parent}: set ATTNVIZ_CACHE_DIR to a writable folder."
        ) from error
    return weights_path, tokenizer_path
