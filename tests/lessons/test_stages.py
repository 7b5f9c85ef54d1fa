"""Step by step's stages: their matrices, formulas and every sentence that depends on the settings.

Numbers are checked against the naive reference (tests/reference.py) and the worked examples of the reference texts
(../shared/reference/INDEX.md): the "it" example (scores 10, 7, 5; weights 0.8703, 0.1043, 0.0254) and the movie
example (row "good": not 0.67, amazing 0.33; output [0.99999467, 0.33023767]).
"""

from dataclasses import replace

import numpy as np
import pytest

from attnviz.core.playground_state import PlaygroundState, load_example
from attnviz.lessons.scaling import scale_explanation
from attnviz.lessons.stages import COMPARISON_LIMIT, walkthrough
from attnviz.lessons.step_words import mask_caption
from tests.reference import naive_attention

PRONOUN = load_example(PlaygroundState(), "pronoun_it")  # "animal street because it", key 3 blocked, focus 3
MOVIE = load_example(PlaygroundState(), "movie_negation")


def stages(state, **options) -> dict:
    return {stage.key: stage for stage in walkthrough(state, **options).stages}


def test_stages_follow_the_pipeline():
    assert list(stages(PRONOUN)) == ["scores", "scale", "mask", "softmax", "output"]
    assert list(stages(PRONOUN, from_embeddings=True)) == ["project", "scores", "scale", "mask", "softmax", "output"]
    assert [s.name for s in stages(PRONOUN).values()] == ["Scores", "Scale", "Mask", "Softmax", "Weighted sum"]


def test_each_stage_shows_its_input_before_its_result():
    by_key = stages(PRONOUN)
    assert [p.title for p in by_key["scale"].panels] == ["Before: S", "After: S ÷ 1.414"]
    assert [p.title for p in by_key["softmax"].panels] == ["Before: masked scores", "After: weights"]
    assert [p.title for p in by_key["output"].panels] == ["Before: weights", "Before: V", "After: output"]
    for stage in by_key.values():
        assert stage.result is stage.panels[-1] and stage.result.title.startswith(("After", "If it were"))


def test_pronoun_numbers_match_the_worked_example_and_the_naive_reference():
    by_key = stages(PRONOUN)
    Q, K, V = PRONOUN.matrices()
    allowed = PRONOUN.allow_mask().tolist()
    scores, weights, output = naive_attention(Q.tolist(), K.tolist(), V.tolist(), allowed=allowed)
    np.testing.assert_array_equal(by_key["scores"].result.matrix[3, :3], [10, 7, 5])
    np.testing.assert_allclose(by_key["scores"].result.matrix, scores, rtol=1e-12)
    np.testing.assert_allclose(by_key["scale"].result.matrix[3, :3], np.array([10, 7, 5]) / np.sqrt(2))
    np.testing.assert_allclose(by_key["softmax"].result.matrix[3], [0.8703, 0.1043, 0.0254, 0], atol=5e-5)
    np.testing.assert_allclose(by_key["softmax"].result.matrix, weights, atol=1e-12)
    np.testing.assert_allclose(by_key["output"].result.matrix, output, atol=1e-12)


def test_movie_example_good_row_matches_the_reference_text():
    by_key = stages(MOVIE)
    weights = by_key["softmax"].result.matrix
    assert round(weights[4, 3], 2) == 0.67 and round(weights[4, 10], 2) == 0.33
    np.testing.assert_allclose(by_key["output"].result.matrix[4], [0.99999467, 0.33023767], atol=5e-9)


def test_pronoun_formulas_with_live_numbers():
    by_key = stages(PRONOUN)
    assert (
        by_key["scores"].formula(3, 1)
        == r"\begin{aligned} S_{3,1} &= q_{3}\cdot k_{1} \\ &= 3 \cdot 1 + 1 \cdot 4 = 7 \end{aligned}"
    )
    assert by_key["scale"].formula(3, 1) == r"\frac{S_{3,1}}{\sqrt{2}} = \frac{7}{1.414} = 4.95"
    assert by_key["mask"].formula(3, 3) == r"M_{3,3} = -\infty \quad \text{(key is blocked for every query)}"
    assert by_key["mask"].formula(3, 1) == r"M_{3,1} = 4.95 \quad \text{(allowed: unchanged)}"
    softmax = by_key["softmax"].formula(3, 1)
    assert r"m &= \max_j M_{3,j} = 7.071" in softmax and r"\exp(4.95 - 7.071)" in softmax
    assert r"\frac{0.1199}{1.149} = 0.1043" in softmax  # e^(4.95 − 7.071) = 0.1199 over 1 + 0.1199 + 0.0292
    assert by_key["softmax"].formula(3, 3).endswith("= 0")
    assert by_key["output"].formula(3, 1).endswith("= 0.1043 \\end{aligned}")  # "place": only street has it
    assert by_key["scale"].columns_are == "key" and by_key["output"].columns_are == "dimension"


def test_mask_stage_outlines_what_it_blocked_and_shows_the_other_architecture():
    before, after, decoder = stages(PRONOUN)["mask"].panels
    assert before.blocked is None and before.changed is None
    np.testing.assert_array_equal(after.changed, after.blocked)
    assert after.blocked[:, 3].all() and after.blocked.sum() == 4  # only the blocked key
    assert decoder.title == "If it were a decoder (causal)"
    assert decoder.blocked[0, 1] and not decoder.blocked[1, 0] and decoder.blocked[:, 3].all()

    causal = stages(replace(PRONOUN, causal=True))["mask"]
    assert causal.panels[2].title == "If it were an encoder (no causal mask)"
    assert not causal.panels[2].blocked[0, 1] and causal.panels[2].blocked[:, 3].all()
    assert "causal mask" in causal.formula(0, 2)
    assert "set up as a decoder, and also blocks key 3 for every query" in causal.explanation


def test_an_encoder_is_said_to_have_no_causal_mask_not_no_mask():
    """The encoder's mask stage shows masked cells (here key 3, blocked like padding), so the text may not
    say an encoder has no mask: it has no *causal* mask, and masks padding."""
    mask = stages(PRONOUN)["mask"]
    after = mask.panels[1]
    assert not PRONOUN.causal and after.blocked.sum() == 4 and np.isneginf(after.matrix[after.blocked]).all()
    assert "has no mask" not in mask.explanation
    assert "An **encoder** (BERT) has no *causal* mask: every token sees every token, before and after it. " in (
        mask.explanation
    )
    assert "padding" in mask.explanation


def test_above_the_comparison_limit_the_mask_stage_draws_two_pictures():
    state = PlaygroundState(sentence=" ".join(f"w{i}" for i in range(COMPARISON_LIMIT + 1)), causal=True)
    mask = stages(state)["mask"]
    assert [p.title for p in mask.panels] == ["Before: scaled scores", "After: the Playground's mask"]
    assert mask.explanation.endswith(
        f"(Above {COMPARISON_LIMIT} tokens the other choice is not drawn, to keep the page quick.)"
    )
    assert stages(PRONOUN)["mask"].explanation.endswith("; the third picture shows the other choice.")


def test_every_score_picture_shares_the_raw_scores_colour_scale():
    raw = PRONOUN.result().scores
    for stage in stages(PRONOUN).values():
        for panel in stage.panels:
            if panel.kind == "scores":
                assert panel.reach_of is raw, (stage.key, panel.title)
            if panel.kind == "weights":
                assert panel.reach_of is None  # always 0 to 1


def test_what_the_chosen_cell_reads_in_each_panel():
    picks = {key: [p.picks for p in stage.panels] for key, stage in stages(PRONOUN, from_embeddings=True).items()}
    assert picks == {
        "project": ["row", "cell", "none", "none"],
        "scores": ["row", "key_row", "cell"],
        "scale": ["cell", "cell"],
        "mask": ["cell", "cell", "cell"],
        "softmax": ["row", "cell"],
        "output": ["row", "column", "cell"],
    }


def test_projection_stage_uses_seeded_embeddings():
    walk = walkthrough(PlaygroundState(sentence="a b c"), from_embeddings=True, d_model=3)
    assert walk.Q.shape == (3, 4) and walk.X.shape == (3, 3)
    np.testing.assert_allclose(walk.Q, walk.X @ walk.W_q)
    np.testing.assert_array_equal(walk.result.scores, walk.Q @ walk.K.T)
    formula = walk.stages[0].formula(2, 0)
    assert formula.startswith(r"\begin{aligned} Q_{2,1} &= \sum_m X_{2,m}")
    q = sum(walk.X[2, m] * walk.W_q[m, 0] for m in range(3))  # the sum written out
    assert formula.endswith(f"= {q:.4g} \\end{{aligned}}")  # no brackets, even when negative


# ----------------------------------------------------------------------------- sentences that follow the numbers


@pytest.mark.parametrize(
    ("scale", "d_k", "temperature", "written"),
    [
        (True, 1, 1.0, "√d_k · τ = √1 · 1 = 1"),  # scaling on, yet nothing to divide by
        (True, 4, 0.5, "√d_k · τ = √4 · 0.5 = 1"),
        (False, 4, 1.0, "τ = 1 (scaling is off, so only the temperature divides)"),
    ],
)
def test_a_divisor_of_one_is_said_as_it_is(scale, d_k, temperature, written):
    said = f"Every score is divided by {written} here, so the scores pass through unchanged."
    assert scale_explanation(scale=scale, d_k=d_k, temperature=temperature) == said
    stage = stages(PlaygroundState(sentence="a b c", d_k=d_k, scale=scale, temperature=temperature))["scale"]
    assert stage.explanation == said
    assert stage.caption.startswith("No cell changed") and "Every cell" not in stage.caption


def test_scaling_sentence_follows_the_direction_of_the_divisor():
    flatter = scale_explanation(scale=True, d_k=4, temperature=1.0)  # ÷ 2
    assert "√4 · 1 = 2" in flatter and "gaps between scores shrink" in flatter and "less extreme" in flatter
    assert "grow" not in flatter and "sharper" not in flatter
    sharper = scale_explanation(scale=True, d_k=4, temperature=0.25)  # ÷ 0.5
    assert "√4 · 0.25 = 0.5" in sharper and "gaps between scores grow" in sharper and "sharper" in sharper
    assert "shrink" not in sharper and "less extreme" not in sharper
    temperature_only = scale_explanation(scale=False, d_k=64, temperature=2.0)
    assert "τ = 2 (scaling is off" in temperature_only and "shrink" in temperature_only


def test_scale_stage_says_whether_anything_changed():
    d_k_one = PlaygroundState(sentence="a b c", d_k=1)  # scaling on, d_k = 1: divides by 1
    stage = stages(d_k_one)["scale"]
    assert stage.caption.startswith("No cell changed: dividing by 1")
    assert not stage.result.changed.any()
    halved = stages(replace(d_k_one, temperature=2.0))["scale"]
    assert halved.caption.startswith("Every cell changed: each score was divided by 2.") and "paler" in halved.caption
    doubled = stages(replace(d_k_one, temperature=0.5))["scale"]
    assert "divided by 0.5" in doubled.caption and "stronger" in doubled.caption
    assert doubled.formula(0, 1) == (
        rf"\frac{{S_{{0,1}}}}{{\sqrt{{1}}\times 0.5}} = \frac{{{_num(doubled.panels[0].matrix[0, 1])}}}{{0.5}}"
        rf" = {_num(doubled.result.matrix[0, 1], bracket=False)}"
    )


def _num(x: float, *, bracket: bool = True) -> str:
    text = f"{x:.4g}"
    return f"({text})" if x < 0 and bracket else text


def test_mask_caption_counts_what_changed():
    assert mask_caption(np.zeros((3, 3), bool)) == "No cell changed: no key is masked, so both pictures are the same."
    every = mask_caption(np.ones((3, 3), bool))
    assert every.startswith("Every cell changed: every key is blocked for every query") and "nothing" not in every
    assert mask_caption(np.triu(np.ones((3, 3), bool), 1)) == "3 cells changed: this stage set them to −∞ (grey)."
    assert stages(replace(PRONOUN, blocked_keys=(0, 1, 2, 3)))["mask"].caption == every


def test_softmax_caption_says_fully_masked_rows_stay_zero():
    assert "stays all 0" not in stages(PRONOUN)["softmax"].caption
    assert "stays all 0" in stages(replace(PRONOUN, blocked_keys=(0, 1, 2, 3)))["softmax"].caption


def test_long_sums_are_cut_short():
    output = stages(PlaygroundState())["output"]  # 12 tokens
    assert r"\cdots\ (\text{6 more} = " in output.formula(0, 0)


def test_a_cut_sum_says_what_its_hidden_terms_add_up_to():
    """"… = 1" whose visible terms add up to 0.67: the 0.33 was hidden in "6 more"."""
    output = stages(MOVIE)["output"].formula(4, 0)  # “good”: 0.67 on “not”, 0.33 on “amazing” (10), past the sixth
    assert r"\\ &\quad + \cdots\ (\text{6 more} = 0.3302) = 1" in output  # on a line of its own


def test_with_no_mask_the_mask_stage_boxes_nothing_and_says_nothing_of_boxes():
    """"No cell changed … Boxed in orange: the cells this stage changed" over a picture full of boxes."""
    from attnviz.figures.stages import stage_notes, stage_views

    mask = stages(MOVIE)["mask"]  # no causal mask, no blocked key
    views = stage_views(mask, (4, 0))
    assert mask.caption.startswith("No cell changed") and [view["changed"] for view in views] == [[], [], []]
    assert "Boxed" not in stage_notes(mask, views)


def test_a_sum_of_products_takes_two_a_line_so_it_fits_a_phone():
    lines = stages(PlaygroundState())["output"].formula(0, 0).split(r" \\ ")
    assert len(lines) == 5  # the sum, then six products two a line, then "⋯ (6 more = …)"
    assert [line.count(r"\cdot ") for line in lines[1:]] == [2, 2, 2, 0]
    assert lines[-1].startswith(r"&\quad + \cdots\ (\text{6 more} = ")


def test_the_softmax_sum_is_worked_out_on_lines_of_its_own_so_it_fits_a_projector():
    """Twelve terms in the fraction's denominator ran 400 px past the right edge at 1280 × 720."""
    lines = stages(PlaygroundState())["softmax"].formula(4, 3).split(r" \\ ")  # 12 keys
    assert lines[2].startswith(r"\textstyle\sum_{j} e^{M_{4,j} - m} &= ")
    assert [line.count(" + ") for line in lines[2:6]] == [1, 2, 2, 1]  # two terms a line (a "+" leads the next)
    assert lines[5].startswith(r"&\quad + \cdots\ (\text{6 more} = ")
    assert " + " not in lines[-1]  # the fraction holds the sum's value, not its terms
