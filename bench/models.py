"""Real-model benchmark: load and forward-pass times of both models, against PyTorch where it is
installed, and the RSS of a server-like process.

- Loads are timed in this process after a first load, so the files are in the page cache and the libraries imported
  (a "warm" load, what a server restart costs). The decoder's first conversion is timed into empty cache folders.
- A forward pass is ``model.run`` on a sentence it has not seen (every repeat shuffles the words), so the run cache
  never answers: tokenizing, every layer, every head through ``attnviz.attention``.
- PyTorch: when $ATTNVIZ_TORCH_PYTHON names a Python with torch and transformers (or this one has them), that Python
  runs bench/models_torch.py on the very files attnviz reads, float32, one thread, and each pass of attnviz is paired
  with a PyTorch pass on the same token ids, in turn (A B, then B A): the ratio is the median of the pairs' ratios,
  of the clock and of each pass's thread CPU time (which other processes on a shared machine barely move).
- RSS: a fresh Python process imports what the Streamlit server imports for the app, loads the encoder and runs a
  sentence near the token cap, then loads the decoder and does the same; it reports its VmRSS after each step.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from importlib.util import find_spec
from pathlib import Path

from threadpoolctl import threadpool_limits

from attnviz.models import MAX_TOKENS, load_model
from attnviz.models.decoder import SOURCE as DECODER_SOURCE
from attnviz.models.decoder import Decoder
from attnviz.models.encoder import SOURCE as ENCODER_SOURCE
from attnviz.models.encoder import Encoder

ENCODER, DECODER = ENCODER_SOURCE.model, DECODER_SOURCE.model

WORDS = [
    "the",
    "cat",
    "sat",
    "on",
    "a",
    "mat",
    "and",
    "dog",
    "ran",
    "to",
    "it",
    "was",
    "big",
    "red",
    "old",
    "new",
    "day",
    "sun",
    "sky",
    "sea",
    "one",
    "two",
    "three",
    "but",
    "not",
    "all",
    "can",
    "see",
    "how",
    "far",
    "we",
    "go",
]
SHORT = 32  # tokens: a sentence a student types; MAX_TOKENS is the longest the models take
LENGTHS = (8, SHORT, MAX_TOKENS)
TARGETS_MS = {("encoder", SHORT): 60.0, ("encoder", MAX_TOKENS): 200.0, ("decoder", SHORT): 400.0}
TARGET_RATIO = 1.2  # attnviz's pass at most 1.2 × PyTorch float32's, at SHORT tokens
RSS_WORDS = 120  # the RSS run's sentence: near the models' token cap
TARGET_ENCODER_LOAD_S, TARGET_DECODER_LOAD_S = 1.0, 2.0
TARGET_RSS_ENCODER_MB, TARGET_RSS_BOTH_MB = 450.0, 1200.0


_SEEDS = itertools.count()


def sentence(n_words: int, seed: int) -> str:
    """``n_words`` words, one token each, in an order of their own (so each seed is a new sentence)."""
    rng = random.Random(seed)
    return " ".join(rng.choice(WORDS) for _ in range(n_words))


def _row(measure, values, unit, target, detail) -> dict:
    value = statistics.median(values)
    return {
        "measure": measure,
        "value": value,
        "unit": unit,
        "target": None if target is None else f"≤ {target:g}",
        "met": None if target is None else value <= target,
        "n": len(values),
        "detail": detail,
    }


def _seconds(make, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        make()
        times.append(time.perf_counter() - started)
    return times


class TorchSide:
    """bench/models_torch.py in a Python that has torch and transformers, asked one pass at a time (isolated, -I:
    bench/profile.py must not stand in for the standard library's profile, which torch imports)."""

    def __init__(self, python: str) -> None:
        script = Path(__file__).with_name("models_torch.py")
        self.process = subprocess.Popen(
            [python, "-I", str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=script.parent
        )

    def ask(self, **request) -> dict:
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise RuntimeError(f"the PyTorch side stopped (exit {self.process.wait()})")
        return json.loads(answer)

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


def torch_python() -> str | None:
    """The Python that runs the PyTorch side: $ATTNVIZ_TORCH_PYTHON, else this one if it has torch and transformers."""
    if os.environ.get("ATTNVIZ_TORCH_PYTHON"):
        return os.environ["ATTNVIZ_TORCH_PYTHON"]
    return sys.executable if find_spec("torch") and find_spec("transformers") else None


def _forward_rows(kind: str, model, n_tokens: int, repeat: int, torch_side: TorchSide | None = None) -> list[dict]:
    """Median time of ``model.run`` and, with ``torch_side``, of PyTorch's pass on the same ids, in turn."""
    specials = len(model.run(WORDS[0]).tokens) - 1  # the encoder's [CLS] and [SEP]; none for the decoder
    warm_up = model.run(sentence(n_tokens - specials, next(_SEEDS)))  # not counted
    if torch_side:
        torch_side.ask(run=kind, ids=warm_up.token_ids.tolist())
    ours, theirs, cpu_ratios, lengths = [], [], [], set()
    with threadpool_limits(limits=1, user_api="blas"):
        for i in range(repeat):
            text = sentence(n_tokens - specials, next(_SEEDS))  # never a sentence the run cache has seen
            ids = model.tokenize(text)[0]
            torch_pass = torch_side.ask(run=kind, ids=ids) if torch_side and i % 2 else None  # B A every other time
            started, cpu = time.perf_counter(), time.thread_time()
            model.run(text)
            ours.append((time.perf_counter() - started) * 1000)
            our_cpu = (time.thread_time() - cpu) * 1000
            if torch_side:
                torch_pass = torch_pass or torch_side.ask(run=kind, ids=ids)
                theirs.append(torch_pass["ms"])
                cpu_ratios.append(our_cpu / torch_pass["cpu_ms"])
            lengths.add(len(ids))
    load = os.getloadavg()[0]  # the machine is shared: say how busy it was
    size = "/".join(map(str, sorted(lengths)))
    rows = [
        _row(
            f"{kind} forward pass, {n_tokens} tokens",
            ours,
            "ms",
            TARGETS_MS.get((kind, n_tokens)),
            f"model.run on an unseen sentence of {size} tokens; min {min(ours):.0f} ms; 1 BLAS thread; load {load:.1f}",
        )
    ]
    if torch_side:
        ratios = [a / b for a, b in zip(ours, theirs, strict=True)]
        rows += [
            _row(f"PyTorch {kind} forward pass, {n_tokens} tokens", theirs, "ms", None,
                 f"transformers, float32, eager attention, 1 thread, the same ids; min {min(theirs):.0f} ms"),
            _row(f"{kind}: attnviz / PyTorch, {n_tokens} tokens", ratios, "×",
                 TARGET_RATIO if n_tokens == SHORT else None,
                 f"median of {len(ratios)} interleaved pairs; range {min(ratios):.2f}–{max(ratios):.2f}"),
            _row(f"{kind}: attnviz / PyTorch CPU time, {n_tokens} tokens", cpu_ratios, "×", None,
                 f"each pass's own thread CPU time, the same pairs; range {min(cpu_ratios):.2f}–{max(cpu_ratios):.2f}"),
        ]  # fmt: skip
    return rows


def _conversion_row(repeat: int) -> dict:
    times = []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory(prefix="attnviz-bench-") as folder:
            os.environ["ATTNVIZ_CACHE_DIR"] = folder
            try:
                times += _seconds(Decoder, 1)
            finally:
                del os.environ["ATTNVIZ_CACHE_DIR"]
    return _row(
        "decoder first load (GGUF conversion)", times, "s", None, "read the GGUF, dequantise, write float32 safetensors"
    )


RSS_SCRIPT = """
import sys
def memory_mb():
    fields = dict(line.split(':', 1) for line in open('/proc/self/status'))
    return {name: int(fields[name].split()[0]) / 1024 for name in ('VmRSS', 'VmHWM')}
import json, streamlit, streamlit.web.server, plotly.graph_objects, pandas, attnviz  # what the server imports
from attnviz.models import load_model
readings = {'baseline': memory_mb()}
for name in sys.argv[2:]:
    tokens = len(load_model(name).run(' '.join(['word'] * int(sys.argv[1]))).tokens)
    readings[name] = {**memory_mb(), 'tokens': tokens}
print(json.dumps(readings))
"""


def _rss_rows(repeat: int) -> list[dict]:
    samples = []
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, "-c", RSS_SCRIPT, str(RSS_WORDS), ENCODER, DECODER],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).resolve().parents[1],
        ).stdout
        samples.append(json.loads(out))
    baseline = statistics.median(s["baseline"]["VmRSS"] for s in samples)
    encoder = [s[ENCODER]["VmRSS"] for s in samples]
    both = [s[DECODER]["VmRSS"] for s in samples]
    peak = max(s[DECODER]["VmHWM"] for s in samples)
    tokens = samples[0][ENCODER]["tokens"], samples[0][DECODER]["tokens"]
    note = f"fresh process with streamlit, plotly, pandas and attnviz imported ({baseline:.0f} MB before any model)"
    return [
        _row("RSS, encoder loaded", encoder, "MB", TARGET_RSS_ENCODER_MB, f"{note}; after a {tokens[0]}-token run"),
        _row(
            "RSS, both models loaded",
            both,
            "MB",
            TARGET_RSS_BOTH_MB,
            f"then the decoder and a {tokens[1]}-token run; peak {peak:.0f} MB",
        ),
    ]


def run(repeat: int = 7) -> list[dict]:
    encoder = load_model(ENCODER)  # first load: imports the libraries, fills the page cache
    decoder = load_model(DECODER)  # converts the GGUF if this machine never has
    python = torch_python()
    torch_side = TorchSide(python) if python else None
    try:
        if torch_side:
            for kind, model in (("encoder", encoder), ("decoder", decoder)):
                torch_side.ask(load=kind, folder=str(model.folder))  # the very files attnviz reads
        passes = [
            row
            for kind, model in (("encoder", encoder), ("decoder", decoder))
            for n_tokens in LENGTHS
            for row in _forward_rows(kind, model, n_tokens, repeat, torch_side)
        ]
    finally:
        if torch_side:
            torch_side.close()
    return [
        _row("encoder load (warm)", _seconds(Encoder, 5), "s", TARGET_ENCODER_LOAD_S, "files in the page cache"),
        _conversion_row(3),
        _row(
            "decoder load (converted)",
            _seconds(Decoder, 5),
            "s",
            TARGET_DECODER_LOAD_S,
            "float32 model.safetensors memory-mapped, tokenizer.json read",
        ),
        *passes,
        *_rss_rows(3),
    ]


if __name__ == "__main__":
    from bench import report

    print(report.table(run()))
