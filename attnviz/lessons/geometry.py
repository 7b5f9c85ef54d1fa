"""Dot products seen as geometry: lengths, angles and cos θ for 2-D queries, keys and values.

The default example is the pronoun one: which earlier word does "it" point to? Its query, keys and values are the
Playground's example ``PRESETS["pronoun_it"]``, so both pages give "it" the same context vector.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attnviz.core import attention, softmax
from attnviz.core.errors import AttnvizInputError
from attnviz.core.limits import VECTOR_LIMIT
from attnviz.core.numbers import format_fixed, format_number, format_vector
from attnviz.core.presets import PRESETS

_PRONOUN = PRESETS["pronoun_it"]
PRONOUN_QUERY_LABEL = "it"
PRONOUN_KEY_LABELS = _PRONOUN.tokens[:3]  # animal, street, because: the words "it" may refer to
PRONOUN_QUERY = tuple(_PRONOUN.Q[3])  # [3, 1]
PRONOUN_KEYS = tuple(tuple(row) for row in _PRONOUN.K[:3])  # [3, 1], [1, 4], [1.5, 0.5]
# Dimensions "a living thing" and "a place": animal [1, 0], street [0, 1], and "because", a linking word, [0, 0].
PRONOUN_VALUES = tuple(tuple(row) for row in _PRONOUN.V[:3])


def vector(name: str, values) -> np.ndarray:
    """``values`` as a finite 2-D vector inside the page's range, or AttnvizInputError in plain words."""
    try:
        v = np.array(values, dtype=float)
    except (TypeError, ValueError) as error:
        raise AttnvizInputError(f"{name} must be two numbers.") from error
    if v.shape != (2,):
        raise AttnvizInputError(f"{name} must be two numbers (x and y), not {v.size}.")
    if not np.isfinite(v).all():
        raise AttnvizInputError(f"{name} must be finite numbers.")
    if np.abs(v).max() > VECTOR_LIMIT:
        raise AttnvizInputError(f"{name} must stay between −{VECTOR_LIMIT:g} and {VECTOR_LIMIT:g} in each coordinate.")
    return v


@dataclass(frozen=True)
class Comparison:
    """How one key compares with the query. ``angle_deg`` and ``cos`` are None when either vector has length 0."""

    dot: float
    query_length: float
    key_length: float
    cos: float | None
    angle_deg: float | None


def compare(query, key) -> Comparison:
    """a·b, |a|, |b|, cos θ = a·b / (|a||b|) and θ. A zero-length vector points nowhere, so it has no angle."""
    query, key = np.asarray(query, dtype=float), np.asarray(key, dtype=float)
    dot = float(query @ key)
    query_length, key_length = float(np.linalg.norm(query)), float(np.linalg.norm(key))
    if query_length == 0 or key_length == 0:
        return Comparison(dot, query_length, key_length, None, None)
    cos = float(np.clip(dot / (query_length * key_length), -1.0, 1.0))  # rounding can step just past ±1
    cross = float(query[0] * key[1] - query[1] * key[0])  # |a||b| sin θ: with atan2, exact at 0° and 180°
    return Comparison(dot, query_length, key_length, cos, math.degrees(math.atan2(abs(cross), dot)))


def degrees_text(comparison: Comparison) -> str:
    return "undefined" if comparison.angle_deg is None else f"{format_fixed(comparison.angle_deg, decimals=1)}°"


def cos_text(comparison: Comparison) -> str:
    return "undefined" if comparison.cos is None else format_fixed(comparison.cos, decimals=3)


def angle_text(comparison: Comparison) -> str:
    if comparison.angle_deg is None:
        return "angle undefined (a zero-length vector has no direction)"
    return f"θ = {degrees_text(comparison)}, cos θ = {cos_text(comparison)}"


def number_text(x: float) -> str:
    """A number for running text: a true minus sign, and brackets when it follows a "·"."""
    text = format_number(x, digits=6)
    return f"({text})" if x < 0 else text


@dataclass(frozen=True)
class RefresherRow:
    name: str
    a: tuple[float, float]
    b: tuple[float, float]
    comparison: Comparison

    @property
    def coordinate_sum(self) -> str:
        """e.g. "2·5 + 3·(−1) = 7"."""
        products = " + ".join(f"{number_text(x)}·{number_text(y)}" for x, y in zip(self.a, self.b, strict=True))
        return f"{products} = {format_number(self.comparison.dot, digits=6)}"

    @property
    def length_product(self) -> str:
        """e.g. "3.606 × 5.099 × 0.381 = 7.000": |a| |b| cos θ, each factor as the table prints it."""
        c = self.comparison
        if c.cos is None:
            return "undefined (a zero-length vector)"
        cos = format_fixed(c.cos, decimals=3)
        cos = f"({cos})" if cos.startswith("−") else cos
        return f"{format_fixed(c.query_length, decimals=3)} × {format_fixed(c.key_length, decimals=3)} × {cos} = " + (
            format_fixed(c.dot, decimals=3)
        )


def refresher_rows() -> list[RefresherRow]:
    """Three directions (same, perpendicular, opposite) and the worked sum a = [2, 3], b = [5, −1]."""
    pairs = (
        ("same direction (0°)", (2.0, 1.0), (4.0, 2.0)),
        ("perpendicular (90°)", (2.0, 1.0), (-1.0, 2.0)),
        ("opposite (180°)", (2.0, 1.0), (-4.0, -2.0)),
        ("worked example", (2.0, 3.0), (5.0, -1.0)),
    )
    return [RefresherRow(name, a, b, compare(a, b)) for name, a, b in pairs]


@dataclass(frozen=True)
class MagnitudeWin:
    """A key that is further from the query's direction yet scores higher, only because it is longer."""

    longer: int  # index of the misaligned, longer key
    aligned: int  # index of the better-aligned, shorter key


def magnitude_wins(query, keys) -> list[MagnitudeWin]:
    """Every pair where the larger angle wins on the dot product. Keys without an angle are left out."""
    comparisons = [compare(query, key) for key in keys]
    wins = []
    for i, far in enumerate(comparisons):
        for j, near in enumerate(comparisons):
            if far.angle_deg is None or near.angle_deg is None:
                continue
            if far.angle_deg > near.angle_deg + 1e-9 and far.dot > near.dot and far.key_length > near.key_length:
                wins.append(MagnitudeWin(longer=i, aligned=j))
    return wins


@dataclass(frozen=True)
class GeometryResult:
    query: np.ndarray  # (2,)
    keys: np.ndarray  # (n, 2)
    values: np.ndarray  # (n, 2)
    comparisons: list[Comparison]
    scores: np.ndarray  # (n,) q·k_j
    scaled: np.ndarray  # (n,) q·k_j / √2
    weights: np.ndarray  # (n,) softmax of the scaled scores
    unscaled_weights: np.ndarray  # (n,) softmax of the raw scores, to show what scaling changes
    context: np.ndarray  # (2,) Σ_j weights_j v_j


def attend_2d(query, keys, values) -> GeometryResult:
    """One query against a few 2-D keys, through the core's attention (so d_k = 2 and the scale is √2)."""
    query = vector("The query", query)
    keys = np.array([vector(f"Key {j + 1}", key) for j, key in enumerate(keys)])  # (n, 2)
    values = np.array([vector(f"Value {j + 1}", value) for j, value in enumerate(values)])  # (n, 2)
    result = attention(query[None, :], keys, values)  # one query row
    return GeometryResult(
        query=query,
        keys=keys,
        values=values,
        comparisons=[compare(query, key) for key in keys],
        scores=result.scores[0],
        scaled=result.scaled[0],
        weights=result.weights[0],
        unscaled_weights=softmax(result.scores[0]),
        context=result.output[0],
    )


# ----------------------------------------------------------------------------- what the page shows


def refresher_table(rows: list[RefresherRow]) -> dict[str, list[str]]:
    """The refresher's table: both ways of computing each dot product, side by side."""
    return {
        "case": [r.name for r in rows],
        "a": [format_vector(r.a, digits=6) for r in rows],
        "b": [format_vector(r.b, digits=6) for r in rows],
        "a₁b₁ + a₂b₂": [r.coordinate_sum for r in rows],
        "θ": [degrees_text(r.comparison) for r in rows],
        "cos θ": [cos_text(r.comparison) for r in rows],
        "|a| |b| cos θ": [r.length_product for r in rows],
    }


def key_table(result: GeometryResult, key_labels) -> dict[str, list]:
    """One row a key: its score, its length |k|, and its angle with the query."""
    return {
        "key": list(key_labels),
        "q·k": [float(s) for s in result.scores],
        "|k|": [c.key_length for c in result.comparisons],
        "θ": [degrees_text(c) for c in result.comparisons],
        "cos θ": [cos_text(c) for c in result.comparisons],
    }


def magnitude_sentences(result: GeometryResult, key_labels) -> list[str]:
    """One sentence (markdown) for each key that outscores a better-aligned key only by being longer."""
    sentences = []
    for win in magnitude_wins(result.query, result.keys):
        far, near = result.comparisons[win.longer], result.comparisons[win.aligned]
        sentences.append(
            f"**“{key_labels[win.longer]}”** points {degrees_text(far)} away from the query, yet scores "
            f"**{format_fixed(far.dot, decimals=1)}**, more than **“{key_labels[win.aligned]}”** "
            f"({format_fixed(near.dot, decimals=1)}), which points {degrees_text(near)} away. It outscores "
            f"“{key_labels[win.aligned]}” only because it is longer: |k| = {format_fixed(far.key_length)} against "
            f"{format_fixed(near.key_length)}."
        )
    return sentences


NO_MAGNITUDE_WIN = "With the current vectors, no key outscores a better-aligned key by being longer."


def pronoun_self_text(query=PRONOUN_QUERY, keys=PRONOUN_KEYS) -> str:
    """Why "it" is not among its own keys (and why the Playground's example blocks it), with the live ``query`` and
    ``keys`` (the page's inputs): its own key is the example's, which the page does not let a student change."""
    own_key, own = tuple(_PRONOUN.K[3]), float(np.dot(query, _PRONOUN.K[3]))
    twins = [name for name, key in zip(PRONOUN_KEY_LABELS, keys, strict=True) if tuple(key) == own_key]
    if twins:
        same = f"is the same as the key of “{twins[0]}”"
        then = f"tie with “{twins[0]}”, taking as much weight"
    else:
        same = "matches no key here (in the example it is the key of “animal”)"
        best = max(float(np.dot(query, key)) for key in keys)
        then = "outscore every key here" if own > best else "tie with the best key here" if own == best else (
            "be one more key competing for its weight")  # fmt: skip
    return (
        f"“{PRONOUN_QUERY_LABEL}” itself is not a key: the question is which other word it stands for, and its own "
        f"key, {format_vector(own_key, digits=6)}, {same}, so with the query {format_vector(query, digits=6)} it "
        f"would score {format_number(own)} against itself and {then}. "
        f"The Playground's example blocks key “{PRONOUN_QUERY_LABEL}” for the same reason."
    )


def worked_text(worked: RefresherRow) -> str:
    """The refresher's worked example, its sum written out to the table's own dot product."""
    a, b = worked.a, worked.b
    terms = " + ".join(f"{number_text(x)}·{number_text(y)}" for x, y in zip(a, b, strict=True))
    first, *rest = (x * y for x, y in zip(a, b, strict=True))
    products = format_number(first, digits=6) + "".join(
        f" {'−' if p < 0 else '+'} {format_number(abs(p), digits=6)}" for p in rest
    )
    return (
        f"Worked example: {format_vector(a, digits=6)}·{format_vector(b, digits=6)} = {terms} = {products} = "
        f"{format_number(worked.comparison.dot, digits=6)}. Mind the sign: dropping the minus would give "
        f"{format_number(float(np.dot(np.abs(a), np.abs(b))), digits=6)}."
    )


def values_text(result: GeometryResult, key_labels) -> str:
    """Section 5's words: what the values mean, and what the V-space chart draws."""
    return (
        "Each key has a value vector: what the word passes on when it is attended to. Here the two dimensions mean "
        "“a living thing” and “a place”; “because”, a linking word, passes on nothing: [0, 0]. The output for “it” "
        f"(its context vector) is the weighted blend Σ wⱼ vⱼ. {blend_picture_text(result, key_labels)} The defaults "
        "are the vectors of the Playground's example “What does ‘it’ refer to?”, so the context vector here is the "
        "output the Playground shows for “it” in that example."
    )


def blend_picture_text(result: GeometryResult, key_labels) -> str:
    """What the V-space chart draws, naming the values too short to draw: a [0, 0] value has no arrow."""
    zero = [
        f"“{name}”: {format_vector(v, digits=6)}"
        for name, v in zip(key_labels, result.values, strict=True)
        if not v.any()
    ]
    points = f" ({' and '.join(zero)}, only {'a point' if len(zero) == 1 else 'points'} at the origin)" if zero else ""
    return (
        f"In the chart, the thin dotted arrows from the origin are the values{points}. Beside them, drawn larger, the "
        "thick arrows are the weighted pieces wⱼ vⱼ laid end to end from the origin, and the thin blue arrow over "
        "them is their sum."
    )


def weights_text(result: GeometryResult, key_labels) -> str:
    shares = " · ".join(
        f"“{name}”: **{format_fixed(w, decimals=4)}**" for name, w in zip(key_labels, result.weights, strict=True)
    )
    return f"{shares} (sum {format_fixed(result.weights.sum(), decimals=4)})"


def context_text(result: GeometryResult) -> str:
    """context = Σ wⱼ vⱼ written out with the numbers."""
    terms = " + ".join(
        f"{format_fixed(w, decimals=4)}·{format_vector(v, digits=6)}"
        for w, v in zip(result.weights, result.values, strict=True)
    )
    context = ", ".join(format_fixed(x, decimals=4) for x in result.context)
    return f"context = {terms} = **[{context}]**"
