import math
from dataclasses import replace

import numpy as np

from attnviz import project
from attnviz.core.playground_state import PlaygroundState, load_example
from attnviz.lessons.stages import walkthrough

PRONOUN = load_example(PlaygroundState(), "pronoun_it")  # "animal street because it", key 3 blocked, focus 3


def test_stages_follow_the_pipeline():
    assert walkthrough(PRONOUN).stage_keys == ("scores", "scale", "mask", "softmax", "output")
    assert walkthrough(PRONOUN, from_embeddings=True).stage_keys[0] == "project"


def test_pronoun_walkthrough_matrices_and_formulas():
    walk = walkthrough(PRONOUN)
    np.testing.assert_array_equal(walk.stage("scores").panels[0].matrix[3, :3], [10, 7, 5])
    np.testing.assert_allclose(walk.stage("scale").panels[0].matrix[3, :3], np.array([10, 7, 5]) / math.sqrt(2))
    np.testing.assert_allclose(walk.stage("softmax").panels[0].matrix[3], [0.8703, 0.1043, 0.0254, 0], atol=5e-5)
    assert (
        walk.formula("scores", 3, 1)
        == r"\begin{aligned} S_{3,1} &= q_{3}\cdot k_{1} \\ &= 3 \cdot 1 + 1 \cdot 4 = 7 \end{aligned}"
    )
    assert walk.formula("scale", 3, 1) == r"\frac{S_{3,1}}{\sqrt{2}} = \frac{7}{1.414} = 4.95"
    assert walk.formula("mask", 3, 3).startswith(r"M_{3,3} = -\infty")  # "it" may not pick itself here
    assert "key is blocked for every query" in walk.formula("mask", 3, 3)
    softmax = walk.formula("softmax", 3, 1)
    assert r"(m = \max_j M_{3,j} = 7.071)" in softmax and r"e^{4.95 - 7.071}" in softmax
    assert r"\frac{0.1199}{1.149} = 0.1043" in softmax
    assert walk.formula("softmax", 3, 3).endswith("= 0")
    assert walk.formula("output", 3, 1).endswith("= 0.1043 \\end{aligned}")  # "place": only street has it


def test_mask_stage_outlines_what_it_blocked_and_shows_the_other_architecture():
    encoder = walkthrough(PRONOUN).stage("mask")
    after, decoder = encoder.panels
    np.testing.assert_array_equal(after.changed, after.blocked)
    assert after.blocked[:, 3].all() and after.blocked.sum() == 4  # only the blocked key
    assert decoder.title == "If it were a decoder (causal)"
    assert decoder.blocked[0, 1] and not decoder.blocked[1, 0] and decoder.blocked[:, 3].all()

    causal = walkthrough(replace(PRONOUN, causal=True)).stage("mask")
    assert causal.panels[1].title == "If it were an encoder (no causal mask)"
    assert not causal.panels[1].blocked[0, 1] and causal.panels[1].blocked[:, 3].all()
    assert "causal mask" in walkthrough(replace(PRONOUN, causal=True)).formula("mask", 0, 2)


def test_projection_stage_uses_seeded_embeddings():
    walk = walkthrough(PlaygroundState(sentence="a b c"), from_embeddings=True, d_model=3)
    np.testing.assert_allclose(walk.Q, project(walk.X, walk.W_q, walk.W_k, walk.W_v)[0])
    assert walk.Q.shape == (3, 4) and walk.X.shape == (3, 3)
    formula = walk.formula("project", 2, 0)
    assert formula.startswith(r"\begin{aligned} Q_{2,1} &= \sum_m X_{2,m}")
    assert formula.endswith(f"= {walk.Q[2, 0]:.4g} \\end{{aligned}}")  # no brackets, even when negative


def test_no_scaling_and_temperature_are_explained():
    walk = walkthrough(replace(PRONOUN, scale=False, temperature=2.0))
    assert walk.formula("scale", 3, 0) == r"\frac{S_{3,0}}{1\times 2} = \frac{10}{2} = 5"
    assert walk.stage("scale").panels[0].changed.all()  # divided by 2
    unchanged = walkthrough(replace(PRONOUN, scale=False)).stage("scale").panels[0]
    assert not unchanged.changed.any()  # divided by 1: nothing to outline


def test_long_sums_are_cut_short():
    walk = walkthrough(PlaygroundState())  # 12 tokens
    assert r"\cdots\ (\text{6 more})" in walk.formula("output", 0, 0)
