"""What the Playground says (attnviz/lessons/playground.py), for every field of the state."""

import dataclasses

from attnviz.core.playground_state import PlaygroundState, load_example
from attnviz.lessons.examples import EXAMPLES
from attnviz.lessons.playground import example_note, example_title, undone_line
from attnviz.lessons.predictions import PlaygroundQuestion
from attnviz.lessons.training import RATE_HELP


def test_undo_has_words_for_every_field_of_the_state():
    start = PlaygroundState()
    changed = {
        "sentence": "A cat.",
        "source": "words",
        "seed": 7,
        "d_k": 3,
        "d_v": 3,
        "causal": True,
        "scale": False,
        "temperature": 0.5,
        "blocked_keys": (1,),
        "focus": 2,
        "predict": "most",
        "edits": ((("Q", 0, 0), 1.0),),
        "model_tokens": ("a", "b"),
    }
    assert set(changed) == {field.name for field in dataclasses.fields(PlaygroundState)}  # a new field needs words
    for field, value in changed.items():
        assert undone_line(dataclasses.replace(start, **{field: value}), start) != "Undone: nothing had changed.", field


def test_a_masked_prediction_is_told_it_is_masked():
    state = dataclasses.replace(PlaygroundState(), causal=True, predict="most")  # row 4 may not see key 7
    said = PlaygroundQuestion(state).reveal(7)
    assert said.startswith("Not this time: you predicted “the” (7), outlined in view 3.") and "“the” is masked, so its weight is 0" in said


def test_a_shorter_sentence_names_the_typed_cells_blocked_keys_and_focus_it_drops():
    from attnviz.core.playground_state import set_sentence
    from attnviz.lessons.playground import dropped_line

    before = PlaygroundState(sentence="one two three four five six", focus=5, blocked_keys=(1, 4),
                             edits=((("K", 4, 0), "2"), (("Q", 0, 1), "3")))  # fmt: skip
    after, _ = set_sentence(before, "one two three")
    assert dropped_line(before, after) == (
        "Gone with this change: 1 typed cell (K[4: five, dimension 1]); the blocked key “five” (4); the focus on “six” (5), now on "
        "“three” (2). Undo brings them back."
    )
    assert dropped_line(after, after) is None
    assert undone_line(after, before).startswith("Undone: the sentence is back; 1 typed cell is back;")


def test_a_smaller_d_k_names_the_typed_cells_it_drops():
    from attnviz.core.playground_state import set_dim
    from attnviz.lessons.playground import dropped_line

    before = PlaygroundState(edits=tuple(((m, 0, 3), "1") for m in "QKV"))
    after = set_dim(before, 1, which="d_k")
    assert dropped_line(before, after) == (
        "Gone with this change: 2 typed cells (K[0: The, dimension 4], Q[0: The, dimension 4]). Undo brings them back."
    )


def test_the_examples_words_and_title_stop_where_the_student_moved_away():
    """The note kept describing “it” after the focus moved to “because”; "other keys blocked" was said after
    the only blocked key was unblocked; the Example box named the movie review over a typed sentence."""
    pronoun = load_example(PlaygroundState(), "pronoun_it")  # focus “it” (3), key 3 blocked
    assert example_note(pronoun) == EXAMPLES["pronoun_it"][1]
    moved = example_note(dataclasses.replace(pronoun, focus=2))
    assert moved.startswith("You have moved away from the example (the focus on “because”)") and "“because” puts" in moved
    unblocked = example_note(dataclasses.replace(pronoun, blocked_keys=()))
    assert "(no key blocked)" in unblocked and "other keys blocked" not in unblocked
    movie = load_example(PlaygroundState(), "movie_negation")
    assert example_title(movie, "movie_negation") == EXAMPLES["movie_negation"][0]
    typed = dataclasses.replace(movie, sentence="A film I did not like")
    assert example_title(typed, "movie_negation") == "Your sentence, with the vectors of: Movie review: “not good”"
    # Only the option in use names the sentence: the other examples keep their names.
    others = [key for key in EXAMPLES if key != "movie_negation"]
    assert [example_title(typed, key) for key in others] == [EXAMPLES[key][0] for key in others]


def test_the_learning_rates_help_names_the_run_it_quotes():
    """"the first reference text's training run" (which?): a student has no reference texts."""
    assert "reference text" not in RATE_HELP
    assert RATE_HELP == (
        "Adam's step size. 0.001 is Keras's default: the tiny model trained here was first trained with it, in Keras, "
        "for 8,000 samples and 10 epochs (this page's defaults)."
    )
