"""``load_model(name_or_folder)``: each real model is loaded once per process and shared by every caller (every app
session). Besides the two shipped models, one model a user opens (a Hugging Face hub id or a local folder) is kept
at a time: opening another lets the one before go. Its weights are at most MAX_USER_MODEL_BYTES (1 GB, 200M
parameters in float32), the memory budget for it beside the shipped two."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from attnviz import AttnvizInputError
from attnviz.core.limits import MAX_MODEL_NAME_CHARS
from attnviz.models import hub
from attnviz.models.base import Model
from attnviz.models.sources import require

MODEL_NAMES = ("all-MiniLM-L6-v2", "SmolLM2-135M")
BLAS_THREADS = 1
# A served app opens model folders only under this folder (`make run` sets it to your home), none where it is unset
# (Community Cloud, a school's server): a visitor's typed name or share link never makes the server read its own disk.
SERVED_FOLDERS = "ATTNVIZ_MODEL_FOLDERS"

_loaded: dict[str, Model] = {}
_user: dict[str, Model] = {}  # the one model a user opened, by the name it was opened as
_loading = threading.Lock()  # held while a model loads, so two sessions never load the same model twice


def limit_blas_threads(threads: int = BLAS_THREADS) -> None:
    """Use one BLAS thread in this whole process.

    On a loaded 2-core machine two BLAS threads make a forward pass slower, not faster (bench/README.md): the threads
    wait for a core that another process (or another session's forward pass) holds. With one thread each,
    two sessions run their forward passes side by side instead. The matrices in the lessons are far too small for
    BLAS threads to help them either. threadpoolctl finds the BLAS library numpy actually loaded.
    """
    require("threadpoolctl").threadpool_limits(limits=threads, user_api="blas")


def check_model_name(name, *, served: bool = False) -> str:
    """``name`` if it can name a model: a shipped one, a folder here, or a hub id; else a refusal in one line.
    ``served``: asked by a visitor of the app, who may name a folder only under SERVED_FOLDERS."""
    if isinstance(name, str) and (name in MODEL_NAMES or _folder(name, served) or hub.HUB_ID.fullmatch(name)):
        return name
    if isinstance(name, str) and len(name) > MAX_MODEL_NAME_CHARS:
        raise AttnvizInputError(
            f"A model's name or folder is at most {MAX_MODEL_NAME_CHARS} characters long, not {len(name):,}."
        )
    choices = f"{' or '.join(MODEL_NAMES)}, a Hugging Face id such as openai-community/gpt2"
    more = ", or a model folder." if opens_folders(served) else " (this server opens no folders of its own disk)."
    raise AttnvizInputError(f"There is no model called {name!r}: choose {choices}{more}")


def opens_folders(served: bool) -> bool:
    return not served or bool(os.environ.get(SERVED_FOLDERS))


def _folder(name: str, served: bool = False) -> Path | None:
    """The model folder ``name`` names, if it is one this caller may open; the disk is not touched when none is."""
    if not opens_folders(served) or not 0 < len(name) <= MAX_MODEL_NAME_CHARS or "\0" in name:
        return None
    folder = Path(name).expanduser()
    if served and not folder.resolve().is_relative_to(Path(os.environ[SERVED_FOLDERS]).expanduser().resolve()):
        return None
    return folder if folder.is_dir() else None


def load_model(name: str, *, served: bool = False) -> Model:
    """The model called ``name``, loaded on first use; later calls return the same object. ``name`` is one of
    MODEL_NAMES, a local folder or a hub id holding config.json, model.safetensors and tokenizer.json of a BERT,
    GPT-2, Llama or Qwen2 model (attnviz.models.families).

    Raises AttnvizInputError in one plain line for a model that cannot be opened (and nothing is loaded), and
    ModelUnavailableError (one of them) with a one-line install hint when a shipped model's files are missing.
    ``served``: asked by a visitor of the app (check_model_name).
    """
    name = check_model_name(name, served=served)
    with _loading:
        if name in MODEL_NAMES and name not in _loaded:
            limit_blas_threads()
            if name == "all-MiniLM-L6-v2":
                from attnviz.models.encoder import Encoder as model_class
            else:
                from attnviz.models.decoder import Decoder as model_class
            _loaded[name] = model_class()
        if name in MODEL_NAMES:
            return _loaded[name]
        if name not in _user:
            limit_blas_threads()
            from attnviz.models.transformer import Transformer

            model = Transformer(_folder(name, served) or hub.download(name), name)
            _user.clear()  # one user model a process: the one before goes with its last run
            _user[name] = model
        return _user[name]


def loaded_models() -> tuple[str, ...]:
    """The names of the models this process has loaded so far (and still holds)."""
    return (*_loaded, *_user)
