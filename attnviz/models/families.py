"""The three families attnviz reads, from a checkpoint's config.json: what each one's forward pass does, and its
weights under one set of names, checked against the shapes the config implies.

- BERT (``BertModel``): learned positions and segment embeddings, LayerNorm after each block (post-norm), GELU.
- GPT-2 (``GPT2LMHeadModel``): learned positions, LayerNorm before each block (pre-norm), the tanh GELU, queries, keys
  and values fused in one Conv1D (stored (d_in, d_out), as a matmul takes it), output tied to the token embeddings.
- Llama (``LlamaForCausalLM``) and Qwen2 (``Qwen2ForCausalLM``): rotary positions (RoPE), RMSNorm before each block,
  SwiGLU, grouped-query attention (key/value heads shared by groups of query heads); Qwen2 adds q/k/v biases.

Every matrix is kept as ``(d_in, d_out)``, the layout ``x @ W`` multiplies: GPT-2's Conv1D is stored so; an
``nn.Linear`` weight (d_out, d_in) becomes its transpose, a view of the same memory (BLAS reads it as it lies,
as PyTorch's own ``linear`` does); GPT-2's fused c_attn is read as three column blocks, also views. Fusing the
matrices that multiply the same input into one was measured slower with OpenBLAS (1.2–1.7 × at 8–128 tokens).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnviz import AttnvizInputError
from attnviz.models.checkpoint import Checkpoint

ACTIVATIONS = {"gelu": "gelu", "gelu_new": "gelu_tanh", "gelu_pytorch_tanh": "gelu_tanh", "silu": "silu"}


@dataclass(frozen=True)
class Spec:
    """What a forward pass needs to know of a model besides its weights."""

    family: str  # "bert", "gpt2", "llama" or "qwen2"
    causal: bool
    n_layers: int
    n_heads: int
    n_kv_heads: int  # fewer than n_heads: grouped-query attention
    d_model: int
    d_head: int
    norm: str  # "layer" (LayerNorm) or "rms" (RMSNorm)
    eps: float
    pre_norm: bool  # normalise before each block (GPT-2, Llama) or after it, with the residual (BERT)
    activation: str  # "gelu", "gelu_tanh" or "silu"
    gated: bool  # SwiGLU: act(x W_gate) * (x W_up)
    rope_base: float | None  # None: learned positions


def _setting(checkpoint: Checkpoint, *names: str, default=None):
    for name in names:
        if name in checkpoint.config:
            return checkpoint.config[name]
    if default is None:
        raise AttnvizInputError(f"{checkpoint.name}'s config.json has no {names[0]}.")
    return default


def _whole(checkpoint: Checkpoint, name: str, value) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise AttnvizInputError(f"{checkpoint.name}'s config.json gives {name} as {value!r}, not a positive number.")
    return value


def read(checkpoint: Checkpoint) -> tuple[Spec, dict[str, np.ndarray]]:
    """The spec and the weights (standard names, matmul layout) of a checkpoint of a known family."""
    family = checkpoint.family
    return {"bert": _bert, "gpt2": _gpt2, "llama": _llama, "qwen2": _llama}[family](checkpoint, family)


def _activation(checkpoint: Checkpoint, *names: str) -> str:
    name = _setting(checkpoint, *names)
    if name not in ACTIVATIONS:
        raise AttnvizInputError(f"{checkpoint.name} uses the activation {name!r}, which attnviz does not compute.")
    return ACTIVATIONS[name]


def _sizes(checkpoint: Checkpoint, layers: str, heads: str, width: str) -> tuple[int, int, int]:
    values = (_setting(checkpoint, layers), _setting(checkpoint, heads), _setting(checkpoint, width))
    n_layers, n_heads, d_model = (_whole(checkpoint, n, v) for n, v in zip((layers, heads, width), values, strict=True))
    return n_layers, n_heads, d_model


class _Taker:
    """Takes tensors from a checkpoint under a prefix the model was saved with ("bert.", "transformer.", or none)."""

    def __init__(self, checkpoint: Checkpoint, prefixes: tuple[str, ...], probe: str) -> None:
        self.checkpoint = checkpoint
        found = [p for p in prefixes if p + probe in checkpoint.tensors]
        self.prefix = found[0] if found else prefixes[0]
        self.weights: dict[str, np.ndarray] = {}

    def take(self, name: str, stored: str, shape: tuple[int, ...], *, linear: bool = False) -> None:
        """weights[name] = the stored tensor; an nn.Linear (d_out, d_in), ``linear``, is taken as its transpose."""
        tensor = self.checkpoint.get(self.prefix + stored, shape[::-1] if linear else shape)
        self.weights[name] = tensor.T if linear else tensor


def _bert(checkpoint: Checkpoint, family: str) -> tuple[Spec, dict[str, np.ndarray]]:
    n_layers, n_heads, d = _sizes(checkpoint, "num_hidden_layers", "num_attention_heads", "hidden_size")
    if _setting(checkpoint, "position_embedding_type", default="absolute") != "absolute":
        raise AttnvizInputError(f"{checkpoint.name} uses relative positions, which attnviz does not compute.")
    ff = _whole(checkpoint, "intermediate_size", _setting(checkpoint, "intermediate_size"))
    vocab = _whole(checkpoint, "vocab_size", _setting(checkpoint, "vocab_size"))
    positions = _whole(checkpoint, "max_position_embeddings", _setting(checkpoint, "max_position_embeddings"))
    segments = _whole(checkpoint, "type_vocab_size", _setting(checkpoint, "type_vocab_size", default=2))
    w = _Taker(checkpoint, ("", "bert."), "embeddings.word_embeddings.weight")
    w.take("embed", "embeddings.word_embeddings.weight", (vocab, d))
    w.take("positions", "embeddings.position_embeddings.weight", (positions, d))
    w.take("segments", "embeddings.token_type_embeddings.weight", (segments, d))
    _norm(w, "embed_norm", "embeddings.LayerNorm", d, bias=True)
    for i in range(n_layers):
        p = f"encoder.layer.{i}."
        for name, stored in (("q", "query"), ("k", "key"), ("v", "value")):
            _linear(w, f"{i}.{name}", f"{p}attention.self.{stored}", d, d, bias=True)
        _linear(w, f"{i}.o", f"{p}attention.output.dense", d, d, bias=True)
        _norm(w, f"{i}.norm1", f"{p}attention.output.LayerNorm", d, bias=True)
        _linear(w, f"{i}.up", f"{p}intermediate.dense", d, ff, bias=True)
        _linear(w, f"{i}.down", f"{p}output.dense", ff, d, bias=True)
        _norm(w, f"{i}.norm2", f"{p}output.LayerNorm", d, bias=True)
    spec = Spec(family, False, n_layers, n_heads, n_heads, d, d // n_heads, "layer",
                float(_setting(checkpoint, "layer_norm_eps", default=1e-12)), False,
                _activation(checkpoint, "hidden_act"), False, None)  # fmt: skip
    return spec, w.weights


def _gpt2(checkpoint: Checkpoint, family: str) -> tuple[Spec, dict[str, np.ndarray]]:
    n_layers, n_heads, d = _sizes(checkpoint, "n_layer", "n_head", "n_embd")
    ff = _setting(checkpoint, "n_inner", default=4 * d) or 4 * d  # null in the config means 4 d
    vocab = _whole(checkpoint, "vocab_size", _setting(checkpoint, "vocab_size"))
    positions = _whole(checkpoint, "n_positions", _setting(checkpoint, "n_positions"))
    if checkpoint.config.get("scale_attn_by_inverse_layer_idx"):
        raise AttnvizInputError(f"{checkpoint.name} scales attention by layer, which attnviz does not compute.")
    w = _Taker(checkpoint, ("", "transformer."), "wte.weight")
    w.take("embed", "wte.weight", (vocab, d))
    w.take("positions", "wpe.weight", (positions, d))
    for i in range(n_layers):
        p = f"h.{i}."
        _norm(w, f"{i}.norm1", f"{p}ln_1", d, bias=True)
        fused = checkpoint.get(f"{w.prefix}{p}attn.c_attn.weight", (d, 3 * d))  # Conv1D: (d_in, d_out) already
        bias = checkpoint.get(f"{w.prefix}{p}attn.c_attn.bias", (3 * d,))
        for j, name in enumerate("qkv"):  # column blocks of the fused matrix: views
            w.weights[f"{i}.{name}"] = fused[:, j * d : (j + 1) * d]
            w.weights[f"{i}.{name}.bias"] = bias[j * d : (j + 1) * d]
        w.take(f"{i}.o", f"{p}attn.c_proj.weight", (d, d))
        w.take(f"{i}.o.bias", f"{p}attn.c_proj.bias", (d,))
        _norm(w, f"{i}.norm2", f"{p}ln_2", d, bias=True)
        w.take(f"{i}.up", f"{p}mlp.c_fc.weight", (d, ff))
        w.take(f"{i}.up.bias", f"{p}mlp.c_fc.bias", (ff,))
        w.take(f"{i}.down", f"{p}mlp.c_proj.weight", (ff, d))
        w.take(f"{i}.down.bias", f"{p}mlp.c_proj.bias", (d,))
    _norm(w, "final_norm", "ln_f", d, bias=True)
    w.weights["output"] = w.weights["embed"]  # tied: the output layer is the token embedding matrix
    spec = Spec(family, True, n_layers, n_heads, n_heads, d, d // n_heads, "layer",
                float(_setting(checkpoint, "layer_norm_epsilon", default=1e-5)), True,
                _activation(checkpoint, "activation_function"), False, None)  # fmt: skip
    return spec, w.weights


def _rope_base(checkpoint: Checkpoint) -> float:
    """RoPE's base from rope_theta (or transformers 5's rope_parameters); a scaled RoPE (llama3, yarn) is refused."""
    parameters = checkpoint.config.get("rope_parameters") or checkpoint.config.get("rope_scaling") or {}
    kind = parameters.get("rope_type", parameters.get("type", "default")) if isinstance(parameters, dict) else None
    if kind != "default":
        raise AttnvizInputError(f"{checkpoint.name} scales its rotary positions ({kind}), which attnviz does not do.")
    return float(parameters.get("rope_theta", checkpoint.config.get("rope_theta", 10000.0)))


def _llama(checkpoint: Checkpoint, family: str) -> tuple[Spec, dict[str, np.ndarray]]:
    n_layers, n_heads, d = _sizes(checkpoint, "num_hidden_layers", "num_attention_heads", "hidden_size")
    kv = _whole(checkpoint, "num_key_value_heads", _setting(checkpoint, "num_key_value_heads", default=n_heads))
    d_head = _whole(checkpoint, "head_dim", checkpoint.config.get("head_dim") or d // n_heads)
    if n_heads % kv:
        raise AttnvizInputError(f"{checkpoint.name} has {n_heads} query heads, not a multiple of its {kv} key heads.")
    ff = _whole(checkpoint, "intermediate_size", _setting(checkpoint, "intermediate_size"))
    vocab = _whole(checkpoint, "vocab_size", _setting(checkpoint, "vocab_size"))
    if checkpoint.config.get("use_sliding_window"):
        raise AttnvizInputError(f"{checkpoint.name} attends through a sliding window, which attnviz does not do.")
    qkv_bias = family == "qwen2" or bool(checkpoint.config.get("attention_bias"))
    mlp_bias = bool(checkpoint.config.get("mlp_bias"))
    w = _Taker(checkpoint, ("model.", ""), "embed_tokens.weight")
    w.take("embed", "embed_tokens.weight", (vocab, d))
    for i in range(n_layers):
        p = f"layers.{i}."
        _norm(w, f"{i}.norm1", f"{p}input_layernorm", d, bias=False)
        for name, width in (("q", n_heads * d_head), ("k", kv * d_head), ("v", kv * d_head)):
            _linear(w, f"{i}.{name}", f"{p}self_attn.{name}_proj", d, width, bias=qkv_bias)
        _linear(w, f"{i}.o", f"{p}self_attn.o_proj", n_heads * d_head, d, bias=qkv_bias and family == "llama")
        _norm(w, f"{i}.norm2", f"{p}post_attention_layernorm", d, bias=False)
        _linear(w, f"{i}.gate", f"{p}mlp.gate_proj", d, ff, bias=mlp_bias)
        _linear(w, f"{i}.up", f"{p}mlp.up_proj", d, ff, bias=mlp_bias)
        _linear(w, f"{i}.down", f"{p}mlp.down_proj", ff, d, bias=mlp_bias)
    _norm(w, "final_norm", "norm", d, bias=False)
    if checkpoint.config.get("tie_word_embeddings", False):
        w.weights["output"] = w.weights["embed"]
    else:
        w.prefix = ""  # lm_head sits outside the "model." prefix
        w.take("output", "lm_head.weight", (vocab, d))
    spec = Spec(family, True, n_layers, n_heads, kv, d, d_head, "rms",
                float(_setting(checkpoint, "rms_norm_eps", default=1e-6)), True,
                _activation(checkpoint, "hidden_act"), True, _rope_base(checkpoint))  # fmt: skip
    return spec, w.weights


def _linear(w: _Taker, name: str, stored: str, d_in: int, d_out: int, *, bias: bool) -> None:
    w.take(name, f"{stored}.weight", (d_in, d_out), linear=True)
    if bias:
        w.take(f"{name}.bias", f"{stored}.bias", (d_out,))


def _norm(w: _Taker, name: str, stored: str, d: int, *, bias: bool) -> None:
    w.take(f"{name}.weight", f"{stored}.weight", (d,))
    if bias:
        w.take(f"{name}.bias", f"{stored}.bias", (d,))
