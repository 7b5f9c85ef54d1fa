"""Worked examples from the reference texts, with their numbers corrected where the texts printed wrong ones."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from attnviz.core.tokenize import tokenize


@dataclass(frozen=True)
class Preset:
    """A worked example's numbers (its title and what it shows are words: attnviz.lessons.examples)."""

    key: str
    sentence: str
    Q: np.ndarray  # (n, d_k)
    K: np.ndarray  # (n, d_k)
    V: np.ndarray  # (n, d_v)
    causal: bool = False
    scale: bool = True
    blocked_keys: tuple[int, ...] = ()  # padding-style: no query may attend to these keys
    focus: int = 0  # the query token the example is about
    tokens: tuple[str, ...] = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "tokens", tuple(tokenize(self.sentence)))
        for name in ("Q", "K", "V"):
            matrix = np.array(getattr(self, name), dtype=float)
            matrix.flags.writeable = False
            object.__setattr__(self, name, matrix)


def _rows(n: int, width: int, **rows_at: list[float]) -> np.ndarray:
    """An (n, width) zero matrix with a few rows set, e.g. _rows(12, 2, r3=[20, 20])."""
    matrix = np.zeros((n, width))
    for label, values in rows_at.items():
        matrix[int(label[1:])] = values
    return matrix


_MOVIE = "The movie was not good, but the soundtrack was amazing."
_NEGATION_QK = _rows(12, 2, r3=[20, 20], r4=[0, 1], r10=[19, 19])  # not, good, amazing
_CAUSAL_QK = _rows(12, 2, r3=[0, 1], r4=[0, 1], r8=[19, 19], r10=[19, 19])  # not, good, soundtrack, amazing


def _movie(key: str, qk: np.ndarray, v: np.ndarray, **settings) -> Preset:
    """The movie review with queries and keys alike: each token looks for what it offers."""
    return Preset(key=key, sentence=_MOVIE, Q=qk, K=qk, V=v, **settings)


PRESETS: dict[str, Preset] = {
    preset.key: preset
    for preset in (
        _movie("movie_negation", _NEGATION_QK, _rows(12, 2, r3=[1, 0], r4=[0, 1], r10=[1, 1]), focus=4),
        Preset(
            key="pronoun_it",
            sentence="animal street because it",
            Q=[[3, 1], [1, 4], [1.5, 0.5], [3, 1]],
            K=[[3, 1], [1, 4], [1.5, 0.5], [3, 1]],
            V=[[1, 0], [0, 1], [0, 0], [0, 0]],  # dimensions: "a living thing", "a place"
            blocked_keys=(3,),  # only the three candidate words compete for "it"
            focus=3,
        ),
        Preset(
            key="cat_sat",
            sentence="The cat sat",
            Q=[[0.5, 0.5], [0.8, 0.2], [0.3, 0.9]],
            K=[[0.2, 0.8], [0.9, 0.3], [0.1, 0.7]],
            V=[[0.1, 0.9], [0.8, 0.5], [0.4, 0.6]],
        ),
        Preset(
            key="notebook_causal",
            sentence="my name is Aj",
            Q=[
                [0.11672673, -2.54870451, -1.44065948, 0.93661829, 1.36278968, 1.04252277, -0.01310938, -1.3163937],
                [0.26721599, -0.90218255, 0.07417847, -0.10430246, 0.52684253, -0.07081531, -0.60511725, -0.55225527],
                [-0.93297509, 0.28724456, 1.37184579, 0.41589874, 0.34981245, -0.24753755, -1.24497125, 0.05044148],
                [-0.11414585, -0.01545749, -0.58376828, -0.40193907, 0.93931836, -1.94334363, -0.34770465, 1.50103406],
            ],
            K=[
                [1.1226585, -0.85645535, 0.54315044, 1.36560451, 0.52539476, -0.94502504, -0.48444661, 0.46268014],
                [-0.53713766, -1.16937329, -0.57988617, 0.92713577, -0.85995607, -0.40352635, 0.26555146, -1.83159914],
                [-2.06994435, -0.09514715, -1.64928361, -0.17375184, 0.13146819, -1.76335363, 1.56568846, 0.69751826],
                [0.32910684, -0.1939204, -0.80444134, 0.78816869, 0.35599408, 0.28309835, -0.25970963, 1.49744622],
            ],
            V=[
                [-0.00368231, 1.43739233, -0.59614565, -1.23171219, 1.12030717, -0.98620738, -0.15461465, -1.03106383],
                [0.85585446, -1.79878344, 0.67321704, 0.05607552, -0.15542661, -1.41264124, -0.40136933, -1.17626611],
                [0.50465335, 2.28693419, 0.67128338, 0.2506863, 1.78802234, 0.14775751, -0.11405725, 0.88026286],
                [-0.68069105, 0.68385101, 0.17994557, -1.68013201, 0.91543969, -0.19108312, 0.03160471, 1.40527326],
            ],
            causal=True,
            focus=3,
        ),
        Preset(
            key="identical_keys",
            sentence="all keys look alike",
            Q=[[1, 0], [0, 2], [-1, 1], [2, 2]],
            K=[[1, 1], [1, 1], [1, 1], [1, 1]],
            V=[[1, 0], [0, 1], [1, 1], [0, 0]],
        ),
        _movie(
            "causal_movie", _CAUSAL_QK, _rows(12, 2, r3=[1, 0], r4=[0, 1], r8=[1, 1], r10=[1, 1]), causal=True, focus=10
        ),
    )
}
