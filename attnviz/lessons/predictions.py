"""Predict, then reveal: the questions predict mode asks about the Playground's focus token. Each is answered by the
core's numbers for the state it asks about, and the reveal gives the arithmetic that decides it.

A question may ask about a change ("if scaling were switched off, sharper or flatter?"): the views stay covered on the state
before it, the student clicks a prediction on them, and the change is then made, so the reveal shows its effect.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from attnviz.core.errors import AttnvizInputError
from attnviz.core.numbers import format_cells, format_fixed, format_number
from attnviz.core.playground_state import PlaygroundState
from attnviz.lessons.questions import index_below, row_answer
from attnviz.lessons.scaling import entropy

# kind: what the rail's drop-down says. "" is predict mode off.
KINDS = {
    "": "Off: show every view",
    "most": "Which key gets the most weight?",
    "sharper": "If scaling were switched: sharper or flatter?",
    "zeroed": "Which keys will the mask set to 0?",
}
SHARPER_CHOICES = ("Sharper", "Flatter", "No change")
ZEROED_OPTIONS = ("Exactly the keys the mask sets to 0", "Another set of keys")  # a class's answers, counted
COVERED_OUTPUT = "Covered until you predict in view 3."
UP_CLOSE_WAITS = (  # One token up close works the focus row's weights out: the answer, before it is asked
    "Covered until you predict in view 3: this tab works out the focus token's weights, which would answer the question."
)

ASKER = "playground"  # the first item of the Playground's questions' keys (attnviz.lessons.questions.Answers)
Guess = int | tuple[int, ...]  # a key or a choice; the zeroed question's: the set of keys, sorted (() is "none")


def kind_of(value) -> str:
    """A kind from the rail or a link (a kind, or True/False from links made before there were kinds)."""
    if isinstance(value, bool):
        return "most" if value else ""
    if isinstance(value, str) and value in KINDS:
        return value
    raise AttnvizInputError("predict mode is not one of its questions.")


@dataclass(frozen=True)
class PlaygroundQuestion:
    """The question ``state.predict`` asks about ``state``'s focus token (attnviz.lessons.questions.Question); the mask
    question's ``picks``: the keys clicked so far, answered together by its Check. The state it is answered on:
    ``outcome(state)``."""

    state: PlaygroundState
    picks: tuple[int, ...] = ()

    @property
    def key(self) -> tuple[str, PlaygroundState]:
        return (ASKER, self.state)

    def cover(self) -> str:
        """The words on the covered weights view: the question, and how to answer it."""
        state = self.state
        token = state.tokens[state.focus]
        if state.predict == "sharper":
            return (
                f"If scaling were switched {_switched(state.scale)} (÷ √d_k = ÷ {_root(state)}), would “{token}”'s "
                "row get sharper or flatter?"
            )
        if state.predict == "zeroed":
            if state.causal:
                asked = f"If the causal mask were switched off, which of “{token}”'s keys would come back from 0?"
            else:
                asked = f"If the causal mask were switched on, which keys would it set to 0 in “{token}”'s row?"
            return asked + " Click each key (again to take it back), then Check."
        return f"Which key will “{token}” attend to most? Click its cell in the outlined row."

    def answer(self, sent) -> Guess | None:
        """What a click on a covered view predicts (a key, a choice, or the zeroed question's ``picks`` on its
        Check), or None for no prediction (a pick is ``picked``'s)."""
        state = self.state
        if not isinstance(sent, dict):
            return None
        if state.predict in ("sharper", "zeroed"):
            choice = sent.get("choice")
            if not index_below(choice, len(choices(state))):
                return None
            return tuple(sorted(self.picks)) if state.predict == "zeroed" else choice
        col = sent.get("col")
        return col if index_below(col, state.n) else None

    def picked(self, sent) -> tuple[int, ...] | None:
        """The zeroed question's keys picked after a click on a covered cell (a second click takes a key back), or
        None when the click picks nothing."""
        state = self.state
        if state.predict != "zeroed" or not isinstance(sent, dict) or not index_below(sent.get("col"), state.n):
            return None
        return tuple(sorted(set(self.picks) ^ {sent["col"]}))

    def reveal(self, guess: Guess) -> str:
        """The answer beside the prediction, with the numbers that decide it; the prediction is outlined in view 3."""
        before, after = self.state, outcome(self.state)
        right = right_answer(before)
        if before.predict == "sharper":
            said = f"You predicted {SHARPER_CHOICES[guess].lower()}: {'right' if guess == right else 'not this time'}. "
            return said + _sharper_why(before, after)
        if before.predict == "zeroed":
            verdict = "right" if set(guess) == set(right) else "not this time"
            said = f"You predicted {_named(before, guess)} (outlined in view 3): {verdict}. "
            return said + _zeroed_why(before, after, guess)
        return _most_why(after, guess)


def outcome(state: PlaygroundState) -> PlaygroundState:
    """The state whose weights answer the question: the same state, or the state after the change it asks about."""
    if state.predict == "sharper":
        return replace(state, scale=not state.scale)
    if state.predict == "zeroed":
        return replace(state, causal=not state.causal)
    return state


HOW_TO_ANSWER = {
    "most": "Click a key's cell in the outlined row.",
    "zeroed": "Click each key (again to take it back), then Check.",
    "sharper": "Answer with a button below.",
}


def cover_asking(state: PlaygroundState, question: str) -> str:
    """The cover's words while a lesson asks its own ``question`` of ``state``: the teacher's words (never the
    standard question beside them), then how to answer on this cover."""
    return f"{question} {HOW_TO_ANSWER[state.predict]}"


def choices(state: PlaygroundState, picks: tuple[int, ...] = ()) -> list[str]:
    """Buttons on the covered view: the sharper question's answers; the zeroed question's Check, naming the keys
    picked so far (``picks``)."""
    if state.predict == "sharper":
        return list(SHARPER_CHOICES)
    if state.predict == "zeroed":
        return [f"Check: {_named(state, picks)}"]
    return []


def prompt(state: PlaygroundState) -> str:
    """The line under the covered views."""
    if state.predict == "most":
        return (
            f"Predict first: which key will “{state.tokens[state.focus]}” ({state.focus}) attend to most? Click that "
            "key's cell in view 3; the weights and the outputs show once you have."
        )
    return "Predict first. " + PlaygroundQuestion(state).cover() + " The weights and the outputs show once you have."


def options(state: PlaygroundState) -> list[str]:
    """Every prediction the question allows, by position: what a class's answers are counted against."""
    if state.predict == "sharper":
        return list(SHARPER_CHOICES)
    return list(ZEROED_OPTIONS) if state.predict == "zeroed" else list(state.labels)


def option_of(state: PlaygroundState, guess: Guess) -> int:
    """A prediction's position in ``options``: the zeroed question's is whether the set is the mask's."""
    if state.predict == "zeroed":
        return 0 if set(guess) == set(right_answer(state)) else 1
    return guess


def marked(state: PlaygroundState, guess: Guess, picks: tuple[int, ...] = ()) -> list[tuple[int, int, int, int]]:
    """The weights view's cells outlined as the student's prediction (picked so far, or made): regions (row, col, 1,
    1) of the focus row. The sharper question's answer is no cell."""
    if state.predict == "sharper":
        return []
    keys = (guess,) if state.predict == "most" and guess is not None else (guess or picks)
    return [(state.focus, int(j), 1, 1) for j in keys]


def right_answer(before: PlaygroundState) -> Guess:
    """The right prediction for ``before`` (a key, a choice, or the set of keys), from the core's numbers."""
    i, after = before.focus, outcome(before)
    if before.predict == "sharper":
        change = float(entropy(after.result().weights[i]) - entropy(before.result().weights[i]))
        return 0 if change < -1e-9 else 1 if change > 1e-9 else 2
    if before.predict == "zeroed":
        return tuple(int(j) for j in _flipped_keys(before, after))
    return row_answer(before.result().weights, before.result().blocked, i)


def _named(state: PlaygroundState, keys, most: int = 6) -> str:
    """Keys in words: "“because” (6), “it” (7)", or "none"."""
    keys = list(keys)
    more = f" and {len(keys) - most} more" if len(keys) > most else ""  # counted, so "all 7" adds up on screen
    named = ", ".join(f"“{state.tokens[j]}” ({j})" for j in keys[:most]) + more
    return named or "none"


def _most_why(state: PlaygroundState, guess: int) -> str:
    result, i, tokens = state.result(), state.focus, state.tokens
    if result.fully_masked[i]:
        return f"Every key is blocked for “{tokens[i]}”, so it attends to nothing, whatever the prediction."
    row, scores = result.weights[i], result.masked[i]  # (n,), −∞ where masked
    best = row_answer(result.weights, result.blocked, i)
    verdict = "Right" if row[guess] == row[best] else "Not this time"
    said = format_cells(np.where(np.isinf(scores), 0.0, scores)[[best, guess]], weights=False)  # as view 2 draws them
    why = f"its score {said[0]} is the largest “{tokens[i]}” may use"
    if np.isinf(scores[guess]):
        why += f"; “{tokens[guess]}” is masked, so its weight is 0"
    elif guess != best:
        why += f" (“{tokens[guess]}”: {said[1]})"
    return (
        f"{verdict}: you predicted “{tokens[guess]}” ({guess}), outlined in view 3. “{tokens[i]}” attends most to "
        f"“{tokens[best]}” ({best}), weight {format_fixed(float(row[best]))}, because {why}. Change anything and you "
        "are asked again."
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


def _zeroed_why(before: PlaygroundState, after: PlaygroundState, guess: tuple[int, ...]) -> str:
    """Which keys the mask switches, all at once; the later keys already blocked; what the guess missed or added."""
    i, flips = before.focus, right_answer(before)
    later = range(i + 1, before.n)
    blocked = [j for j in later if j in before.blocked_keys]
    if not len(later):
        said = f"No key comes after “{before.tokens[i]}” ({i}), the last token, so the mask changes none of its row."
    elif flips:
        went = "sets to 0" if after.causal else "brings back from 0"
        said = f"The causal mask hides every key after the query ({i}), so switching it {went} {_named(before, flips)}"
        said += f": all {len(flips)} at once." if len(flips) > 1 else "."
    else:
        said = f"Every key after “{before.tokens[i]}” ({i}) is blocked already, so the mask changes none of its row."
    if blocked:
        its = "its weight is" if len(blocked) == 1 else "their weights are"
        said += f" {_named(before, blocked)}: a blocked key, so {its} 0 with the mask on or off."
    missed, extra = sorted(set(flips) - set(guess)), sorted(set(guess) - set(flips))
    if missed:
        said += f" Your set left out {_named(before, missed)}."
    if extra:
        said += f" The mask does not change {_named(before, extra)}."
    return said + " Change anything and you are asked again."


def _flipped_keys(before: PlaygroundState, after: PlaygroundState) -> np.ndarray:
    """The focus row's keys masked in one state and not the other, in order."""
    i = before.focus
    return np.flatnonzero(before.result().blocked[i] != after.result().blocked[i])


def _switched(on: bool) -> str:
    return "off" if on else "on"


def _root(state: PlaygroundState) -> str:  # √d_k to the views' two decimals (7.07 beside 4.95), or whole (2)
    root = float(np.sqrt(state.d_k))
    return format_number(root) if root.is_integer() else format_fixed(root)
