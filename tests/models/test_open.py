"""load_model(name_or_folder) beyond the shipped two: a local folder, a Hugging Face hub id through the real
``huggingface_hub`` client and a local endpoint (tests/support/hub_endpoint.py), one user model a process, and every
refusal, in one plain line, with nothing loaded."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from attnviz import AttnvizInputError
from attnviz.models import load_model, loaded_models, registry
from attnviz.models.checkpoint import read_safetensors
from attnviz.models.transformer import Transformer
from tests.support.hub_endpoint import HubEndpoint
from tests.support.live import REPO, free_port

TINY = Path(__file__).resolve().parents[1] / "fixtures" / "tiny_models"
FILES = ("config.json", "model.safetensors", "tokenizer.json")
LIMITS = (
    "attnviz opens models up to 200M parameters and 1 GB of weights: the memory of one Community Cloud app, which the "
    "two shipped models already share."
)


@pytest.fixture(autouse=True)
def no_user_model(monkeypatch):
    monkeypatch.setattr(registry, "_user", {})  # each test starts with no user model, and leaves none behind


def tiny_copy(tmp_path: Path, family: str = "gpt2") -> Path:
    return Path(shutil.copytree(TINY / family, tmp_path / f"my-{family}"))


def edit_config(folder: Path, **changes) -> None:
    config = json.loads((folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps(config | changes))


def safetensors_claiming(folder: Path, shape: list[int], dtype: str = "F16", size: int | None = None) -> None:
    """A model.safetensors whose header names one tensor of ``shape``, its bytes a sparse hole (no disk used)."""
    nbytes = 2 * math.prod(shape)
    header = json.dumps({"big": {"dtype": dtype, "shape": shape, "data_offsets": [0, nbytes]}}).encode()
    path = folder / "model.safetensors"
    with path.open("wb") as stream:
        stream.write(len(header).to_bytes(8, "little") + header)
        stream.truncate(size or 8 + len(header) + nbytes)


def unknown(folder):
    edit_config(folder, model_type="mamba", architectures=["MambaForCausalLM"])


def remote_code(folder):
    edit_config(folder, auto_map={"AutoModelForCausalLM": "modeling_mine.MyModel"})


def pickle_only(folder):
    (folder / "model.safetensors").unlink()
    (folder / "pytorch_model.bin").write_bytes(b"\x80\x04not really a pickle")


def no_tokenizer(folder):
    (folder / "tokenizer.json").unlink()


def wider_than_its_weights(folder):
    edit_config(folder, n_embd=48)


REFUSALS = {
    "unknown architecture": (unknown, "{} is a mamba model (MambaForCausalLM): attnviz reads BERT, GPT-2, Llama and "
                             "Qwen2 models."),
    "trust_remote_code": (remote_code, "{} needs trust_remote_code: it runs its own Python code, which attnviz never "
                          "runs. Open a BERT, GPT-2, Llama or Qwen2 model instead."),
    "pickle only": (pickle_only, "{} has its weights only as pytorch_model.bin, a pickle, which can run code when it "
                    "is read: attnviz reads model.safetensors only."),
    "over 200M parameters": (lambda f: safetensors_claiming(f, [250_000_000]), "{} has 250M parameters; " + LIMITS),
    "over 1 GB": (lambda f: safetensors_claiming(f, [8], size=1_200_000_000), "{}'s weights are 1.2 GB; " + LIMITS),
    "config disagrees with the shapes": (wider_than_its_weights, "{}'s config.json disagrees with its weights: "
                                         "transformer.wte.weight is 320 × 32, the config makes it 320 × 48."),
    "no tokenizer": (no_tokenizer, "{} has no tokenizer.json, the file that splits a sentence into tokens: open a "
                     "model that has one."),
}  # fmt: skip


def refused_folder(tmp_path: Path, refusal: str) -> tuple[str, str]:
    """A copy of the tiny GPT-2 broken as ``refusal`` says: (its folder, the message it must be refused with)."""
    folder = tiny_copy(tmp_path)
    make, message = REFUSALS[refusal]
    make(folder)
    return str(folder), message.format(folder)


@pytest.mark.parametrize("refusal", REFUSALS)
def test_each_refusal_is_one_plain_line_and_loads_nothing(tmp_path, refusal):
    name, message = refused_folder(tmp_path, refusal)
    before = loaded_models()
    with pytest.raises(AttnvizInputError) as refused:
        load_model(name)
    assert str(refused.value) == message and "\n" not in message
    assert loaded_models() == before


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("x" * 501, "A model's name or folder is at most 500 characters long, not 501."),
        ("no such model!", "There is no model called 'no such model!': choose all-MiniLM-L6-v2 or SmolLM2-135M, a "
         "Hugging Face id such as openai-community/gpt2, or a model folder."),
        (None, "There is no model called None: choose"),
    ],
)  # fmt: skip
def test_a_name_that_names_no_model_is_refused_before_anything_loads(name, message):
    with pytest.raises(AttnvizInputError) as refused:
        load_model(name)
    assert str(refused.value).startswith(message)


def test_a_hub_that_cannot_be_reached_is_said_so(monkeypatch, tmp_path):
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "ENDPOINT", f"http://127.0.0.1:{free_port()}")  # nothing listens: refused at once
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))  # an empty cache
    with pytest.raises(AttnvizInputError) as refused:
        load_model("someone/tiny-gpt2")
    assert str(refused.value) == (
        "The Hugging Face hub cannot be reached and someone/tiny-gpt2 is not in this machine's cache: check the "
        "connection, or open a model folder."
    )
    assert "someone/tiny-gpt2" not in loaded_models()


def test_a_local_folder_opens_and_runs(tmp_path):
    folder = str(tiny_copy(tmp_path, "llama"))
    model = load_model(folder)
    assert load_model(folder) is model and loaded_models()[-1] == folder
    run = model.run("The cat sat.")
    assert run.model == folder and run.tokens[0] == "<s>" and run.causal
    assert run.attention.shape[:2] == (2, 4)


def test_one_user_model_at_a_time(tmp_path):
    first, second = str(tiny_copy(tmp_path, "bert")), str(tiny_copy(tmp_path, "qwen2"))
    load_model(first)
    load_model(second)
    assert first not in loaded_models() and loaded_models()[-1] == second  # the first was let go


def test_a_notebook_shows_an_opened_models_head(tmp_path):
    from attnviz.notebook import show_model

    folder = str(tiny_copy(tmp_path, "qwen2"))
    views = show_model(folder, "The cat sat.", layer=1, head=3)
    run = load_model(folder).run("The cat sat.")
    assert views.state.imported.title == f"{folder}, layer 2, head 4"
    assert abs(views.result.weights - run.attention[1, 3]).max() < 1e-6  # the head's own weights (held as float32)
    with pytest.raises(AttnvizInputError, match=r"has no config\.json"):
        show_model(str(tmp_path))


# ----------------------------------------------------------------------------- the hub, with the real client
OPEN = """
import json, sys
from attnviz.models import load_model
out = {}
for name in sys.argv[1:]:
    try:
        out[name] = load_model(name).run("The cat sat.").tokens
    except Exception as error:
        out[name] = f"{type(error).__name__}: {error}"
print(json.dumps(out))
"""


def open_from(endpoint: str, caches: Path, *names: str) -> dict:
    """A fresh process (a server's) opening ``names`` through huggingface_hub pointed at ``endpoint``."""
    env = {**os.environ, "HF_ENDPOINT": endpoint, "HF_HOME": str(caches / "hf"), "HF_HUB_DISABLE_TELEMETRY": "1"}
    env.pop("HF_HUB_OFFLINE", None)
    done = subprocess.run(
        [sys.executable, "-c", OPEN, *names], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def hub_files(tmp_path_factory):
    """The endpoint's repositories: the tiny GPT-2; the same with only a pickle; the same claiming 1.2 GB."""
    files = {("tiny/gpt2", name): TINY / "gpt2" / name for name in FILES}
    pickled = tmp_path_factory.mktemp("pickled")
    pickle_only(shutil.copytree(TINY / "gpt2", pickled, dirs_exist_ok=True))
    files |= {("tiny/pickled", n): pickled / n for n in ("config.json", "pytorch_model.bin", "tokenizer.json")}
    large = tmp_path_factory.mktemp("large")
    shutil.copytree(TINY / "gpt2", large, dirs_exist_ok=True)
    safetensors_claiming(large, [8], size=1_200_000_000)
    files |= {("tiny/large", name): large / name for name in FILES}
    remote = tmp_path_factory.mktemp("remote")
    shutil.copytree(TINY / "gpt2", remote, dirs_exist_ok=True)
    remote_code(remote)
    return files | {("tiny/remote", name): remote / name for name in FILES}


def test_the_real_client_downloads_a_hub_model_once_then_opens_it_offline(hub_files, tmp_path):
    with HubEndpoint(hub_files) as endpoint:
        first = open_from(endpoint.url, tmp_path, "tiny/gpt2")
    assert first["tiny/gpt2"] == Transformer(TINY / "gpt2", "here").run("The cat sat.").tokens
    assert sorted(endpoint.downloads()) == sorted(FILES)
    gone = f"http://127.0.0.1:{free_port()}"
    assert open_from(gone, tmp_path, "tiny/gpt2") == first  # from huggingface_hub's cache


def test_the_hub_refuses_before_the_weights_are_downloaded(hub_files, tmp_path):
    with HubEndpoint(hub_files) as endpoint:
        out = open_from(endpoint.url, tmp_path, "tiny/pickled", "tiny/large", "tiny/none", "tiny/remote")
    assert out == {
        "tiny/remote": "AttnvizInputError: tiny/remote needs trust_remote_code: it runs its own Python code, which "
        "attnviz never runs. Open a BERT, GPT-2, Llama or Qwen2 model instead.",
        "tiny/pickled": "AttnvizInputError: tiny/pickled has its weights only as pytorch_model.bin, a pickle, which "
        "can run code when it is read: attnviz reads model.safetensors only.",
        "tiny/large": "AttnvizInputError: tiny/large's weights are 1.2 GB; " + LIMITS,
        "tiny/none": "AttnvizInputError: There is no public model tiny/none on the Hugging Face hub.",
    }
    assert sorted(endpoint.downloads()) == ["config.json"] * 3  # no weights, no tokenizer fetched


DRAW = """
import json, sys, time
from bench.harness.apptest import open_app
from attnviz.ui.state import setting_key
at = open_app()
at.session_state[setting_key("real_model", "model")] = sys.argv[1]
at.switch_page("pages/real_model.py").run()
while [i for i in at.info if i.value.startswith(("Loading", "Running", "Waiting"))]:
    time.sleep(0.1)
    at.run()
print(json.dumps({"exception": len(at.exception), "errors": [e.value for e in at.error],
                  "caption": at.caption[0].value, "subheaders": [s.value for s in at.subheader]}))
"""


def test_the_page_draws_a_model_the_real_client_downloaded(hub_files, tmp_path):
    env = {**os.environ, "HF_HOME": str(tmp_path / "hf"), "HF_HUB_DISABLE_TELEMETRY": "1"}
    env.pop("HF_HUB_OFFLINE", None)
    with HubEndpoint(hub_files) as endpoint:
        done = subprocess.run(
            [sys.executable, "-c", DRAW, "tiny/gpt2"], cwd=REPO, env=env | {"HF_ENDPOINT": endpoint.url},
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    drawn = json.loads(done.stdout.splitlines()[-1])
    assert drawn["exception"] == 0 and drawn["errors"] == []
    assert drawn["caption"].startswith("tiny/gpt2 is a decoder (GPT-2 design)")
    assert drawn["subheaders"] == ["Is this attention an explanation?", "What comes next"]
    assert sorted(endpoint.downloads()) == sorted(FILES)


def write_safetensors(path: Path, tensors: dict, dtype: str) -> None:
    """``tensors`` (float32) stored as float32, float16 or bfloat16 (bfloat16: each float32's top 16 bits, rounded
    down)."""
    header, blobs, offset = {}, [], 0
    for name, array in tensors.items():
        array = np.ascontiguousarray(array, dtype="<f4")
        blob = {
            "F32": array.tobytes,
            "F16": lambda array=array: array.astype("<f2").tobytes(),
            "BF16": lambda array=array: (array.view("<u4") >> 16).astype("<u2").tobytes(),
        }[dtype]()
        header[name] = {"dtype": dtype, "shape": list(array.shape), "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    encoded = json.dumps(header).encode()
    path.write_bytes(len(encoded).to_bytes(8, "little") + encoded + b"".join(blobs))


@pytest.mark.parametrize("dtype", ["F16", "BF16"])
def test_half_precision_weights_are_read_once_as_float32(tmp_path, dtype):
    folder = tiny_copy(tmp_path, "qwen2")
    full = Transformer(TINY / "qwen2", "float32")
    write_safetensors(folder / "model.safetensors", read_safetensors(TINY / "qwen2" / "model.safetensors", "x"), dtype)
    half = Transformer(folder, dtype)
    embed = full.weights["embed"]
    expected = (
        embed.astype(np.float16).astype(np.float32)
        if dtype == "F16"
        else (embed.view("<u4") & 0xFFFF0000).view(np.float32)
    )
    np.testing.assert_array_equal(half.weights["embed"], expected)  # exactly the stored numbers, in float32
    a, b = half.run("The cat sat."), full.run("The cat sat.")
    assert a.q.dtype == np.float32 and 0 < np.abs(a.attention - b.attention).max() < 0.05  # rounded weights, same model
