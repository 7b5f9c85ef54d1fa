"""An independent, deliberately naive attention: plain Python loops and math, no numpy linear algebra."""

from __future__ import annotations

import math


def naive_attention(Q, K, V, *, causal=False, scale=True, temperature=1.0, allowed=None):
    """Returns (scores, weights, output) as nested lists, computed one number at a time.

    Q has n_q rows and K, V have n_k rows; the counts may differ. ``causal`` follows PyTorch's is_causal, which is
    aligned top-left (``torch.ones(L, S).tril(diagonal=0)``): query i sees keys 0..i, whatever n_q and n_k.
    ``allowed`` is an n_q × n_k table of True (may attend) and False.
    """
    n_q, n_k, d_k, d_v = len(Q), len(K), len(Q[0]), len(V[0])
    scores = [[sum(Q[i][t] * K[j][t] for t in range(d_k)) for j in range(n_k)] for i in range(n_q)]
    divisor = (math.sqrt(d_k) if scale else 1.0) * temperature
    weights = []
    for i in range(n_q):
        visible = [j for j in range(n_k) if not (causal and j > i) and (allowed is None or allowed[i][j])]
        row = [0.0] * n_k
        if visible:
            top = max(scores[i][j] / divisor for j in visible)
            exps = {j: math.exp(scores[i][j] / divisor - top) for j in visible}
            total = sum(exps.values())
            for j in visible:
                row[j] = exps[j] / total
        weights.append(row)
    output = [[sum(weights[i][j] * V[j][c] for j in range(n_k)) for c in range(d_v)] for i in range(n_q)]
    return scores, weights, output
