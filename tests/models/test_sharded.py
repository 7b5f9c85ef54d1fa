"""A model whose weights are kept in several safetensors files (model.safetensors.index.json and its shards), as
larger checkpoints are saved: opened from a folder and from the hub like one file, and refused in one plain line when
a shard is missing, the index names a path, or the shards together are over the size limit."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from attnviz import AttnvizInputError
from attnviz.models import load_model
from attnviz.models.checkpoint import SHARDS_INDEX, read_safetensors
from attnviz.models.transformer import Transformer
from tests.models.test_open import LIMITS, TINY, open_from, safetensors_claiming, write_safetensors
from tests.support.hub_endpoint import HubEndpoint

SHARDS = ("model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors")


def sharded_copy(folder: Path) -> Path:
    """The tiny GPT-2 in ``folder``, its weights split over two shards and an index, as save_pretrained writes them."""
    shutil.copytree(TINY / "gpt2", folder)
    tensors = read_safetensors(folder / "model.safetensors", "tiny")
    (folder / "model.safetensors").unlink()
    names = sorted(tensors)
    halves = (names[: len(names) // 2], names[len(names) // 2 :])
    for shard, half in zip(SHARDS, halves, strict=True):
        write_safetensors(folder / shard, {name: tensors[name] for name in half}, "F32")
    weight_map = {name: shard for shard, half in zip(SHARDS, halves, strict=True) for name in half}
    (folder / SHARDS_INDEX).write_text(json.dumps({"metadata": {}, "weight_map": weight_map}))
    return folder


def test_a_sharded_folder_opens_and_runs_as_the_one_file_model(tmp_path):
    whole = Transformer(TINY / "gpt2", "whole").run("The cat sat.")
    split = load_model(str(sharded_copy(tmp_path / "split"))).run("The cat sat.")
    assert split.tokens == whole.tokens
    np.testing.assert_array_equal(split.attention, whole.attention)  # the same float32 numbers, from two files


def missing_shard(folder: Path) -> None:
    (folder / SHARDS[1]).unlink()


def index_names_a_path(folder: Path) -> None:
    index = json.loads((folder / SHARDS_INDEX).read_text())
    index["weight_map"] = {name: f"../{shard}" for name, shard in index["weight_map"].items()}
    (folder / SHARDS_INDEX).write_text(json.dumps(index))


def not_an_index(folder: Path) -> None:
    (folder / SHARDS_INDEX).write_text("[1, 2]")


def over_the_limit_together(folder: Path) -> None:
    for shard in SHARDS:  # each 0.6 GB: under the limit alone, over it together
        (folder / shard).unlink()
        empty = folder / "empty"
        empty.mkdir(exist_ok=True)
        safetensors_claiming(empty, [8], size=600_000_000)
        (empty / "model.safetensors").rename(folder / shard)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (missing_shard, "{} lacks model-00002-of-00002.safetensors, one of the files its weights are kept in."),
        (index_names_a_path, "{}'s model.safetensors.index.json names no safetensors files beside it."),
        (not_an_index, "{}'s model.safetensors.index.json is not an index of its weight files."),
        (over_the_limit_together, "{}'s weights are 1.2 GB; " + LIMITS),
    ],
)
def test_a_sharded_folder_is_refused_in_one_line_when_it_cannot_be_opened(tmp_path, damage, message):
    folder = sharded_copy(tmp_path / "split")
    damage(folder)
    with pytest.raises(AttnvizInputError) as refused:
        load_model(str(folder))
    assert str(refused.value) == message.format(folder)


def test_the_real_client_downloads_every_shard_and_its_index(tmp_path):
    folder = sharded_copy(tmp_path / "split")
    names = (SHARDS_INDEX, *SHARDS, "config.json", "tokenizer.json")
    with HubEndpoint({("tiny/sharded", name): folder / name for name in names}) as endpoint:
        opened = open_from(endpoint.url, tmp_path / "caches", "tiny/sharded")
    assert opened["tiny/sharded"] == Transformer(TINY / "gpt2", "whole").run("The cat sat.").tokens
    assert sorted(endpoint.downloads()) == sorted(names)
