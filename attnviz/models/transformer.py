"""One forward pass for every family families.py reads (BERT, GPT-2, Llama, Qwen2), in numpy and float32.

Every head's attention is ``attnviz.attention`` on that head's queries, keys and values, so any head can be opened in
the Playground and give the same weights. A decoder's run also scores every possible next token.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from attnviz import AttnvizInputError
from attnviz.models import families
from attnviz.models.base import Model
from attnviz.models.checkpoint import Checkpoint
from attnviz.models.layers import (
    attend_heads,
    gelu,
    gelu_tanh,
    layer_norm,
    linear,
    merge_heads,
    out_grams,
    removed_key,
    rms_norm,
    rope_tables,
    rotate,
    silu,
    split_heads,
    stack_layers,
    value_norms,
)
from attnviz.models.runs import DecoderRun, ModelRun
from attnviz.models.sources import require

ACTIVATIONS = {"gelu": gelu, "gelu_tanh": gelu_tanh, "silu": silu}


class Transformer(Model):
    """A model read from a folder holding config.json, model.safetensors and tokenizer.json.

    ``limits``: hold it to the size a user's model may have (attnviz.core.limits); the shipped models are trusted.
    """

    def __init__(self, folder: Path, name: str, *, limits: bool = True) -> None:
        super().__init__()
        tokenizers = require("tokenizers")
        checkpoint = Checkpoint(folder, name, limits=limits)
        self.spec, self.weights = families.read(checkpoint)
        self.name, self.folder = name, checkpoint.folder
        self.family = self.spec.family
        self.causal = self.spec.causal
        self.run_class = DecoderRun if self.causal else ModelRun
        self.n_layers, self.n_heads, self.d_head = self.spec.n_layers, self.spec.n_heads, self.spec.d_head
        self.n_parameters = sum(tensor.size for tensor in checkpoint.tensors.values())
        try:
            self.tokenizer = tokenizers.Tokenizer.from_file(str(checkpoint.tokenizer_path))
        except Exception as error:  # the tokenizers library says only "data did not match any variant"
            raise AttnvizInputError(f"{name}'s tokenizer.json is not one attnviz can read.") from error
        self.tokenizer.no_padding()  # some files pad or cut every sentence to a fixed length; run() checks the length
        self.tokenizer.no_truncation()
        self.tokenizer.encode_special_tokens = True  # a typed "[CLS]" or "<|im_start|>" is text a student typed
        self._activation = ACTIVATIONS[self.spec.activation]
        self._grams = [out_grams(self.weights[f"{i}.o"], self.n_heads) for i in range(self.n_layers)]  # value_norms

    def token_text(self, token_id: int) -> str:
        """The text a token stands for (a leading space included); part of a character shows as �."""
        return self.tokenizer.decode([token_id], skip_special_tokens=False)

    def tokenize(self, sentence: str) -> tuple[list[int], list[str], tuple[int, ...]]:
        encoding = self.tokenizer.encode(sentence)
        if self.causal:  # the first token is where idle heads park attention
            return encoding.ids, [self.token_text(i) for i in encoding.ids], (0,)
        sinks = tuple(i for i, special in enumerate(encoding.special_tokens_mask) if special)  # [CLS] and [SEP]
        return encoding.ids, encoding.tokens, sinks

    def run_extras(self) -> dict:
        extras = {"family": self.family}
        return extras | {"token_text": self.token_text} if self.causal else extras  # a DecoderRun names its tokens

    def forward(self, ids: np.ndarray, removed: int | None = None) -> dict[str, np.ndarray]:
        spec, W = self.spec, self.weights
        n = len(ids)
        mask = removed_key(n, removed)  # (n, n) or None
        x = W["embed"][ids]  # (n, d) what each token is
        if "positions" in W:
            x = x + W["positions"][:n]  # (n, d) where it is
        if "segments" in W:
            x = x + W["segments"][0]  # (d,) one sentence: segment A throughout
        if "embed_norm.weight" in W:
            x = self._norm(x, "embed_norm")
        rope = rope_tables(n, spec.d_head, spec.rope_base) if spec.rope_base else None  # (n, d_head) cos and sin
        group = spec.n_heads // spec.n_kv_heads  # query heads sharing each key/value head
        per_layer = []
        for layer in range(spec.n_layers):
            p = f"{layer}."
            h = self._norm(x, f"{p}norm1") if spec.pre_norm else x  # (n, d)
            q = split_heads(self._linear(h, f"{p}q"), spec.n_heads)  # (heads, n, d_head)
            k = split_heads(self._linear(h, f"{p}k"), spec.n_kv_heads)  # (kv_heads, n, d_head)
            v = split_heads(self._linear(h, f"{p}v"), spec.n_kv_heads)  # (kv_heads, n, d_head)
            if rope:
                q, k = rotate(q, *rope), rotate(k, *rope)
            if group > 1:  # query head i uses key/value head i // group
                k, v = np.repeat(k, group, axis=0), np.repeat(v, group, axis=0)  # (heads, n, d_head)
            weights, context = attend_heads(q, k, v, causal=spec.causal, mask=mask)  # (heads, n, n), (heads, n, d_h)
            attended = self._linear(merge_heads(context), f"{p}o")  # (n, d)
            if spec.pre_norm:
                x = x + attended  # residual
                x = x + self._feed_forward(self._norm(x, f"{p}norm2"), p)  # (n, d) residual
            else:  # residual, then LayerNorm (BERT)
                x = self._norm(x + attended, f"{p}norm1")
                x = self._norm(x + self._feed_forward(x, p), f"{p}norm2")  # (n, d)
            per_layer.append((weights, q, k, v, value_norms(v, self._grams[layer])))
        if "final_norm.weight" in W:
            x = self._norm(x, "final_norm")  # (n, d)
        out = {**stack_layers(per_layer), "hidden": x}
        if self.causal:
            out["last_logits"] = W["output"] @ x[-1]  # (vocab,): only the last position predicts what comes next
        return out

    def _feed_forward(self, h: np.ndarray, p: str) -> np.ndarray:
        if self.spec.gated:  # SwiGLU: act(x W_gate) * (x W_up)
            hidden = self._activation(self._linear(h, f"{p}gate")) * self._linear(h, f"{p}up")  # (n, d_ff)
        else:
            hidden = self._activation(self._linear(h, f"{p}up"))  # (n, d_ff)
        return self._linear(hidden, f"{p}down")  # (n, d)

    def _linear(self, x: np.ndarray, name: str) -> np.ndarray:
        return linear(x, self.weights[name], self.weights.get(f"{name}.bias"))

    def _norm(self, x: np.ndarray, name: str) -> np.ndarray:
        weight, eps = self.weights[f"{name}.weight"], self.spec.eps
        if self.spec.norm == "rms":
            return rms_norm(x, weight, eps)
        return layer_norm(x, weight, self.weights[f"{name}.bias"], eps)
