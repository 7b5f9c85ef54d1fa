"""Sentences a student found wrong, each in the state it was found in: one test a sentence."""

from dataclasses import replace

import numpy as np

from attnviz.core.playground_state import PlaygroundState, import_head, load_example, set_dim
from attnviz.lessons.playground import describe_change, dropped_line, example_note, undone_line
from attnviz.lessons.stages import walkthrough
from attnviz.playground.views import playground_data, playground_views

MOVIE = load_example(PlaygroundState(), "movie_negation")


def stage(state: PlaygroundState, key: str):
    return next(s for s in walkthrough(state).stages if s.key == key)


def test_2_the_scale_stage_counts_only_the_cells_whose_digits_changed():
    caption = stage(MOVIE, "scale").caption  # 135 of 144 scores are 0.00 before and after ÷ 1.414
    assert caption.startswith("9 of 144 cells changed: each score was divided by 1.414; the other 135 show the same")
    assert "Every cell" not in caption
    assert int(stage(MOVIE, "scale").panels[-1].changed.sum()) == 9  # and only those are boxed


def test_4_undo_after_switching_the_question_says_the_question_came_back():
    asked = replace(MOVIE, predict="most")
    said = undone_line(replace(asked, predict="sharper"), asked)
    assert said == "Undone: the question “Which key gets the most weight?” is back."
    assert undone_line(asked, MOVIE) == "Undone: predict mode is off again."


def test_5_the_boxes_are_said_in_the_view_that_has_them():
    causal = replace(MOVIE, causal=True)
    caption = playground_data(causal, MOVIE, None, font_size=13, height=250, can_undo=True)["caption"]
    assert "too many to box" in caption and "Boxed in orange in view 2: the cells the last change altered" in caption
    assert "Boxed in orange:" not in caption


def test_16_a_uniform_row_names_no_ranking():
    flat = set_dim(MOVIE, 1, which="d_k")  # every score 0: "good" puts 1/12 on each key
    note = example_note(flat)
    assert note.endswith("Now “good” puts the same weight, 0.08, on each of the 12 keys it may see."), note
    assert "“The”" not in note


def test_18_a_dropped_cell_is_named_as_everywhere_else():
    typed = replace(MOVIE, edits=((("Q", 10, 1), 1.0),))
    said = dropped_line(typed, set_dim(typed, 1, which="d_k"))
    assert said == "Gone with this change: 1 typed cell (Q[10: amazing, dimension 2]). Undo brings it back."


def test_19_opening_a_real_head_says_the_vectors_are_new():
    rng = np.random.default_rng(0)
    Q, K, V = (rng.standard_normal((4, 8)).astype(np.float32) for _ in range(3))
    head = import_head(MOVIE, ("[CLS]", "a", "dog", "[SEP]"), Q, K, V, causal=False, title="a head", sentence="a dog")
    said = describe_change(MOVIE, head, playground_views(head, MOVIE)[2])
    assert said.startswith("New vectors: a model's own Q, K and V for its tokens") and "New words" not in said


def test_13_show_me_says_which_dimension_of_the_other_keys():
    from attnviz.lessons.challenges import CHALLENGES

    said = " ".join(words for c in CHALLENGES.values() for words, _ in c.solution(c.start()))
    assert "keys' it may see" not in said and "0 into the first dimension of the other keys it may see" in said


def test_14_step_by_step_says_the_blocked_keys():
    from attnviz.lessons.step_words import introduction

    said = introduction(replace(MOVIE, blocked_keys=(3,)), "quoted")
    assert "(12 tokens, d_k = 2, no causal mask, key 3 blocked, scaling on, τ = 1)" in said and "no mask" not in said
    assert "(12 tokens, d_k = 2, no mask, scaling on, τ = 1)" in introduction(MOVIE, "quoted")
    assert "causal mask, keys 1, 3 blocked" in introduction(replace(MOVIE, causal=True, blocked_keys=(1, 3)), "")


def test_6_its_own_key_scores_against_the_query_as_it_is_now():
    from attnviz.lessons.geometry import PRONOUN_KEYS, pronoun_self_text

    said = pronoun_self_text((1.0, 2.0), PRONOUN_KEYS)  # [1, 2]·[3, 1] = 5, not the example's 10
    assert "with the query [1, 2] it would score 5 against itself" in said and "score 10" not in said
    assert "tie with “animal”" in said
    moved = pronoun_self_text((3.0, 1.0), ((0.0, 1.0), *PRONOUN_KEYS[1:]))  # animal's key changed: no twin any more
    assert "matches no key here" in moved and "tie with “animal”" not in moved and "score 10" in moved


def test_9_the_sinks_share_counts_the_rows_the_heads_summary_counts():
    from attnviz.lessons.explanations import sink_shares, sinks_line
    from attnviz.lessons.real_model import head_summary
    from attnviz.models import head_statistics

    weights = np.array([[1.0, 0, 0], [0.5, 0.5, 0], [0.25, 0.25, 0.5]])  # the sink's own row puts 1 on itself
    shared = sink_shares({"raw": weights, "value": weights}, (0,))
    assert shared["raw"] == 0.375  # (0.5 + 0.25) / 2, not (1 + 0.5 + 0.25) / 3
    assert "38% to the sinks (s)" in head_summary(head_statistics(weights[None, None], (0,)), 0, 0, "s")
    assert sinks_line(shared, "s").startswith("The sinks' share of the other tokens' rows, on s:")


def test_11_the_querys_row_says_its_largest_key_in_plain_words():
    from attnviz.lessons.explanations import row_line

    tied = np.array([[0.4, 0.4, 0.2]] * 3)
    said = row_line({"raw": np.array([[0.19, 0.7, 0.11]] * 3), "value": tied}, ["[CLS]", "a", "b"], 2, "value")
    assert said == "Where query 2 (“b”) puts most: “a” in the raw attention; “[CLS]” and “a” (0.40 each) value-weighted."


def test_12_taking_a_token_away_says_the_maps_stay_the_whole_sentences():
    from attnviz.lessons.explanations import take_away_caption

    said = take_away_caption(False)
    assert "every weight on it becomes 0" in said and "The maps above stay those of the whole sentence" in said


def test_10_two_heads_shown_at_50_percent_get_one_verdict():
    from attnviz.lessons.real_model import head_summary, layer_table
    from attnviz.models import head_statistics

    def head(on_sink):
        rest = (1 - on_sink) / 2
        return [[1.0, 0, 0], [on_sink, rest, rest], [on_sink, rest, rest]]

    stats = head_statistics(np.array([[head(0.4996), head(0.5004)]]), (0,))  # 49.96% and 50.04%, both shown 50%
    said = [head_summary(stats, 0, h, "s") for h in (0, 1)]
    assert all("50% to the sinks (s)" in line for line in said)
    assert all(line.endswith("this head parks its attention on the sinks.") for line in said), said
    assert [row[-1] for row in layer_table(stats, 0)[1]] == ["parks its attention on the sinks"] * 2


def test_the_right_angle_hint_gives_a_pair_that_checks():
    from attnviz.lessons.challenges import CHALLENGES

    hint = CHALLENGES["right_angle"].hint
    assert "[3, 1] is at a right angle to [−1, 3]" in hint and np.dot([3, 1], [-1, 3]) == 0


def test_the_overviews_hover_puts_its_arrow_from_a_query_to_a_key():
    from attnviz.figures.real_model import head_maps

    maps = head_maps(np.full((2, 3, 4, 4), 0.25), ["a", "b", "c", "d"], side=4)
    hover = f"{maps.rows[1]} → {maps.cols[4 + 2]}"  # as the component joins a row and a column
    assert hover == "layer 1, query 1: b → key 2: c, head 2", hover


def test_step_by_steps_cover_knows_the_row_it_asks_about():
    """Step by step's question box covered row 8, the row it asks about: a covered view now carries that
    row (the component puts its box in the other half of the view, and Enter answers on it)."""
    from attnviz.figures.stages import stage_views

    for stage in walkthrough(MOVIE).stages:
        views = stage_views(stage, (8, 0), cover="Which cell?")
        covered = [view for view in views if view.get("cover")]
        assert covered and all(view["focus"] == 8 for view in covered), stage.key
        assert all(view["focus"] is None for view in views if not view.get("cover"))
