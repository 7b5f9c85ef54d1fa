"""A user's model from the Hugging Face hub, by its id ("openai-community/gpt2"), downloaded once into
huggingface_hub's own cache, as the shipped models are on Community Cloud; offline, from that cache alone.

Whatever can be refused before the weights are downloaded is: the config (its family, trust_remote_code), a
checkpoint that is only a pickle, weights over the size limit, a missing tokenizer.json.
"""

from __future__ import annotations

import re
from pathlib import Path

from attnviz import AttnvizInputError
from attnviz.core.limits import MAX_USER_MODEL_BYTES
from attnviz.models import checkpoint
from attnviz.models.sources import _hub_reachable, require

HUB_ID = re.compile(r"[A-Za-z0-9][\w.-]{0,95}(/[A-Za-z0-9][\w.-]{0,95})?")  # "gpt2", "openai-community/gpt2"


def unreachable(repo: str) -> AttnvizInputError:
    return AttnvizInputError(
        f"The Hugging Face hub cannot be reached and {repo} is not in this machine's cache: "
        "check the connection, or open a model folder."
    )


def download(repo: str) -> Path:
    """The folder (in huggingface_hub's cache) holding the model's config.json, model.safetensors, tokenizer.json."""
    hub = require("huggingface_hub")
    from huggingface_hub import constants, errors  # submodules: not attributes of the package until imported

    if not _hub_reachable(constants.ENDPOINT):  # at once, rather than the client's retries for 20 seconds
        try:
            return Path(hub.hf_hub_download(repo, "config.json", local_files_only=True)).parent
        except (errors.LocalEntryNotFoundError, OSError, ValueError) as error:
            raise unreachable(repo) from error
    try:
        config = Path(hub.hf_hub_download(repo, "config.json"))
    except (errors.RepositoryNotFoundError, errors.EntryNotFoundError, errors.HFValidationError) as error:
        raise AttnvizInputError(f"There is no public model {repo} on the Hugging Face hub.") from error
    except (errors.HfHubHTTPError, OSError) as error:
        raise unreachable(repo) from error
    checkpoint.family_of(checkpoint.read_config(config, repo), repo)  # its family, before any weight is fetched
    for name in ("tokenizer.json", *_weight_files(hub, errors, repo)):
        try:
            hub.hf_hub_download(repo, name)
        except (errors.HfHubHTTPError, OSError) as error:
            raise unreachable(repo) from error
    return config.parent


def _weight_files(hub, errors, repo: str) -> list[str]:
    """The files holding the weights (model.safetensors, or its shards with their index), after refusing, from the
    sizes the hub gives, a model whose weights or tokenizer attnviz would not open."""
    files, size = ["model.safetensors"], _size(hub, errors, repo, "model.safetensors")
    if size is None and _size(hub, errors, repo, checkpoint.SHARDS_INDEX) is not None:
        try:
            index = Path(hub.hf_hub_download(repo, checkpoint.SHARDS_INDEX)).read_bytes()
        except (errors.HfHubHTTPError, OSError) as error:
            raise unreachable(repo) from error
        files = checkpoint.shard_names(index, repo)
        sizes = [_size(hub, errors, repo, name) for name in files]
        if None in sizes:
            raise checkpoint.missing_shard(repo, files[sizes.index(None)])
        size = sum(sizes)
    if size is None:
        pickles = [name for name in checkpoint.PICKLES if _size(hub, errors, repo, name) is not None]
        raise checkpoint.no_safetensors(repo, pickles)
    if size > MAX_USER_MODEL_BYTES:
        raise checkpoint.too_large(repo, size)
    if _size(hub, errors, repo, "tokenizer.json") is None:
        raise checkpoint.no_tokenizer(repo)
    return files


def _size(hub, errors, repo: str, filename: str) -> int | None:
    """The file's size in bytes, from the hub's answer to a HEAD request; None if the repository has no such file."""
    try:
        return hub.get_hf_file_metadata(hub.hf_hub_url(repo, filename)).size
    except errors.EntryNotFoundError:
        return None
    except (errors.HfHubHTTPError, OSError) as error:
        raise unreachable(repo) from error
