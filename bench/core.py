"""Core benchmark: ``attnviz.attention`` on random (n, d) matrices, d the widest head the Playground allows, µs per
call."""

from __future__ import annotations

import statistics
import timeit

import numpy as np

import attnviz
from attnviz.core.limits import MAX_DIM
from bench.product import FIRST_SCREEN_TOKENS

SIZES = (FIRST_SCREEN_TOKENS, 64, 256, 1024)
D = MAX_DIM


def run(sizes=SIZES, d: int = D, repeat: int = 7) -> list[dict]:
    rows = []
    for n in sizes:
        rng = np.random.default_rng(n)
        Q, K, V = (rng.standard_normal((n, d)) for _ in range(3))
        timer = timeit.Timer(lambda Q=Q, K=K, V=V: attnviz.attention(Q, K, V))
        number, _ = timer.autorange()  # calls per repeat so one repeat takes at least 0.2 s
        times = [t / number * 1e6 for t in timer.repeat(repeat=repeat, number=number)]
        rows.append(
            {
                "measure": f"core attention n={n}, d={d}",
                "value": statistics.median(times),
                "unit": "µs/call",
                "target": None,
                "met": None,
                "n": repeat,
                "detail": f"{number} calls per repeat; min {min(times):.1f} µs",
            }
        )
    return rows
