"""The guided pages' challenges (Step by step, Geometry, Why we scale, Multi-head): goals on a page's own settings
and the Playground's state, each checked by the core's numbers."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from attnviz.core.playground_state import PlaygroundState, load_example
from attnviz.lessons import geometry as geo
from attnviz.lessons import multi_head, scaling
from attnviz.lessons.challenge import Challenge, Situation, at
from attnviz.lessons.playground import OPENING

# ----------------------------------------------------------------------------- the guided pages


def _mask_cell(s: Situation) -> bool:
    query, key = s.settings.get("query", -1), s.settings.get("key", -1)
    blocked = s.state.result().blocked
    return s.settings.get("stage") == "mask" and 0 <= query < s.state.n and 0 <= key < s.state.n and blocked[query, key]


def _largest_weight_cell(s: Situation) -> bool:
    weights, query = s.state.result().weights, s.settings.get("query", -1)
    return (
        s.settings.get("stage") == "softmax"
        and 0 <= query < s.state.n
        and s.settings.get("key") == int(np.argmax(weights[query]))
        and not s.state.result().fully_masked[query]
    )


def _geometry(s: Situation) -> geo.GeometryResult:
    def point(name: str, default) -> tuple[float, float]:
        return (s.settings.get(f"{name}_x", default[0]), s.settings.get(f"{name}_y", default[1]))

    keys = [point(f"key{j}", key) for j, key in enumerate(geo.PRONOUN_KEYS)]
    values = [point(f"value{j}", value) for j, value in enumerate(geo.PRONOUN_VALUES)]
    return geo.attend_2d(point("query", geo.PRONOUN_QUERY), keys, values)


def _geometry_start() -> Situation:
    points = {"query": geo.PRONOUN_QUERY} | {f"key{j}": k for j, k in enumerate(geo.PRONOUN_KEYS)}
    points |= {f"value{j}": v for j, v in enumerate(geo.PRONOUN_VALUES)}
    return Situation(
        OPENING, {f"{name}_{axis}": float(p[i]) for name, p in points.items() for i, axis in enumerate("xy")}
    )


def _one_hot_rows(s: Situation) -> float:
    return scaling.one_hot_share(
        s.settings.get("d_k", 64), n_tokens=s.settings.get("tokens", 16), seed=s.settings.get("seed", 0)
    )


def _d_k_where(s: Situation, test, options) -> list[tuple[str, Situation]]:
    for d_k in options:
        if test(at(s, d_k=d_k)):
            return [(f"move d_k to {d_k}", at(s, d_k=d_k))]
    return []


def _heads(s: Situation) -> multi_head.MultiHead:
    setup = multi_head.Setup(
        s.settings.get("d_model", 8),
        s.settings.get("heads", 2),
        s.settings.get("seed", 0),
        s.settings.get("causal", False),
        s.settings.get("tie", False),
    )
    return multi_head.run(multi_head.embeddings(s.state.n, setup), setup)


CHALLENGES = [
    Challenge(
        "minus_infinity",
        "step_by_step",
        "At the Mask stage, choose a cell whose score becomes −∞.",
        "The causal mask hides every key after the query: pick a query and a later key.",
        lambda: Situation(replace(OPENING, causal=True), {"stage": "scores", "query": 4, "key": 3}),
        _mask_cell,
        lambda s: [
            ("go to the Mask stage", at(s, stage="mask")),
            ("choose query 0 and key 1", at(s, stage="mask", query=0, key=1)),
        ],
    ),
    Challenge(
        "largest_weight",
        "step_by_step",
        "At the Softmax stage, choose the cell of “it”'s row (3) that gets the largest weight.",
        "Softmax keeps the order of the scores: the largest score a query may use wins.",
        lambda: Situation(load_example(PlaygroundState(), "pronoun_it"), {"stage": "scores", "query": 3, "key": 2}),
        _largest_weight_cell,
        lambda s: [
            ("go to the Softmax stage", at(s, stage="softmax")),
            (
                "choose the key with the largest score",
                at(s, stage="softmax", query=3, key=int(np.argmax(s.state.result().weights[3]))),
            ),
        ],
    ),
    Challenge(
        "right_angle",
        "geometry",
        "Move the key “street” so that its score with the query is exactly 0.",
        "A dot product is 0 when the arrows meet at a right angle: a query [x, y] is at a right angle to [−y, x], so "
        "the example's query [3, 1] is at a right angle to [−1, 3] (3·(−1) + 1·3 = 0).",
        _geometry_start,
        lambda s: abs(_geometry(s).scores[1]) < 1e-9 and _geometry(s).comparisons[1].key_length > 0,
        lambda s: [
            (
                "turn “street” to a right angle with the query",
                at(s, key1_x=-float(_geometry(s).query[1]), key1_y=float(_geometry(s).query[0])),
            )
        ],
    ),
    Challenge(
        "street_wins",
        "geometry",
        "Without moving “animal”, make “street” get the largest weight.",
        "A score grows with the key's length as well as with its direction.",
        _geometry_start,
        lambda s: (
            int(np.argmax(_geometry(s).weights)) == 1 and tuple(_geometry(s).keys[0]) == tuple(geo.PRONOUN_KEYS[0])
        ),
        lambda s: [("make “street” long, pointing near the query", at(s, key1_x=5.0, key1_y=5.0))],
    ),
    Challenge(
        "one_hot",
        "why_scale",
        "Find a d_k at which the unscaled softmax is one-hot (largest weight ≥ 0.99) for most rows.",
        "Unscaled scores spread out like √d_k: make d_k large.",
        lambda: Situation(OPENING, {"d_k": 4, "seed": 0, "tokens": 16}),
        lambda s: _one_hot_rows(s) > 0.5,
        lambda s: _d_k_where(s, lambda t: _one_hot_rows(t) > 0.5, (16, 32, 64, 128, 256, 512)),
    ),
    Challenge(
        "spread_out",
        "why_scale",
        "Using d_k alone, make the first row's unscaled largest weight less than 0.5.",
        "Small d_k: few terms in each dot product, so the scores stay close together.",
        lambda: Situation(OPENING, {"d_k": 512, "seed": 0, "tokens": 16}),
        lambda s: (
            scaling.one_row(
                s.settings.get("d_k", 64), n_tokens=s.settings.get("tokens", 16), seed=s.settings.get("seed", 0)
            ).raw_weights.max()
            < 0.5
        ),
        lambda s: _d_k_where(
            s,
            lambda t: (
                scaling.one_row(
                    t.settings["d_k"], n_tokens=t.settings.get("tokens", 16), seed=t.settings.get("seed", 0)
                ).raw_weights.max()
                < 0.5
            ),
            range(1, 9),
        ),
    ),
    Challenge(
        "symmetric",
        "multi_head",
        "Make head 1's raw scores symmetric (S = Sᵀ) without typing into X.",
        "S = Q Kᵀ = X W_Q (X W_K)ᵀ. When is that its own transpose?",
        lambda: Situation(OPENING, {"d_model": 8, "heads": 2, "seed": 0, "causal": False, "tie": False}),
        lambda s: float(np.abs(_heads(s).result.heads[0].scores - _heads(s).result.heads[0].scores.T).max()) < 1e-9,
        lambda s: [("tie W_K = W_Q", at(s, tie=True))],
    ),
    Challenge(
        "one_wide",
        "multi_head",
        "Give every head a width (d_head) of exactly 1.",
        "d_head = d_model / n_heads.",
        lambda: Situation(OPENING, {"d_model": 8, "heads": 2, "seed": 0, "causal": False, "tie": False}),
        lambda s: _heads(s).setup.d_head == 1,
        lambda s: [("set n_heads = d_model", at(s, heads=s.settings.get("d_model", 8)))],
    ),
    Challenge(
        "first_sees_itself",
        "multi_head",
        "Make the first token give all its attention to itself, in every head.",
        "Which mask leaves the first token nothing but itself to see?",
        lambda: Situation(OPENING, {"d_model": 8, "heads": 2, "seed": 0, "causal": False, "tie": False}),
        lambda s: all(head.weights[0, 0] == 1.0 for head in _heads(s).result.heads),
        lambda s: [("switch the causal mask on", at(s, causal=True))],
    ),
]
