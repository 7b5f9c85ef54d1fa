"""Presenter mode's lens (attnviz.figures.lens): the Playground's focus row and its formula, in the views' own words."""

import re
from dataclasses import replace

from attnviz.core.playground_state import PlaygroundState, set_sentence
from attnviz.figures.lens import TOP_SHOWN, lens_of, output_formula, row_lens
from attnviz.figures.matrix_view import hover_numbers
from attnviz.lessons.playground import OPENING
from attnviz.playground.views import playground_data, playground_views


def data(state, **options):
    return playground_data(state, None, None, font_size=18, height=130, can_undo=False, **options)


def test_the_lens_reads_the_weights_focus_row_and_the_output_it_makes():
    lens = data(OPENING, lens=True)["lens"]
    assert lens["view"] == "weights"
    assert lens["caption"].startswith("3. Weights: softmax of each row: row “4: good”, large.")
    assert "other numbers are smaller or left out" in lens["caption"]  # the grid's numbers said in words
    assert lens["formula"] == "output(good) = 0.67 × v(not) + 0.33 × v(amazing) = (1.00, 0.33)"


def test_without_presenter_mode_there_is_no_lens():
    assert data(OPENING)["lens"] is None


def test_while_the_weights_are_covered_there_is_no_lens_to_give_the_answer_away():
    """The scores' row (and the −∞ of its mask) answered the question the cover asks."""
    for kind in ("most", "sharper", "zeroed"):
        assert data(replace(OPENING, predict=kind), lens=True)["lens"] is None
    assert data(OPENING, lens=True)["lens"]["view"] == "weights"


def test_a_formula_names_its_three_largest_terms_and_counts_the_rest():
    """Twelve equal weights (identical keys): three terms shown, nine counted, the output's two values."""
    state = replace(OPENING, seed=0)
    views = playground_views(state)
    weights, output = views[2], views[3]
    cols = len(weights["ticks"])
    flat = ["0.08"] * cols
    row = weights["focus"] * cols
    weights = weights | {"text": weights["text"][:row] + flat + weights["text"][row + cols :]}
    said = output_formula(weights, output)
    assert said.startswith("output(good) = 0.08 × v(The) + 0.08 × v(movie) + 0.08 × v(was) + 9 more terms = (")


def test_above_the_text_limit_the_lens_draws_the_largest_weights_and_sums_up_the_rest():
    many, _ = set_sentence(PlaygroundState(), " ".join(f"w{i}" for i in range(30)))
    views = playground_views(many)
    lens = lens_of(views)
    numbers = hover_numbers(views[2])[4 * 30 : 5 * 30]  # the focus row (4) as the weights' hover says it
    weights = [float(text) for text in numbers]
    assert lens["columns"] == sorted(range(30), key=lambda j: -weights[j])[:TOP_SHOWN]
    assert lens["texts"] == [numbers[j] for j in lens["columns"]]  # the views' own numbers
    rest = sum(weights[j] for j in range(30) if j not in lens["columns"])
    assert lens["rest"] == f"the other {30 - TOP_SHOWN} keys: {rest:.2f} together"
    assert "too many keys for every number, so its 8 largest weights, and the rest in words." in lens["caption"]
    assert lens["formula"].startswith(f"output(w4) = {numbers[lens['columns'][0]]} × v(w")  # 3 terms, not in order


def test_a_summed_up_row_of_scores_gives_the_others_span_and_counts_the_masked():
    many, _ = set_sentence(PlaygroundState(), " ".join(f"w{i}" for i in range(30)))
    masked = replace(many, causal=True, focus=20)  # the scores read: 21 keys allowed, 9 after it masked
    scaled = playground_views(masked)[1]
    lens = row_lens(scaled, 20)  # as Step by step reads a row of scores
    assert lens["view"] == "scaled" and lens["formula"] == "" and len(lens["columns"]) == TOP_SHOWN
    assert re.fullmatch(r"the other 22 keys: from −?\d\.\d\d to −?\d\.\d\d, 9 masked", lens["rest"])


def test_a_chosen_column_outside_the_largest_is_shown_after_them_and_said():
    many, _ = set_sentence(PlaygroundState(), " ".join(f"w{i}" for i in range(30)))
    weights = playground_views(many)[2]
    smallest = min(range(30), key=lambda j: float(hover_numbers(weights)[4 * 30 + j]))
    lens = row_lens(weights, 4, chosen=smallest)
    assert lens["columns"][-1] == smallest and len(lens["columns"]) == TOP_SHOWN + 1 and lens["chosen"] == smallest
    assert "8 largest weights, then the chosen one, and the rest" in lens["caption"]
    assert lens["rest"].startswith(f"the other {30 - TOP_SHOWN - 1} keys: ")


def test_step_by_steps_lens_reads_the_chosen_row_of_what_the_formula_works_out_or_its_input_while_covered():
    from attnviz.figures.stages import stage_lens, stage_views
    from attnviz.lessons.stages import walkthrough

    softmax = next(stage for stage in walkthrough(OPENING).stages if stage.key == "softmax")
    lens = stage_lens(softmax, stage_views(softmax, (4, 3)), (4, 3))
    assert (lens["view"], lens["row"], lens["chosen"]) == ("softmax-1", 4, 3)
    assert lens["texts"] == [f"{w:.2f}" for w in softmax.result.matrix[4]]  # “good”'s weights: 0.67 on “not”
    assert "Outlined: the chosen cell, column “3: not”." in lens["caption"] and lens["formula"] == ""
    covered = stage_lens(softmax, stage_views(softmax, (4, 3), cover="Predict"), (4, 3))
    assert (covered["view"], covered["chosen"]) == ("softmax-0", None)  # the masked scores: nothing given away
    assert covered["caption"].endswith("Its result is covered until you predict.")
