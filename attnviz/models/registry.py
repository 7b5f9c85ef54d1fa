"""``load_model(name)``: each real model is loaded once per process and shared by every caller (every app session)."""

from __future__ import annotations

import threading

from attnviz import AttnvizInputError
from attnviz.models.base import Model
from attnviz.models.sources import require

MODEL_NAMES = ("all-MiniLM-L6-v2", "SmolLM2-135M")
BLAS_THREADS = 1

_loaded: dict[str, Model] = {}
_loading = threading.Lock()  # held while a model loads, so two sessions never load the same model twice


def limit_blas_threads(threads: int = BLAS_THREADS) -> None:
    """Use one BLAS thread in this whole process.

    On a loaded 2-core machine two BLAS threads make a forward pass slower, not faster (bench/README.md): the threads
    wait for a core that another process (or another session's forward pass) holds. With one thread each,
    two sessions run their forward passes side by side instead. The matrices in the lessons are far too small for
    BLAS threads to help them either. threadpoolctl finds the BLAS library numpy actually loaded.
    """
    require("threadpoolctl").threadpool_limits(limits=threads, user_api="blas")


def load_model(name: str) -> Model:
    """The model called ``name`` (one of MODEL_NAMES), loaded on first use; later calls return the same object.

    Raises AttnvizInputError for a name that is not a model, and ModelUnavailableError (one of them) with a one-line
    install hint when the model's files or libraries are missing.
    """
    if name not in MODEL_NAMES:
        raise AttnvizInputError(f"There is no model called {name!r}. Choose one of: {', '.join(MODEL_NAMES)}.")
    with _loading:
        if name not in _loaded:
            limit_blas_threads()
            if name == "all-MiniLM-L6-v2":
                from attnviz.models.encoder import Encoder as model_class
            else:
                from attnviz.models.decoder import Decoder as model_class
            _loaded[name] = model_class()
        return _loaded[name]


def loaded_models() -> tuple[str, ...]:
    """The names of the models this process has loaded so far."""
    return tuple(_loaded)
