"""Presenter mode's lens (attnviz.figures.lens): the Playground's focus row and its formula, in the views' own words."""

from dataclasses import replace

from attnviz.core.playground_state import PlaygroundState, set_sentence
from attnviz.figures.attention_grid import playground_data, playground_views
from attnviz.figures.lens import lens_of, output_formula
from attnviz.lessons.playground import OPENING


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


def test_while_the_weights_are_covered_the_lens_reads_the_scores_and_gives_no_answer_away():
    asked = replace(OPENING, predict="most")
    lens = data(asked, lens=True)["lens"]
    assert lens["view"] == "scaled" and lens["formula"] == ""
    assert "not" not in lens["caption"].split("row")[-1]  # the row's label only


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


def test_above_the_text_limit_there_is_no_lens():
    many, _ = set_sentence(PlaygroundState(), " ".join(f"w{i}" for i in range(30)))
    assert lens_of(playground_views(many)) is None
