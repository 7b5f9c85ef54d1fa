"""Turn SmolLM2's GGUF file (llama.cpp's format) into float32 .npy files and a tokenizer.json, once, on disk.

Reading a GGUF with the pure-Python ``gguf`` package takes seconds. The converted .npy files are memory-mapped when
the model loads: nothing is copied, the operating system pages the weights in as they are used, and every process on
the machine shares one copy of them.
Two things llama.cpp changed are undone here:
- the query and key matrices have their rows reordered within each head for llama.cpp's rotary layout
  (interleaved pairs); Hugging Face's layout, used by the forward pass, splits each head into two halves;
- the tokenizer lives only as a vocabulary and merge list inside the GGUF; it is rebuilt as a byte-level BPE.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np

from attnviz.models.sources import ModelUnavailableError, require

CONVERSION_VERSION = 2  # raise when the converted files change, so old caches are not read
CONTROL_TOKEN = 3  # llama.cpp's token type for special tokens such as <|im_start|>
CONFIG_KEYS = {  # GGUF metadata -> the names the forward pass uses
    "llama.block_count": "n_layers",
    "llama.attention.head_count": "n_heads",
    "llama.attention.head_count_kv": "n_kv_heads",
    "llama.embedding_length": "d_model",
    "llama.rope.freq_base": "rope_base",
    "llama.attention.layer_norm_rms_epsilon": "eps",
}


def converted_folder(gguf_path: Path, cache: Path) -> Path:
    """Where the converted files of this GGUF file live (its size tells files apart)."""
    return cache / f"{gguf_path.stem}-{gguf_path.stat().st_size}-v{CONVERSION_VERSION}"


def load_converted(folder: Path) -> tuple[dict, dict[str, np.ndarray], Path]:
    """The config, the weights memory-mapped read-only (name -> array), and the tokenizer.json path."""
    config = json.loads((folder / "config.json").read_text())
    weights = {path.stem: np.asarray(np.load(path, mmap_mode="r")) for path in sorted(folder.glob("*.npy"))}
    return config, weights, folder / "tokenizer.json"


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


def _write(reader, config: dict, folder: Path) -> None:
    """One tensor at a time, so converting never holds more than one dequantised matrix."""
    gguf = require("gguf")
    folder.mkdir(parents=True)
    for tensor in reader.tensors:
        weight = gguf.quants.dequantize(tensor.data, tensor.tensor_type).astype(np.float32)  # (d_out, d_in) or (d,)
        if tensor.name.endswith("attn_q.weight"):
            weight = unpermute_rows(weight, config["n_heads"])
        elif tensor.name.endswith("attn_k.weight"):
            weight = unpermute_rows(weight, config["n_kv_heads"])
        np.save(folder / f"{tensor.name}.npy", np.ascontiguousarray(weight))
    fields = reader.fields
    tokenizer = build_tokenizer(
        _strings(fields["tokenizer.ggml.tokens"]),
        _strings(fields["tokenizer.ggml.merges"]),
        [int(fields["tokenizer.ggml.token_type"].parts[i][0]) for i in fields["tokenizer.ggml.token_type"].data],
    )
    tokenizer.save(str(folder / "tokenizer.json"))
    (folder / "config.json").write_text(json.dumps(config))


def convert(gguf_path: Path, folder: Path) -> None:
    """Write the float32 weights (one .npy each), config.json and tokenizer.json into ``folder``."""
    reader = require("gguf").GGUFReader(gguf_path)
    config = {name: reader.fields[key].contents() for key, name in CONFIG_KEYS.items()}
    partial = folder.with_name(f"{folder.name}.{os.getpid()}.part")
    try:
        shutil.rmtree(partial, ignore_errors=True)
        _write(reader, config, partial)
        # Renamed when complete, so no process ever reads half a conversion.
        os.replace(partial, folder)
    except OSError as error:
        shutil.rmtree(partial, ignore_errors=True)
        if folder.is_dir():  # another process finished the same conversion first
            return
        raise ModelUnavailableError(
            f"Cannot save the converted SmolLM2 weights in {folder.parent}: set ATTNVIZ_CACHE_DIR to a writable folder."
        ) from error
