"""The maths and the data: attention, masks, tokenizer, worked examples, limits, numbers and the Playground state."""

from attnviz.core.attention import (
    AttentionResult,
    MultiHeadResult,
    as_matrix,
    attention,
    causal_mask,
    multi_head_attention,
    project,
    softmax,
)
from attnviz.core.errors import AttnvizInputError
from attnviz.core.presets import PRESETS, Preset
from attnviz.core.random import check_seed, random_qkv
from attnviz.core.tokenize import tokenize

__all__ = [
    "PRESETS",
    "AttentionResult",
    "AttnvizInputError",
    "MultiHeadResult",
    "Preset",
    "as_matrix",
    "attention",
    "causal_mask",
    "check_seed",
    "multi_head_attention",
    "project",
    "random_qkv",
    "softmax",
    "tokenize",
]
