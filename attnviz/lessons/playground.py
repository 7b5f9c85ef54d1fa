"""What the Playground says about its state: the example's title and note, where the vectors come from, what the last
change did, and which tokens have nothing to attend to. Every number in these sentences is read from the live state,
so a sentence cannot outlive the setup it describes."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnviz.core.limits import MAX_TOKENS, VALUE_LIMIT
from attnviz.core.numbers import ACCEPTED_FORMS, cell_name, format_fixed_numbers, format_number
from attnviz.core.playground_state import (
    IMPORTED,
    RANDOM,
    WORDS,
    PlaygroundState,
    load_example,
    same_source,
)
from attnviz.core.presets import PRESETS
from attnviz.lessons import predictions
from attnviz.lessons.examples import EXAMPLES
from attnviz.lessons.predictions import KINDS

# A student's first screen: a worked example whose one row tells the story (“good” reads “not”), not random numbers.
OPENING = load_example(PlaygroundState(), "movie_negation")

INTRODUCTION = (
    "Each token asks with a query (Q), offers a key (K) and passes on a value (V); its row of weights says how much "
    f"it takes from each token's value. Words and punctuation become tokens (up to {MAX_TOKENS})."
)
MATRIX_ROLES = {"Q": "what each token looks for", "K": "what it offers", "V": "what it passes on"}
START_HERE = (
    "Start here: the focus token “{token}” is outlined in every view. Its row in view 3 says how much of its "
    "attention each word gets; predict what happens to that row, then switch {on_or_off} the causal mask."
)


TYPING_HELP = f"Type any number from −{VALUE_LIMIT:g} to {VALUE_LIMIT:g}: {ACCEPTED_FORMS}."  # under the tables


def first_words(state: PlaygroundState) -> str:
    """The first screen's words: what Q, K and V are, and what a typed sentence does with the current vectors."""
    return f"{INTRODUCTION} {source_line(state)}"


def matrix_heading(matrix: str, *, read: bool = False) -> str:
    """A table's heading ("**Q**: what each token looks for"), or its name for a screen reader (``read``)."""
    return f"{matrix}: {MATRIX_ROLES[matrix]}, one row a token" if read else f"**{matrix}**: {MATRIX_ROLES[matrix]}"


def example_title(state: PlaygroundState, key: str) -> str:
    """An option of the Example box. The example in use, under a sentence the student typed, is named as what is
    shown: their sentence on its vectors (the page sends the box's value again when these words change, so the
    browser never sends back words the box no longer has)."""
    if key == RANDOM:
        return "Random vectors by position (seed)"
    if key == WORDS:
        return "Random vectors from the words (seed)"
    title = state.imported.title if key == IMPORTED and state.imported is not None else EXAMPLES[key][0]
    return f"Your sentence, with the vectors of: {title}" if key == state.example and typed_over(state) else title


def typed_over(state: PlaygroundState) -> bool:
    """Whether the sentence shown is the student's own over an example's (or an imported head's) vectors."""
    if state.example == IMPORTED:
        return state.imported is not None and state.model_tokens is None
    return state.example in PRESETS and state.tokens != PRESETS[state.example].tokens


def source_line(state: PlaygroundState) -> str:
    """What a typed sentence does with the current source of vectors: said beside the sentence box."""
    if state.example == WORDS:
        return "Each word has its own vectors (the same word, the same vectors): a new sentence gives new views."
    if state.example == RANDOM:
        return (
            "Vectors belong to positions: a new sentence only relabels the rows. "
            "Choose “Random vectors from the words” to give each word its own."
        )
    return (
        "The example's vectors belong to positions: a new sentence relabels them. "
        "Choose “Random vectors from the words” to give each word its own."
    )


def example_note(state: PlaygroundState) -> str | None:
    """What to look at in the loaded example, true to the live state: the example's own words while its setup is
    untouched, and plainly what moved (with the focus row's live weights) once it is not."""
    if state.example == IMPORTED:
        return _imported_note(state)
    if state.example not in PRESETS:
        return None
    preset = PRESETS[state.example]
    moved = _moved_from(state, preset)
    if not moved:
        return EXAMPLES[state.example][1]
    return (
        f"You have moved away from the example ({', '.join(moved)}), so its description no longer holds. "
        f"Now {focus_weights(state)}"
    )


def _moved_from(state: PlaygroundState, preset) -> list[str]:
    """The settings in which ``state`` differs from the example as loaded, in words."""
    moved = []
    if state.tokens != preset.tokens:
        moved.append("another sentence")
    if (state.d_k, state.d_v) != (preset.Q.shape[1], preset.V.shape[1]):
        moved.append("other sizes")
    if state.edits:
        moved.append("edited cells")
    if state.causal != preset.causal:
        moved.append("causal mask " + ("on" if state.causal else "off"))
    if state.scale != preset.scale:
        moved.append("scaling " + ("on" if state.scale else "off"))
    if state.temperature != 1:
        moved.append(f"τ = {format_number(state.temperature)}")
    if state.blocked_keys != preset.blocked_keys:
        moved.append("other keys blocked" if state.blocked_keys else "no key blocked")
    if state.focus != preset.focus:  # the example's words are about its own focus token
        moved.append(f"the focus on “{state.tokens[state.focus]}”")
    return moved


def focus_weights(state: PlaygroundState, *, most: int = 3) -> str:
    """The focus token's largest weights, as the weights view shows them: "“good” puts 1.00 on “good”."."""
    result, i = state.result(), state.focus
    token = state.tokens[i]
    if result.fully_masked[i]:
        return f"every key is blocked for “{token}”, so it attends to nothing."
    row, open_keys = result.weights[i], np.flatnonzero(~result.blocked[i])  # (n,), the keys it may see
    shown = np.array(format_fixed_numbers(row, decimals=2))  # as the weights view prints them
    if len(set(shown[open_keys])) == 1:  # no ranking to name: every key it may see shows the same weight
        return f"“{token}” puts the same weight, {shown[open_keys[0]]}, on each of the {len(open_keys)} keys it may see."
    parts, named = [], 0
    for weight in sorted(set(shown[open_keys]) - {"0.00"}, key=lambda text: -float(text)):
        keys = [int(j) for j in open_keys if shown[j] == weight]
        if len(keys) > most:
            parts.append(f"{weight} on each of {len(keys)} keys")
        else:
            names = [f"“{state.tokens[j]}” ({j})" for j in keys]
            listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
            parts.append(f"{weight}{' each' if len(keys) > 1 else ''} on {listed}")
        named += len(keys)
        if named >= most:
            break
    return f"“{token}” puts " + ", ".join(parts) + "."


def _imported_note(state: PlaygroundState) -> str:
    head = state.imported
    mask = " with the causal mask" if state.causal else ""
    changed = (
        state.edits
        or state.model_tokens is None
        or (state.d_k, state.d_v) != (head.Q.shape[1], head.V.shape[1])
        or (state.scale, state.temperature, state.blocked_keys) != (True, 1.0, ())
    )
    return f"{head.title}: the model's own Q, K and V, and its own weights, softmax(QKᵀ/√d_k){mask}. " + (
        "You have changed the head since importing it, so these are no longer the model's weights."
        if changed
        else "Change a number or a setting and see what this head does with your change."
    )


@dataclass(frozen=True)
class Around:
    """Every word the Playground's views need around them, from one call (``words_around``)."""

    said: str  # the line under the views: what the last change did, or predict mode's prompt or reveal
    note: str  # the example's note; "" while the views are covered (it would give the answer away)
    warning: str  # which tokens have every key blocked, or ""


def words_around(
    old: PlaygroundState | None, new: PlaygroundState, views: list[dict], *, made=None, prompt: str = ""
) -> Around:
    """The words around the four ``views`` of ``new`` as drawn, the state before it ``old``. In predict mode the line
    is ``prompt`` until the prediction is ``made`` ((prediction, state it was asked on)), then its reveal; otherwise
    what the last change did. Where cells are boxed, the line says what the boxes are and in which views."""
    covered = bool(new.predict) and made is None
    if covered:
        said = prompt
    elif new.predict:
        said = predictions.PlaygroundQuestion(made[1]).reveal(made[0])
    else:
        said = describe_change(old, new, views[2])
    said += boxes_line(views, said)  # a box is never left unexplained, and the words name the views that have them
    return Around(said, "" if covered else example_note(new) or "", fully_masked_message(new) or "")


def describe_change(old: PlaygroundState | None, new: PlaygroundState, weights_view: dict) -> str:
    """One sentence on what the last change did to the weights, for the line under the views. ``weights_view`` is the
    weights view as drawn (attnviz.playground.views): its changed cells are the ones this sentence counts, and
    it says "boxed" only when that view boxes them."""
    if old is None or old == new:
        return START_HERE.format(token=new.tokens[new.focus], on_or_off="off" if new.causal else "on")
    source_kept = same_source(old, new)
    if not source_kept and new.example == IMPORTED:
        return "New vectors: a model's own Q, K and V for its tokens, so every view is new."
    if old.labels != new.labels and source_kept:
        return _new_words(old, new) if new.example != WORDS else "New words: every view is new."
    if not source_kept:
        return "New vectors" + (" and new words" if old.labels != new.labels else "") + ": every view is new."
    changed, total = weights_view["changed_count"], len(weights_view["rows"]) * len(weights_view["cols"])
    if not changed:
        return "The last change left every weight as it was shown."
    before, after = old.result().weights, new.result().weights  # (n, n)
    i, j = np.unravel_index(int(np.abs(after - before).argmax()), after.shape)
    was, now = format_fixed_numbers(np.array([before[i, j], after[i, j]]), decimals=2)
    if changed == total:
        where = "every weight"
    else:
        where = f"{changed} of {total} weights" + (" (boxed in orange)" if weights_view["changed"] else ", too many to box")
    return (
        f"The last change moved {where}. The largest move: “{new.tokens[i]}” ({i}) on “{new.tokens[j]}” ({j}), "
        f"{was} → {now}."
    )


def boxes_line(views: list[dict], said: str) -> str:
    """The words for the orange boxes the line ``said`` has not explained yet, naming the views that have them (view 3's
    are explained when ``said`` boxes the weights); "" when there are none."""
    weights_said = "(boxed in orange)" in said
    numbers = [str(at + 1) for at, view in enumerate(views) if view["changed"] and not (at == 2 and weights_said)]
    if not numbers:
        return ""
    which = f"view {numbers[0]}" if len(numbers) == 1 else f"views {', '.join(numbers[:-1])} and {numbers[-1]}"
    return f" Boxed in orange in {which}: the cells the last change altered there."


def _new_words(old: PlaygroundState, new: PlaygroundState) -> str:
    """A typed sentence when vectors belong to positions: say plainly that the numbers did not follow the words."""
    if old.n == new.n:
        kept = "every number stays as it was; only the labels changed"
    else:
        kept = f"the first {min(old.n, new.n)} rows keep their numbers"
    return f"New words, same vectors: the vectors belong to positions, so {kept}."


def _count(count: int, one: str, many: str) -> str:
    return f"{count:,} {one if count == 1 else many}"


def dropped_line(before: PlaygroundState, after: PlaygroundState) -> str | None:
    """What a move took away that the student had made (typed cells past the new sizes or sentence, blocked keys and
    the focus past its end), named; None when nothing went."""
    cells = sorted({cell for cell, _ in before.edits} - {cell for cell, _ in after.edits})
    keys = [j for j in before.blocked_keys if j not in after.blocked_keys]
    parts = []
    if cells:
        named = ", ".join(cell_name(m, r, c, before.tokens[r]) for m, r, c in cells[:4]) + (", …" if len(cells) > 4 else "")
        parts.append(f"{_count(len(cells), 'typed cell', 'typed cells')} ({named})")
    if keys:
        named = ", ".join(f"“{before.tokens[j]}” ({j})" for j in keys)
        parts.append(("the blocked key " if len(keys) == 1 else "the blocked keys ") + named)
    if before.focus >= after.n:
        parts.append(f"the focus on “{before.tokens[before.focus]}” ({before.focus}), now on "
                     f"“{after.tokens[after.focus]}” ({after.focus})")  # fmt: skip
    one = len(parts) == 1 and len(cells) <= 1 and len(keys) <= 1  # one thing went: "it", not "them"
    return f"Gone with this change: {'; '.join(parts)}. Undo brings {'it' if one else 'them'} back." if parts else None


def undone_line(undone: PlaygroundState, back: PlaygroundState) -> str:
    """The confirmation after Undo: which settings came back."""
    named = {
        "sentence": "the sentence is back",
        "seed": "the vectors are back",
        "source": "the vectors are back",
        "d_k": "the sizes are back",
        "d_v": "the sizes are back",
        "edits": (
            f"{_count(len(back.edits) - len(undone.edits), 'typed cell is', 'typed cells are')} back"
            if len(back.edits) > len(undone.edits) else "the edited cells are as before"
        ),
        "model_tokens": "the tokens are back",
        "predict": _predict_back(undone, back),
        "causal": "the causal mask is " + ("on" if back.causal else "off") + " again",
        "scale": "scaling is " + ("on" if back.scale else "off") + " again",
        "temperature": f"τ is {format_number(back.temperature)} again",
        "blocked_keys": "the blocked keys are as before",
        "focus": f"“{back.tokens[back.focus]}” is the focus token again",
    }
    came_back = dict.fromkeys(words for field, words in named.items() if getattr(undone, field) != getattr(back, field))
    return "Undone: " + ("; ".join(came_back) or "nothing had changed") + "."


def _predict_back(undone: PlaygroundState, back: PlaygroundState) -> str:
    """What Undo brought back of predict mode: the mode itself, or (the mode on throughout) the question."""
    if back.predict and undone.predict:
        return f"the question “{KINDS[back.predict]}” is back"
    return "predict mode is " + ("on" if back.predict else "off") + " again"


def fully_masked_message(state: PlaygroundState) -> str | None:
    """Names the tokens whose every key is blocked, or None."""
    dead = np.flatnonzero(state.result().fully_masked)
    if not len(dead):
        return None
    names = ", ".join(f"“{state.tokens[i]}” ({i})" for i in dead[:10]) + (" …" if len(dead) > 10 else "")
    return (
        f"Every key is blocked for {names}, so there is nothing to attend to: "
        "their weights are all 0 and their outputs are zero vectors. Unblock a key to bring them back."
    )
