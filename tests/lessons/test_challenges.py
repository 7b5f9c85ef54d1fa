"""Every challenge: not solved where it starts, solved by its own solution, and its check computed from the numbers
(an independent reference, where the goal is a number), not from words."""

import numpy as np
import pytest

from attnviz.core.random import random_qkv
from attnviz.lessons.challenge import Situation, at, edit
from attnviz.lessons.challenges import CHALLENGES
from tests.reference import naive_attention

PAGES = {"playground", "step_by_step", "geometry", "why_scale", "multi_head", "real_model"}


def weights_of(state) -> np.ndarray:
    Q, K, V = state.matrices()
    allowed = [[j not in state.blocked_keys for j in range(state.n)] for _ in range(state.n)]
    return np.array(
        naive_attention(Q.tolist(), K.tolist(), V.tolist(), causal=state.causal, scale=state.scale,
                        temperature=state.temperature, allowed=allowed)[1]
    )  # fmt: skip


def test_there_are_twelve_or_more_across_six_pages_each_with_words():
    assert len(CHALLENGES) >= 12 and {c.page for c in CHALLENGES.values()} == PAGES
    for challenge in CHALLENGES.values():
        assert challenge.goal.endswith(".") and challenge.hint.endswith((".", "?")), challenge.key


@pytest.mark.parametrize("key", list(CHALLENGES))
def test_a_challenge_starts_unsolved_and_its_solution_solves_it_move_by_move(key, request):
    challenge = CHALLENGES[key]
    if challenge.page == "real_model":  # the models, loaded the tests' way (the decoder into the session's folder)
        request.getfixturevalue("encoder"), request.getfixturevalue("decoder")
    start = challenge.start()
    assert not challenge.solved(start)
    moves = challenge.solution(start)
    assert moves and all(words for words, _ in moves)
    assert challenge.solved(moves[-1][1])
    assert not any(challenge.solved(after) for _, after in moves[:-1])  # the last move is the one that solves it


def test_the_negation_challenge_is_the_reference_weight_and_refuses_typing():
    challenge = CHALLENGES["negation"]
    solved = challenge.solution(challenge.start())[-1][1]
    assert weights_of(solved.state)[4, 3] >= 0.99
    typed = at(solved, edit(solved.state, {("V", 0, 0): 0.5}))  # the same weights, but a number was typed
    assert not challenge.solved(typed)


def test_it_animal_accepts_any_k_edit_that_works_and_no_q_edit():
    challenge = CHALLENGES["it_animal"]
    start = challenge.start()
    q = start.state.matrices()[0][7]
    by_hand = at(start, edit(start.state, {("K", 1, c): 50 * value for c, value in enumerate(q)}))
    assert weights_of(by_hand.state)[7, 1] > 0.5 and challenge.solved(by_hand)
    through_q = at(start, edit(start.state, {("Q", 7, c): 0.0 for c in range(start.state.d_k)}))
    assert not challenge.solved(through_q)


def test_copy_v2_needs_the_mask_and_the_blend_of_v2():
    challenge = CHALLENGES["copy_v2"]
    solved = challenge.solution(challenge.start())[-1][1]
    state = solved.state
    Q, K, V = state.matrices()
    out = np.array(naive_attention(Q.tolist(), K.tolist(), V.tolist(), causal=True)[2])
    np.testing.assert_allclose(out[5], V[2], atol=1e-6)
    assert not challenge.solved(Situation(state.__class__(**{**state.__dict__, "causal": False}), {}))


def test_why_scale_one_hot_is_measured_on_the_pages_own_rows():
    challenge = CHALLENGES["one_hot"]
    solved = challenge.solution(challenge.start())[-1][1]
    d_k = solved.settings["d_k"]
    Q, K, _ = random_qkv(16, d_k, 1, 0)  # the rows the page draws at seed 0, 16 tokens
    scores = Q @ K.T  # (16, 16) unscaled
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    assert (weights.max(axis=1) >= 0.99).mean() > 0.5
    smaller = at(solved, d_k=d_k // 2)  # the solution is the first d_k that does it
    assert not challenge.solved(smaller) and not challenge.solved(at(solved, d_k=1))


def test_geometry_right_angle_is_a_zero_dot_product():
    challenge = CHALLENGES["right_angle"]
    solved = challenge.solution(challenge.start())[-1][1].settings
    query = (solved["query_x"], solved["query_y"])
    street = (solved["key1_x"], solved["key1_y"])
    assert query[0] * street[0] + query[1] * street[1] == 0 and street != (0.0, 0.0)
