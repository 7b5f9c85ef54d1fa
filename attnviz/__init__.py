"""attnviz: self-attention written out in numpy, with every intermediate kept for teaching.

>>> import attnviz
>>> result = attnviz.attention(Q, K, V, causal=True)
>>> result.weights  # (n, n), each row sums to 1
"""

from attnviz.core import (
    AttentionResult,
    MultiHeadResult,
    attention,
    causal_mask,
    multi_head_attention,
    project,
    random_qkv,
    softmax,
)
from attnviz.errors import AttnvizInputError
from attnviz.presets import PRESETS, Preset
from attnviz.tokenize import tokenize

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
