"""The Playground's challenges: goals on its state, each checked by the core's numbers."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from attnviz.core.playground_state import PlaygroundState, set_sentence
from attnviz.lessons.challenge import ONE_HOT, Challenge, Situation, at, edit, edited
from attnviz.lessons.playground import OPENING

# ----------------------------------------------------------------------------- the Playground

PRONOUN_SENTENCE = "The animal didn't cross the street because it was too tired."
IT, ANIMAL = 7, 1  # positions in PRONOUN_SENTENCE's tokens: “it”, “animal”


def _pronoun_start() -> Situation:
    state, _ = set_sentence(PlaygroundState(focus=IT), PRONOUN_SENTENCE)  # random vectors by position
    return Situation(state, {})


def _it_to_animal(situation: Situation) -> list[tuple[str, Situation]]:
    q = situation.state.matrices()[0][IT]  # (d_k,)
    k = q * (10 / max(np.abs(q).max(), 1e-9))  # the query's own direction, long: the largest dot product by far
    state = edit(situation.state, {("K", ANIMAL, c): value for c, value in enumerate(k)})
    return [(f"type k_animal = q_it × {10 / max(np.abs(q).max(), 1e-9):.3g} into K", at(situation, state))]


def _copy_v2(situation: Situation) -> list[tuple[str, Situation]]:
    causal = replace(situation.state, causal=True)
    d_k = causal.d_k
    query = edit(causal, {("Q", 5, c): 10.0 if c == 0 else 0.0 for c in range(d_k)})
    keys = edit(query, {("K", j, 0): 10.0 if j == 2 else 0.0 for j in range(6)})
    return [
        ("switch the causal mask on", at(situation, causal)),
        ("type q₅ = [10, 0, …]: it looks along the first dimension only", at(situation, query)),
        ("type 10 into k₂'s first dimension and 0 into the first dimension of the other keys it may see", at(situation, keys)),
    ]


def _sharper_by_temperature(situation: Situation) -> list[tuple[str, Situation]]:
    for tau in (0.5, 0.25, 0.1):
        state = replace(situation.state, temperature=tau)
        if state.result().weights[4].max() > 0.95:
            return [(f"move the temperature to τ = {tau}", at(situation, state))]
    return []


CHALLENGES = [
    Challenge(
        "negation",
        "playground",
        "Block keys so that “good” puts at least 0.99 of its attention on “not” (no typing).",
        "Which other key takes a share of “good”'s row? A blocked key gets 0 from every query.",
        lambda: Situation(OPENING, {}),
        lambda s: (
            s.state.example == "movie_negation" and not s.state.edits and s.state.result().weights[4, 3] >= ONE_HOT
        ),
        lambda s: [("block “amazing” (10)", at(s, replace(s.state, blocked_keys=(10,))))],
    ),
    Challenge(
        "uniform",
        "playground",
        "Make the row of “not” (3) uniform: every key the same weight.",
        "Softmax gives equal weights to equal scores. What query scores 0 with every key?",
        lambda: Situation(replace(OPENING, focus=3), {}),
        lambda s: (
            s.state.n > 3
            and not s.state.result().fully_masked[3]
            and np.ptp(s.state.result().weights[3][~s.state.result().blocked[3]]) < 1e-9
        ),
        lambda s: [
            ("type 0 into every cell of q₃", at(s, edit(s.state, {("Q", 3, c): 0.0 for c in range(s.state.d_k)})))
        ],
    ),
    Challenge(
        "it_animal",
        "playground",
        "Edit only K so that “it” (7) attends mostly (more than half its weight) to “animal” (1).",
        "A score is q_it · k_animal: it is largest when k_animal points the way q_it does, and is long.",
        _pronoun_start,
        lambda s: (
            s.state.tokens[IT : IT + 1] == ("it",)
            and not edited(s.state, "K")
            and s.state.result().weights[IT, ANIMAL] > 0.5
        ),
        _it_to_animal,
    ),
    Challenge(
        "copy_v2",
        "playground",
        "With the causal mask on, make token 5's output equal v₂ (to 2 decimals).",
        "An output is a blend of values: all of token 5's weight must go to key 2, which it may see.",
        lambda: Situation(replace(OPENING, focus=5), {}),
        lambda s: (
            s.state.causal
            and s.state.n > 5
            and np.allclose(s.state.result().output[5], s.state.matrices()[2][2], atol=0.005)
        ),
        _copy_v2,
    ),
    Challenge(
        "sharpen",
        "playground",
        "Without typing a number, make “good”'s largest weight more than 0.95.",
        "One setting divides every score: below 1 it pulls the scores apart.",
        lambda: Situation(OPENING, {}),
        lambda s: (
            s.state.example == "movie_negation" and not s.state.edits and s.state.result().weights[4].max() > 0.95
        ),
        _sharper_by_temperature,
    ),
    Challenge(
        "silence",
        "playground",
        "Make every token's output the zero vector without typing a number.",
        "An output blends the values a query may see. What if it may see none?",
        lambda: Situation(OPENING, {}),
        lambda s: not s.state.edits and not np.abs(s.state.result().output).any(),
        lambda s: [("block every key", at(s, replace(s.state, blocked_keys=tuple(range(s.state.n)))))],
    ),
]
