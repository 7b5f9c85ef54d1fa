"""attnviz: self-attention written out in numpy, with every intermediate kept for teaching.

>>> import attnviz
>>> result = attnviz.attention(Q, K, V, causal=True)
>>> result.weights  # (n, n), each row sums to 1
"""

from attnviz.core import (
    PRESETS,
    AttentionResult,
    AttnvizInputError,
    MultiHeadResult,
    Preset,
    attention,
    causal_mask,
    multi_head_attention,
    project,
    random_qkv,
    softmax,
    tokenize,
)

__all__ = [
    "PRESETS",
    "AttentionResult",
    "AttnvizInputError",
    "MultiHeadResult",
    "Preset",
    "attention",
    "causal_mask",
    "multi_head_attention",
    "project",
    "random_qkv",
    "softmax",
    "tokenize",
]
