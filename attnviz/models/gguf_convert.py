"""Turn SmolLM2's GGUF file (llama.cpp's format) into a Hugging Face model folder, once, on disk: config.json,
model.safetensors in float32 and tokenizer.json, which the Llama family reads as it reads any other Llama.

Reading a GGUF with the pure-Python ``gguf`` package takes seconds. The converted safetensors file is memory-mapped
when the model loads: nothing is copied, the operating system pages the weights in as they are used, and every
process on the machine shares one copy of them.
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

CONVERSION_VERSION = 3  # raise when the converted files change, so old caches are not read
CONTROL_TOKEN = 3  # llama.cpp's token type for special tokens such as <|im_start|>
CONFIG_KEYS = {  # GGUF metadata -> Hugging Face's LlamaConfig
    "llama.block_count": "num_hidden_layers",
    "llama.attention.head_count": "num_attention_heads",
    "llama.attention.head_count_kv": "num_key_value_heads",
    "llama.embedding_length": "hidden_size",
    "llama.feed_forward_length": "intermediate_size",
    "llama.rope.freq_base": "rope_theta",
    "llama.attention.layer_norm_rms_epsilon": "rms_norm_eps",
}
NAMES = {  # GGUF tensor names -> Hugging Face's ("blk.N." becomes "model.layers.N.")
    "token_embd": "model.embed_tokens",
    "output_norm": "model.norm",
    "output": "lm_head",
    "attn_norm": "input_layernorm",
    "attn_q": "self_attn.q_proj",
    "attn_k": "self_attn.k_proj",
    "attn_v": "self_attn.v_proj",
    "attn_output": "self_attn.o_proj",
    "ffn_norm": "post_attention_layernorm",
    "ffn_gate": "mlp.gate_proj",
    "ffn_up": "mlp.up_proj",
    "ffn_down": "mlp.down_proj",
}


def converted_folder(gguf_path: Path, cache: Path) -> Path:
    """Where the converted files of this GGUF file live (its size tells files apart)."""
    return cache / f"{gguf_path.stem}-{gguf_path.stat().st_size}-v{CONVERSION_VERSION}"


def hf_name(gguf_name: str) -> str:
    """A GGUF tensor name as Hugging Face calls it: blk.3.attn_q.weight -> model.layers.3.self_attn.q_proj.weight."""
    parts = gguf_name.split(".")
    if parts[0] == "blk":
        return f"model.layers.{parts[1]}.{NAMES[parts[2]]}.{parts[3]}"
    return f"{NAMES[parts[0]]}.{parts[1]}"


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
    shapes = {tensor.name: tuple(int(size) for size in reversed(tensor.shape)) for tensor in reader.tensors}
    header, offset = {"__metadata__": {"format": "pt"}}, 0  # "pt": what transformers asks of a file it loads
    for name, shape in shapes.items():
        end = offset + 4 * int(np.prod(shape))
        header[hf_name(name)] = {"dtype": "F32", "shape": list(shape), "data_offsets": [offset, end]}
        offset = end
    encoded = json.dumps(header).encode()
    encoded += b" " * (-len(encoded) % 8)  # the tensors start 8-byte aligned, as the safetensors library writes them
    with (folder / "model.safetensors").open("wb") as stream:
        stream.write(len(encoded).to_bytes(8, "little") + encoded)
        for tensor in reader.tensors:
            weight = gguf.quants.dequantize(tensor.data, tensor.tensor_type).astype("<f4")  # (d_out, d_in) or (d,)
            if tensor.name.endswith("attn_q.weight"):
                weight = unpermute_rows(weight, config["num_attention_heads"])
            elif tensor.name.endswith("attn_k.weight"):
                weight = unpermute_rows(weight, config["num_key_value_heads"])
            stream.write(np.ascontiguousarray(weight.reshape(shapes[tensor.name])).tobytes())
    fields = reader.fields
    tokens = _strings(fields["tokenizer.ggml.tokens"])
    tokenizer = build_tokenizer(
        tokens,
        _strings(fields["tokenizer.ggml.merges"]),
        [int(fields["tokenizer.ggml.token_type"].parts[i][0]) for i in fields["tokenizer.ggml.token_type"].data],
    )
    tokenizer.save(str(folder / "tokenizer.json"))
    config |= {"vocab_size": len(tokens), "tie_word_embeddings": "output.weight" not in shapes}
    (folder / "config.json").write_text(json.dumps(config))


def convert(gguf_path: Path, folder: Path) -> None:
    """Write config.json, model.safetensors (float32) and tokenizer.json into ``folder``."""
    reader = require("gguf").GGUFReader(gguf_path)
    config = {name: reader.fields[key].contents() for key, name in CONFIG_KEYS.items()}
    config |= {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_act": "silu"}
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
