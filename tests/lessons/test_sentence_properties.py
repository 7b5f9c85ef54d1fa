"""Wrong words made hard to write: the sentences that judge, count or sum numbers, checked by hypothesis over
many generated Playground states (sentences, toggles, blocked keys, focus, temperature, d_k), each against the
question's own definition or the table it counts, computed here from the state, not from the sentence's code."""

from __future__ import annotations

import itertools
import re
from dataclasses import replace

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attnviz.core.numbers import format_fixed_numbers
from attnviz.core.playground_state import RANDOM, WORDS, PlaygroundState
from attnviz.core.presets import PRESETS
from attnviz.figures.stages import stage_views
from attnviz.lessons import predictions
from attnviz.lessons.playground import boxes_line, describe_change, example_note, focus_weights
from attnviz.lessons.predictions import SHARPER_CHOICES, PlaygroundQuestion, outcome
from attnviz.lessons.questions import RowQuestion, stage_question, stage_target
from attnviz.lessons.real_model import head_summary
from attnviz.lessons.stages import walkthrough
from attnviz.models import head_statistics
from attnviz.playground.views import playground_data, playground_views
from tests.lessons.sentence_registry import covers

STATES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
WORDS_POOL = ["the", "cat", "street", "because", "it", "was", "tired", "not", "good", ",", "."]


@st.composite
def states(draw, predict: str = "") -> PlaygroundState:
    """A Playground state as a student can reach it: a sentence, a source of vectors, sizes, toggles and a focus."""
    words = draw(st.lists(st.sampled_from(WORDS_POOL), min_size=1, max_size=9))
    n = len(words)
    return PlaygroundState(
        sentence=" ".join(words),
        source=draw(st.sampled_from([RANDOM, WORDS, *PRESETS])),
        seed=draw(st.integers(0, 999)),
        d_k=draw(st.integers(1, 8)),
        d_v=draw(st.integers(1, 4)),
        causal=draw(st.booleans()),
        scale=draw(st.booleans()),
        temperature=draw(st.sampled_from([0.1, 0.35, 0.5, 1.0, 2.0, 5.0])),
        blocked_keys=tuple(sorted(draw(st.sets(st.integers(0, n - 1), max_size=n)))),
        focus=draw(st.integers(0, n - 1)),
        predict=predict,
    )


def verdict(said: str) -> bool:
    """True for a reveal's "right", False for its "not this time": exactly one of them, after the prediction."""
    (found,) = re.findall(r"\(outlined in view 3\): (right|not this time)\.", said)
    return found == "right"


@covers(predictions.PlaygroundQuestion.reveal)
@STATES
@given(states(predict="zeroed"))
def test_the_mask_verdict_is_right_exactly_for_the_set_of_later_keys_not_blocked_already(state):
    later_open = {j for j in range(state.focus + 1, state.n) if j not in state.blocked_keys}  # the mask's own set
    keys = range(state.n)
    guesses = itertools.chain.from_iterable(itertools.combinations(keys, k) for k in range(min(state.n, 6) + 1))
    for guess in [*guesses, tuple(sorted(later_open))]:
        said = PlaygroundQuestion(state).reveal(guess)
        assert said.startswith("You predicted ") and verdict(said) == (set(guess) == later_open), said
        assert "the first" not in said and "key(s)" not in said and "only later keys" not in said
        if len(later_open) > 1:
            assert f"all {len(later_open)} at once" in said
        assert "…" not in said  # a list of keys names them all, or counts the rest ("all 7" adds up on screen)


@covers(predictions.PlaygroundQuestion.reveal)
@STATES
@given(states(predict="most"))
def test_the_most_verdict_is_right_exactly_for_a_key_with_the_rows_largest_weight(state):
    row = state.result().weights[state.focus]
    for guess in range(state.n):
        said = PlaygroundQuestion(state).reveal(guess)
        if state.result().fully_masked[state.focus]:
            assert "right" not in said.lower() and "not this time" not in said.lower()
            continue
        assert said.startswith("Right" if row[guess] == row.max() else "Not this time"), said


def entropy_bits(row: np.ndarray) -> float:
    row = row[row > 0]
    return float(-(row * np.log2(row)).sum())


@covers(predictions.PlaygroundQuestion.reveal)
@STATES
@given(states(predict="sharper"))
def test_the_sharper_verdict_agrees_with_the_rows_entropy_before_and_after(state):
    after = outcome(state)
    change = entropy_bits(after.result().weights[state.focus]) - entropy_bits(state.result().weights[state.focus])
    truth = "Sharper" if change < -1e-9 else "Flatter" if change > 1e-9 else "No change"
    for choice, name in enumerate(SHARPER_CHOICES):
        said = PlaygroundQuestion(state).reveal(choice)
        assert said.startswith(f"You predicted {name.lower()}: " + ("right." if name == truth else "not this time."))


TOGGLES = {
    "causal": lambda s, _: replace(s, causal=not s.causal),
    "scale": lambda s, _: replace(s, scale=not s.scale),
    "temperature": lambda s, t: replace(s, temperature=t),
    "block": lambda s, j: replace(s, blocked_keys=tuple(sorted(set(s.blocked_keys) ^ {j % s.n}))),
    "focus": lambda s, j: replace(s, focus=j % s.n),
}


@covers(describe_change)
@STATES
@given(states(), st.sampled_from(sorted(TOGGLES)), st.sampled_from([0.1, 0.5, 1.0, 3.0]), st.integers(0, 8))
def test_the_line_under_the_views_counts_the_weights_the_view_shows_changed(old, toggle, temperature, key):
    new = TOGGLES[toggle](old, temperature if toggle == "temperature" else key)
    weights = playground_views(new, old)[2]
    said = describe_change(old, new, weights)
    shown = [format_fixed_numbers(s.result().weights.ravel(), decimals=2) for s in (old, new)]
    masked = [s.result().blocked.ravel() for s in (old, new)]
    differ = sum(a != b or m != k for a, b, m, k in zip(*shown, *masked, strict=True))  # the cells a reader sees change
    total = new.n * new.n
    if match := re.search(r"moved (\d+) of (\d+) weights", said):
        assert (int(match[1]), int(match[2])) == (differ, total) and 0 < differ < total
    elif said.startswith("The last change left every weight"):
        assert differ == 0
    elif "moved every weight" in said:
        assert differ == total
    boxed = len(weights["changed"])
    assert boxed in (0, differ) and (boxed == 0 or "(boxed in orange)" in said)
    assert boxed or differ in (0, total) or "too many to box" in said  # unboxed changes are said in words
    assert boxed == 0 or 2 * differ <= total  # most cells changed: said in words, none boxed


@covers(example_note, focus_weights)
@STATES
@given(states(), st.sampled_from(sorted(TOGGLES)), st.integers(0, 8))
def test_the_examples_note_names_only_what_moved_and_quotes_the_focus_rows_weights(state, toggle, key):
    moved = TOGGLES[toggle](state, 2.0 if toggle == "temperature" else key)
    note = example_note(moved) or ""
    if "other keys blocked" in note:
        assert moved.blocked_keys, note  # never said over a state with no key blocked
    token = moved.tokens[moved.focus]
    if "puts" in note:
        assert f"“{token}” puts" in note or f"for “{token}”" in note, note


@covers(head_summary)
@STATES
@given(
    st.integers(1, 9).flatmap(
        lambda n: st.tuples(
            st.lists(st.lists(st.floats(-4, 4), min_size=n, max_size=n), min_size=n, max_size=n),
            st.sets(st.integers(0, n - 1), min_size=1, max_size=2),
            st.booleans(),
        )
    )
)
def test_a_heads_shares_partition_its_attention_and_add_up_to_100_percent(drawn):
    """Real model: the head summary's percentages are parts of one whole (119%)."""
    scores, sinks, causal = np.array(drawn[0]), tuple(sorted(drawn[1])), drawn[2]
    if causal:
        scores = np.where(np.tril(np.ones_like(scores)) > 0, scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    said = head_summary(head_statistics(weights[None, None], sinks), 0, 0, "the sinks")
    shares = [int(p) for p in re.findall(r"(\d+)% ", said)]
    assert sum(shares) == 100, said
    tokens = [i for i in range(len(weights)) if i not in sinks] or list(range(len(weights)))
    on_sinks = weights[tokens][:, list(sinks)].sum() / weights[tokens].sum()  # the sinks' part, worked out here
    assert abs(shares[0] - 100 * on_sinks) < 1 + 1e-9, said


@covers(boxes_line, predictions.PlaygroundQuestion.reveal)
@STATES
@given(states(), st.sampled_from(sorted(TOGGLES)), st.integers(0, 8), st.sampled_from(["", "most", "zeroed"]))
def test_whenever_a_view_boxes_cells_the_line_under_the_views_says_what_the_boxes_are(old, toggle, key, predict):
    new = replace(TOGGLES[toggle](old, 2.0 if toggle == "temperature" else key), predict=predict)
    made = ((0 if predict == "most" else ()), new) if predict else None  # revealed: the reveal's words
    data = playground_data(new, old, made, font_size=13, height=250, can_undo=True)
    boxed = [view["name"] for view in data["views"] if view["changed"]]
    assert not boxed or "boxed in orange" in data["caption"].lower(), (boxed, data["caption"])
    numbers = {["scores", "scaled", "weights", "output"].index(name) + 1 for name in boxed}
    named = re.search(r"Boxed in orange in views? ([\d, and]+):", data["caption"])
    said = {int(d) for d in re.findall(r"\d", named[1])} if named else set()
    if "(boxed in orange)" in data["caption"]:  # the weights' boxes, said with the weights
        said.add(3)
    assert said == numbers, (boxed, data["caption"])  # view 2's boxes were said as if they were view 3's


def drawn(view: dict, row: int, col: int) -> str:
    """What cell (row, col) of a view says on screen."""
    return view["text"][row * len(view["cols"]) + col]


@covers(predictions.PlaygroundQuestion.reveal)
@STATES
@given(states(predict="most"))
def test_the_most_reveal_quotes_each_score_and_weight_as_the_views_beside_it_draw_them(state):
    """A sentence said a score "800.00" (or "565.69") where view 2 drew it "800" ("566")."""
    i = state.focus
    _, scores, weights, _ = playground_views(state)
    for guess in range(state.n):
        said = PlaygroundQuestion(state).reveal(guess)
        if not (best := re.search(r"“[^”]*” \((\d+)\), weight (\S+), because its score (\S+) is the largest", said)):
            continue  # every key blocked: no number quoted
        j = int(best[1])
        assert (best[2], best[3]) == (drawn(weights, i, j), drawn(scores, i, j)), said
        if yours := re.search(r"\(“[^”]*”: (\S+)\)\. Change", said):
            assert yours[1] == drawn(scores, i, guess), said


@covers(RowQuestion.reveal)
@STATES
@given(states())
def test_a_stage_reveal_quotes_both_cells_as_the_stages_picture_draws_them(state):
    """Step by step's predict mode: "you predicted … (565.7)" beside a picture that drew it "566", weights "0.6652"
    beside "0.67"."""
    i = state.focus
    for stage in walkthrough(state).stages:
        target = stage_target(stage)
        view = stage_views(stage)[target]
        for guess in range(len(view["cols"])):
            said = stage_question("step_by_step", stage, i).reveal(guess)
            if said.startswith("Every cell of row"):  # every key blocked: the picture's row is all masked
                assert all(drawn(view, i, j) in ("0", "−∞") for j in range(len(view["cols"]))), said
                continue
            quoted = re.search(r"you predicted .* \(([^()]*)\); the largest in row .* is (.*): (\S+)\. A change", said)
            yours, best, value = quoted.groups()
            assert value == drawn(view, i, view["cols"].index(best)), said
            assert yours in ("masked", drawn(view, i, guess)), said
