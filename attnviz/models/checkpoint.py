"""A Hugging Face model folder read without torch: config.json, model.safetensors (never a pickle) and tokenizer.json.

The weights are memory-mapped from the safetensors file: float32 tensors are used where they lie (the operating
system pages them in, and every process on the machine shares one copy); float16 and bfloat16 ones are turned into
float32 once, when the model loads. Every reason a folder cannot be opened is an AttnvizInputError of one plain line.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from attnviz import AttnvizInputError
from attnviz.core.limits import MAX_SAFETENSORS_HEADER_BYTES, MAX_USER_MODEL_BYTES, MAX_USER_MODEL_PARAMETERS

FILES = ("config.json", "model.safetensors", "tokenizer.json")
SHARDS_INDEX = "model.safetensors.index.json"  # the weights in several files, as larger checkpoints are saved
PICKLES = ("pytorch_model.bin", "model.pt", "model.pth", "model.ckpt", "tf_model.h5", "flax_model.msgpack")
KNOWN = "BERT, GPT-2, Llama and Qwen2"
LIMITS = (  # what a refusal for size says, with why
    f"{MAX_USER_MODEL_PARAMETERS / 1e6:.0f}M parameters and {MAX_USER_MODEL_BYTES / 1e9:g} GB of weights: "
    "the memory of one Community Cloud app, which the two shipped models already share"
)
_DTYPES = {"F32": np.float32, "F16": np.float16, "F64": np.float64, "BF16": np.uint16}
_NOT_WEIGHTS = {"BOOL", "U8", "I8", "I16", "U16", "I32", "U32", "I64", "U64"}  # buffers such as BERT's position_ids


class Checkpoint:
    """One model folder's config (a dict), its tensors (name -> float32 array, read-only) and its tokenizer file.

    ``name`` is what messages call the model (a hub id or the folder's name).
    """

    def __init__(self, folder: Path, name: str, *, limits: bool = True) -> None:
        self.name = name
        self.folder = Path(folder)
        self.config = read_config(self.folder / "config.json", name)
        self.family = family_of(self.config, name)
        self.tokenizer_path = self.folder / "tokenizer.json"
        self.tensors = self._read_weights(limits)
        if not self.tokenizer_path.is_file():
            raise no_tokenizer(name)

    def _read_weights(self, limits: bool) -> dict[str, np.ndarray]:
        """model.safetensors, or every file its shards' index names, checked for size before any weight is read."""
        path = self.folder / "model.safetensors"
        if path.is_file():
            return read_safetensors(path, self.name, limits=limits)
        if not (self.folder / SHARDS_INDEX).is_file():
            raise no_safetensors(self.name, [name for name in PICKLES if (self.folder / name).is_file()])
        shards = [self.folder / shard for shard in shard_names((self.folder / SHARDS_INDEX).read_bytes(), self.name)]
        if missing := [shard.name for shard in shards if not shard.is_file()]:
            raise missing_shard(self.name, missing[0])
        size = sum(shard.stat().st_size for shard in shards)
        if limits and size > MAX_USER_MODEL_BYTES:
            raise too_large(self.name, size)
        tensors = {key: tensor for shard in shards for key, tensor in read_safetensors(shard, self.name, limits=False).items()}
        if limits:
            check_parameters(self.name, sum(tensor.size for tensor in tensors.values()))
        return tensors

    def get(self, name: str, shape: tuple[int, ...]) -> np.ndarray:
        """The tensor ``name``, which must have ``shape`` (what the config implies); else the config and the weights
        disagree, and the model is refused."""
        if name not in self.tensors:
            raise AttnvizInputError(f"{self.name}'s model.safetensors has no tensor {name}, which its config needs.")
        tensor = self.tensors[name]
        if tensor.shape != tuple(shape):
            raise AttnvizInputError(
                f"{self.name}'s config.json disagrees with its weights: {name} is {_shape(tensor.shape)}, "
                f"the config makes it {_shape(shape)}."
            )
        return tensor


def no_tokenizer(name: str) -> AttnvizInputError:
    return AttnvizInputError(
        f"{name} has no tokenizer.json, the file that splits a sentence into tokens: open a model that has one."
    )


def shard_names(index: bytes, name: str) -> list[str]:
    """The weight files a shards' index names (each a plain file name beside it), in order, or a refusal."""
    try:
        names = list(dict.fromkeys(json.loads(index)["weight_map"].values()))
    except (UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise AttnvizInputError(f"{name}'s {SHARDS_INDEX} is not an index of its weight files.") from error
    if not names or not all(isinstance(n, str) and n.endswith(".safetensors") and Path(n).name == n for n in names):
        raise AttnvizInputError(f"{name}'s {SHARDS_INDEX} names no safetensors files beside it.")
    return names


def missing_shard(name: str, shard: str) -> AttnvizInputError:
    return AttnvizInputError(f"{name} lacks {shard}, one of the files its weights are kept in.")


def check_parameters(name: str, parameters: int) -> None:
    if parameters > MAX_USER_MODEL_PARAMETERS:
        raise AttnvizInputError(f"{name} has {parameters / 1e6:.0f}M parameters; attnviz opens models up to {LIMITS}.")


def no_safetensors(name: str, pickles: list[str]) -> AttnvizInputError:
    if pickles:
        return AttnvizInputError(
            f"{name} has its weights only as {pickles[0]}, a pickle, which can run code when it is read: "
            "attnviz reads model.safetensors only."
        )
    return AttnvizInputError(f"{name} has no model.safetensors: it holds no weights attnviz can read.")


def too_large(name: str, size: int) -> AttnvizInputError:
    return AttnvizInputError(f"{name}'s weights are {size / 1e9:.1f} GB; attnviz opens models up to {LIMITS}.")


def read_config(path: Path, name: str) -> dict:
    """config.json as a dict, or a refusal saying what is wrong with it."""
    if not path.is_file():
        raise AttnvizInputError(f"{name} has no config.json: it is not a Hugging Face model folder.")
    try:
        config = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise AttnvizInputError(f"{name}'s config.json is not valid JSON.") from error
    if not isinstance(config, dict):
        raise AttnvizInputError(f"{name}'s config.json is not a set of settings (a JSON object).")
    return config


def family_of(config: dict, name: str) -> str:
    """The family (bert, gpt2, llama or qwen2) from a config's model_type; else the model ``name`` is refused.
    A model with its own code (auto_map: transformers' trust_remote_code) is refused whatever it says it is."""
    if "auto_map" in config:
        raise AttnvizInputError(
            f"{name} needs trust_remote_code: it runs its own Python code, which attnviz never runs. "
            f"Open a {KNOWN.replace(' and ', ' or ')} model instead."
        )
    kind = config.get("model_type")
    if kind in ("bert", "gpt2", "llama", "qwen2"):
        return kind
    architectures = config.get("architectures") or ["no architecture named"]
    raise AttnvizInputError(
        f"{name} is a {f'{kind} model' if kind else 'model of unknown type'} ({', '.join(map(str, architectures))}): "
        f"attnviz reads {KNOWN} models."
    )


def _shape(shape) -> str:
    return " × ".join(map(str, shape))


def read_safetensors(path: Path, name: str, *, limits: bool = True) -> dict[str, np.ndarray]:
    """Every tensor in a safetensors file, float32 and read-only, memory-mapped where it is stored in float32.

    The file is a little-endian header length, a JSON header (each tensor's dtype, shape and byte range), then the
    bytes. The size and the parameter count are checked from the header alone, before any weight is read.
    """
    size = path.stat().st_size
    if limits and size > MAX_USER_MODEL_BYTES:
        raise too_large(name, size)
    try:
        with path.open("rb") as stream:
            length = int.from_bytes(stream.read(8), "little")
            if not 2 <= length <= min(MAX_SAFETENSORS_HEADER_BYTES, size - 8):
                raise ValueError("header length")
            header = json.loads(stream.read(length))
        header.pop("__metadata__", None)
        entries = {
            key: (_DTYPES[e["dtype"]], tuple(e["shape"]), *e["data_offsets"])
            for key, e in header.items()
            if e["dtype"] not in _NOT_WEIGHTS
        }
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise AttnvizInputError(
            f"{name}'s {path.name} is not a safetensors file of float32, float16 or bfloat16 weights."
        ) from error
    if limits:
        check_parameters(name, sum(int(np.prod(shape)) for _, shape, _, _ in entries.values()))
    data = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + length)
    tensors = {}
    for key, (dtype, shape, start, end) in entries.items():
        if not 0 <= start <= end <= data.size or end - start != np.dtype(dtype).itemsize * int(np.prod(shape)):
            raise AttnvizInputError(f"{name}'s {path.name} is cut short or damaged (tensor {key}).")
        tensors[key] = _float32(data[start:end], dtype, shape)
    return tensors


def _float32(raw: np.ndarray, dtype, shape) -> np.ndarray:
    """Stored bytes as a float32 array: a view when they are float32 and aligned, else converted once."""
    if dtype is np.uint16:  # bfloat16: the top half of a float32's bits
        array = (np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16).view(np.float32)
    elif dtype is np.float32 and raw.ctypes.data % 4 == 0:
        array = np.asarray(raw).view("<f4")  # a view of the mapped file: nothing copied
    else:
        array = np.frombuffer(raw.tobytes(), dtype=np.dtype(dtype).newbyteorder("<")).astype(np.float32)
    array = array.reshape(shape)
    array.flags.writeable = False
    return array
