"""Real-model benchmark (issue 11): load and forward-pass times of both models, and the RSS of a server-like process.

- Loads are timed in this process after a first load, so the files are in the page cache and the libraries imported
  (a "warm" load, what a server restart costs). The decoder's first conversion is timed into empty cache folders.
- A forward pass is ``model.run`` on a sentence it has not seen (every repeat shuffles the words), so the run cache
  never answers: tokenizing, every layer, every head through ``attnviz.attention``.
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
TARGETS_MS = {("encoder", SHORT): 60.0, ("encoder", MAX_TOKENS): 200.0, ("decoder", SHORT): 400.0}
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


def _forward_row(kind: str, model, n_tokens: int, repeat: int, blas_threads: int = 1) -> dict:
    """Median time of ``model.run``; with ``blas_threads`` other than load_model's 1, for comparison (no target)."""
    specials = len(model.run(WORDS[0]).tokens) - 1  # the encoder's [CLS] and [SEP]; none for the decoder
    model.run(sentence(n_tokens - specials, next(_SEEDS)))  # warm-up, not counted
    times, lengths = [], set()
    with threadpool_limits(limits=blas_threads, user_api="blas"):
        for _ in range(repeat):
            text = sentence(n_tokens - specials, next(_SEEDS))  # never a sentence the run cache has seen
            started = time.perf_counter()
            run = model.run(text)
            times.append((time.perf_counter() - started) * 1000)
            lengths.add(len(run.tokens))
    load = os.getloadavg()[0]  # the machine is shared: say how busy it was
    detail = (
        f"model.run on an unseen sentence of {'/'.join(map(str, sorted(lengths)))} tokens; min {min(times):.0f} ms; "
        f"{blas_threads} BLAS thread{'s' if blas_threads > 1 else ''}; load {load:.1f}"
    )
    measure = f"{kind} forward pass, {n_tokens} tokens" + (f", {blas_threads} BLAS threads" if blas_threads > 1 else "")
    target = TARGETS_MS.get((kind, n_tokens)) if blas_threads == 1 else None
    return _row(measure, times, "ms", target, detail)


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
        "decoder first load (GGUF conversion)", times, "s", None, "read the GGUF, dequantise, write float32 .npy files"
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
    return [
        _row("encoder load (warm)", _seconds(Encoder, 5), "s", TARGET_ENCODER_LOAD_S, "files in the page cache"),
        _forward_row("encoder", encoder, SHORT, repeat),
        _forward_row("encoder", encoder, MAX_TOKENS, repeat),
        _conversion_row(3),
        _row(
            "decoder load (converted)",
            _seconds(Decoder, 5),
            "s",
            TARGET_DECODER_LOAD_S,
            "float32 .npy files memory-mapped, tokenizer.json read",
        ),
        _forward_row("decoder", decoder, SHORT, repeat),
        _forward_row("decoder", decoder, MAX_TOKENS, repeat),
        _forward_row("decoder", decoder, SHORT, repeat, blas_threads=2),  # what load_model's one thread is chosen over
        *_rss_rows(3),
    ]


if __name__ == "__main__":
    from bench import report

    print(report.table(run()))
