"""Predict, then reveal: the questions predict mode asks about the Playground's focus token. Each is answered by the
core's numbers for the state it asks about, and the reveal gives the arithmetic that decides it.

A question may ask about a change ("switch scaling off: sharper or flatter?"): the views stay covered on the state
before it, the student clicks a prediction on them, and the change is then made, so the reveal shows its effect.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from attnviz.core.errors import AttnvizInputError
from attnviz.core.numbers import format_fixed, format_number
from attnviz.core.playground_state import PlaygroundState
from attnviz.lessons.scaling import entropy

# kind: what the rail's drop-down says. "" is predict mode off.
KINDS = {
    "": "Off: show every view",
    "most": "Which key gets the most weight?",
    "sharper": "Scaling switched: sharper or flatter?",
    "zeroed": "Mask switched: which keys drop to 0?",
}
SHARPER_CHOICES = ("Sharper", "Flatter", "No change")
COVERED_OUTPUT = "Covered until you predict in view 3."
NO_KEY = -1  # "zeroed": no key changes (a click on the row's label)


def kind_of(value) -> str:
    """A kind from a link (a kind, or True/False from links made before there were kinds) or the rail (its index)."""
    if isinstance(value, bool):
        return "most" if value else ""
    if isinstance(value, int) and 0 <= value < len(KINDS):
        return list(KINDS)[value]
    if isinstance(value, str) and value in KINDS:
        return value
    raise AttnvizInputError("predict mode is not one of its questions.")


def outcome(state: PlaygroundState) -> PlaygroundState:
    """The state whose weights answer the question: the same state, or the state after the change it asks about."""
    if state.predict == "sharper":
        return replace(state, scale=not state.scale)
    if state.predict == "zeroed":
        return replace(state, causal=not state.causal)
    return state


def cover(state: PlaygroundState) -> str:
    """The words on the covered weights view: the question, and where to click."""
    token = state.tokens[state.focus]
    if state.predict == "sharper":
        return f"Scaling {_switched(state.scale)}: will “{token}”'s row get sharper or flatter?"
    if state.predict == "zeroed":
        return f"Which key of “{token}”'s row is the first to {_zeroed(state)}? Click it (its row label if none)."
    return f"Which key will “{token}” attend to most? Click its cell in the outlined row."


def choices(state: PlaygroundState) -> list[str]:
    """Buttons on the covered view, where the answer is not a cell."""
    return list(SHARPER_CHOICES) if state.predict == "sharper" else []


def prompt(state: PlaygroundState) -> str:
    """The line under the covered views."""
    if state.predict == "most":
        return (
            f"Predict first: which key will “{state.tokens[state.focus]}” ({state.focus}) attend to most? Click that "
            "key's cell in view 3; the weights and the outputs show once you have."
        )
    change = {
        "sharper": f"Predict first: switch scaling {_switched(state.scale)} (÷ √d_k = ÷ {_root(state)}). ",
        "zeroed": f"Predict first: switch the causal mask {_switched(state.causal)}. ",
    }[state.predict]
    return change + cover(state) + " The weights and the outputs show once you have."


def options(state: PlaygroundState) -> list[str]:
    """Every prediction the question allows, by position: what a class's answers are counted against."""
    if state.predict == "sharper":
        return list(SHARPER_CHOICES)
    labels = list(state.labels)
    return [*labels, "none"] if state.predict == "zeroed" else labels


def option_of(state: PlaygroundState, guess: int) -> int:
    """A prediction's position in ``options``: "none" is the last of the zeroed question's."""
    return state.n if guess == NO_KEY else guess


def guess_of(state: PlaygroundState, sent) -> int | None:
    """What a click on a covered view predicts (a key, a choice, or NO_KEY), or None for no prediction."""
    if not isinstance(sent, dict):
        return None
    if state.predict == "sharper":
        choice = sent.get("choice")
        return choice if _index_below(choice, len(SHARPER_CHOICES)) else None
    col = sent.get("col")
    if col is None and state.predict == "zeroed" and sent.get("row") == state.focus:
        return NO_KEY
    return col if _index_below(col, state.n) else None


def _index_below(value, size: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < size


def answer(before: PlaygroundState) -> int:
    """The right prediction for ``before`` (a key, a choice or NO_KEY), from the core's numbers."""
    i, after = before.focus, outcome(before)
    if before.predict == "sharper":
        change = float(entropy(after.result().weights[i]) - entropy(before.result().weights[i]))
        return 0 if change < -1e-9 else 1 if change > 1e-9 else 2
    if before.predict == "zeroed":
        flips = _flipped_keys(before, after)
        return int(flips[0]) if len(flips) else NO_KEY
    return row_answer(before.result().weights, before.result().blocked, i)


def reveal(before: PlaygroundState, after: PlaygroundState, guess: int) -> str:
    """The answer beside the prediction, with the numbers that decide it."""
    right = answer(before)
    tokens = after.tokens
    if before.predict == "sharper":
        said = f"You predicted {SHARPER_CHOICES[guess].lower()}: {'right' if guess == right else 'not this time'}. "
        return said + _sharper_why(before, after)
    if before.predict == "zeroed":
        named = "none" if guess == NO_KEY else f"“{tokens[guess]}” ({guess})"
        said = f"You predicted {named}: {'right' if guess == right else 'not this time'}. "
        return said + _zeroed_why(before, after)
    return _most_why(after, guess)


def _most_why(state: PlaygroundState, guess: int) -> str:
    result, i, tokens = state.result(), state.focus, state.tokens
    if result.fully_masked[i]:
        return f"Every key is blocked for “{tokens[i]}”, so it attends to nothing, whatever the prediction."
    row, scores = result.weights[i], result.masked[i]  # (n,), −∞ where masked
    best = row_answer(result.weights, result.blocked, i)
    verdict = "Right" if row[guess] == row[best] else "Not this time"
    why = f"its score {format_number(float(scores[best]))} is the largest “{tokens[i]}” may use"
    if np.isinf(scores[guess]):
        why += f"; “{tokens[guess]}” is masked, so its weight is 0"
    elif guess != best:
        why += f" (“{tokens[guess]}”: {format_number(float(scores[guess]))})"
    return (
        f"{verdict}: you predicted “{tokens[guess]}” ({guess}). “{tokens[i]}” attends most to “{tokens[best]}” "
        f"({best}), weight {format_fixed(float(row[best]))}, because {why}. Change anything and you are asked again."
    )


def _sharper_why(before: PlaygroundState, after: PlaygroundState) -> str:
    i, tokens = before.focus, before.tokens
    old, new = before.result().weights[i], after.result().weights[i]
    top = int(np.argmax(new))
    factor = (
        "the same scores"
        if before.d_k == 1
        else f"every score {_root(before)}× " + ("further apart" if before.scale else "closer together")
    )
    return (f"Without ÷ √d_k the row has {factor}" if before.scale else f"With ÷ √d_k the row has {factor}") + (
        f", and softmax turns a wider spread into sharper weights: “{tokens[top]}” {format_fixed(float(old[top]))} → "
        f"{format_fixed(float(new[top]))}; the row's spread (entropy) {format_fixed(float(entropy(old)))} → "
        f"{format_fixed(float(entropy(new)))} bits. Change anything and you are asked again."
    )


def _zeroed_why(before: PlaygroundState, after: PlaygroundState) -> str:
    i, tokens = before.focus, before.tokens
    flips = _flipped_keys(before, after)
    if not len(flips):
        return f"“{tokens[i]}” is the last token it may see up to: the mask hides only later keys. Change anything to ask again."
    keys = ", ".join(f"“{tokens[j]}”" for j in flips[:6]) + (" …" if len(flips) > 6 else "")
    went = "drop to 0" if after.causal else "come back from 0"
    return (
        f"The causal mask hides every key after the query ({i}), so {len(flips)} key(s) {went}: {keys}; the first is "
        f"“{tokens[flips[0]]}” ({flips[0]}). Change anything and you are asked again."
    )


def _flipped_keys(before: PlaygroundState, after: PlaygroundState) -> np.ndarray:
    """The focus row's keys masked in one state and not the other, in order."""
    i = before.focus
    return np.flatnonzero(before.result().blocked[i] != after.result().blocked[i])


def _switched(on: bool) -> str:
    return "off" if on else "on"


def _zeroed(state: PlaygroundState) -> str:
    return "come back from 0" if state.causal else "drop to 0"


def _root(state: PlaygroundState) -> str:
    return format_number(float(np.sqrt(state.d_k)))


# ----------------------------------------------------------------------------- Step by step


def stage_target(stage) -> int:
    """The panel a stage's prediction is about: its first result (the first panel that is not an input)."""
    return next(k for k, panel in enumerate(stage.panels) if not panel.is_input)


def stage_cover(stage, query: int, labels: list[str]) -> str:
    return row_cover(labels[query], stage.panels[stage_target(stage)].title)


def stage_answer(stage, query: int) -> int:
    """The column of the largest shown value in the query's row of the stage's first result (masked cells: never)."""
    panel = stage.panels[stage_target(stage)]
    return row_answer(panel.matrix, panel.blocked, query)


def stage_reveal(stage, query: int, guess: int) -> str:
    panel = stage.panels[stage_target(stage)]
    return row_reveal(panel.matrix, panel.blocked, query, guess, panel.row_labels, panel.col_labels, panel.title)


# ----------------------------------------------------------------------------- any matrix: which cell of a row wins


def row_cover(row_label: str, title: str) -> str:
    return f"Predict first: which cell of row {row_label} will be the largest in “{title}”? Click it."


def row_answer(matrix, blocked, row: int) -> int:
    """The column of the largest value in ``row`` of ``matrix`` (rows, cols), never a ``blocked`` (masked) cell."""
    values = np.asarray(matrix, dtype=float)[row]
    if blocked is not None:
        values = np.where(np.asarray(blocked, bool)[row], -np.inf, values)
    return int(np.argmax(values))


def row_reveal(matrix, blocked, row: int, guess: int, row_labels, col_labels, title: str) -> str:
    """The answer beside the prediction, with both values."""
    values = np.asarray(matrix, dtype=float)[row]
    best = row_answer(matrix, blocked, row)
    masked = blocked is not None and bool(np.asarray(blocked, bool)[row, guess])
    yours = "masked" if masked else format_number(float(values[guess]))
    verdict = "Right" if guess == best or (not masked and values[guess] == values[best]) else "Not this time"
    return (
        f"{verdict}: you predicted {col_labels[guess]} ({yours}); the largest in row {row_labels[row]} of “{title}” "
        f"is {col_labels[best]}: {format_number(float(values[best]))}. A change asks again."
    )
