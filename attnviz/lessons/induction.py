"""Watch it learn's induction experiment in words: what an induction head is, why one layer cannot be one, and when
the phase change came, each sentence written from a run's own numbers."""

from __future__ import annotations

import numpy as np

from attnviz.core.errors import AttnvizInputError
from attnviz.lessons.training import percent

EXPERIMENTS = ("Find the deciding position", "Induction heads")  # Watch it learn's two experiments
PHASE_SCORE = 0.3  # a head's prefix-matching score past this marks the phase change
TASK_TEXT = (
    "Each sequence ends in some random tokens r and then r again; r's length changes from sequence to sequence, so "
    "the earlier copy can only be found by its tokens, never by counting back. An attention-only transformer (no MLP) "
    "learns to predict every next token, trained here in numpy."
)
SETTINGS_HELP = (
    "Two layers can build an induction head; one layer is the control. Another seed draws other starting weights and "
    "sequences; if a run shows no phase change, more steps may bring it."
)
QUERY_LABEL = "Query token (in the second copy)"
MAPS_HELP = (
    "Each row is a query token, each column a key; the grey cells are the future, which a causal head cannot see. "
    "The second copy starts halfway: an induction head's bright cells run one to the right of the earlier copy."
)
CHALLENGE_LABEL = "Challenge: type an r (numbers 0 to {top}, up to {longest}) that the model copies wrongly in [r; r]"
CHALLENGE_HINT = "Hint: what should the head copy when a token occurs twice in r?"
IDLE_TEXT = "Pick one or two layers and press Train: watch the loss on the repeated half, and each head's score."


def head_name(layer: int, head: int) -> str:
    return f"layer {layer + 1}, head {head + 1}"


def phase_step(steps, prefix_scores) -> int | None:
    """The first logged step at which the last layer's best head scores PHASE_SCORE or more (None: never).
    ``prefix_scores`` (log points, L, H)."""
    passed = np.flatnonzero(np.asarray(prefix_scores)[:, -1, :].max(axis=1) >= PHASE_SCORE)
    return int(steps[passed[0]]) if len(passed) else None


def phase_text(steps, first_half, repeated_half, prefix_scores, vocab_size: int) -> str:
    """The phase change in words: when the score passed PHASE_SCORE and what the two halves' losses did."""
    guess = f"ln {vocab_size} = {np.log(vocab_size):.2f}, a guess among {vocab_size} tokens"
    at = phase_step(steps, prefix_scores)
    first = f"The first half's loss ends at {first_half[-1]:.2f} ({guess}): nothing can predict a new random token."
    if at is None:
        return (
            f"No last-layer head's prefix-matching score reached {PHASE_SCORE} in {int(steps[-1]):,} steps, so there "
            f"was no phase change: the repeated half's loss went from {repeated_half[0]:.2f} to "
            f"{repeated_half[-1]:.2f}. {first}"
        )
    index = list(steps).index(at)
    before = repeated_half[max(index - 1, 0)]
    return (
        f"The phase change: at step {at:,} the last layer's best head passed a prefix-matching score of {PHASE_SCORE}, "
        f"and the repeated half's loss, {before:.2f} just before, fell to {repeated_half[-1]:.2f} by the end. {first}"
    )


def circuit_text(layers: int, accuracy: float, prefix, previous, duplicate) -> str:
    """What the trained heads do, from their scores (L, H) on fresh sequences and the copy accuracy."""
    last, head = layers - 1, int(np.argmax(prefix[-1]))
    copies = f"The model copies {percent(accuracy)} of the repeated half (fresh sequences, not trained on)."
    looks = (
        f"{head_name(last, head).capitalize()} puts {percent(prefix[-1, head])} of its weight on the token after the "
        "earlier copy of the current token"
    )
    if layers == 1:
        return (
            f"{looks}. {copies} One layer cannot build an induction head: its queries and keys each see one token "
            "and its position, so a head can find the earlier copy of the current token but not the token after it; "
            "that needs an earlier layer to write into each position something about another one."
        )
    first = first_layer_head(previous, duplicate)
    reads = (
        f"the token before it ({percent(previous[0, first])} of its weight on the previous token)"
        if _shown(previous[0, first]) >= _shown(duplicate[0, first])
        else f"the earlier copy of the current token ({percent(duplicate[0, first])} of its weight)"
    )
    verdict = "an induction head" if _shown(prefix[-1, head]) >= 50 else "not yet an induction head"  # as said
    return (
        f"{looks}: {verdict}. {copies} It can, because the first layer wrote something into each position first: "
        f"{head_name(0, first)} looks at {reads}."
    )


def example_text(tokens, query: int, repeat: int, weights, predicted) -> str:
    """What an induction head is, on the drawn sequence: from ``query`` in the second copy (r ``repeat`` long), the
    last layer's head's weight (``weights``, its row) on the token after the earlier copy, and the prediction."""
    earlier = query - repeat
    follows = tokens[earlier + 1]
    verdict = "copies it" if predicted == follows else f"predicts {predicted} instead"
    return (
        f"An induction head looks back for the earlier copy of the current token and predicts the token that followed "
        f"it (… Mr Dursley … Mr → Dursley). Here: token {tokens[query]} at position {query} occurred before at "
        f"position {earlier}, followed by {follows}; the head puts {percent(weights[earlier + 1])} of its weight on "
        f"position {earlier + 1}, and the model {verdict}."
    )


def knockout_text(knocked: list[tuple[int, int]], accuracy_all: float, accuracy_knocked: float) -> str:
    """The copy accuracy measured with every head on and with ``knocked`` off."""
    if not knocked:
        return f"Every head on: the model copies {percent(accuracy_all)} of the repeated half. Switch a head off."
    names = ", ".join(head_name(*pair) for pair in knocked)
    was, now = _shown(accuracy_all), _shown(accuracy_knocked)  # the verdict on the percentages as said
    change = "falls" if now < was else "stays" if now == was else "rises"
    return (
        f"With {names} off (output zeroed), copying {change} from {percent(accuracy_all)} to "
        f"{percent(accuracy_knocked)} of the repeated half, on the same fresh sequences."
    )


def _shown(share: float) -> float:
    """A share as ``percent`` says it, read back (its "> 99.9 %" and "< 0.1 %" ordered just inside 100 and 0)."""
    text = percent(share)
    return 99.95 if text.startswith(">") else 0.05 if text.startswith("<") else float(text.rstrip(" %"))


def stale_note(trained, chosen) -> str | None:
    """Said when the settings no longer match the run shown (None when they do)."""
    if (trained.layers, trained.steps, trained.seed) == (chosen.layers, chosen.steps, chosen.seed):
        return None
    return (
        f"Shown: the run with {trained.layers} layer{'s' if trained.layers > 1 else ''}, {trained.steps:,} steps and "
        f"seed {trained.seed}. Press Train for the settings chosen now."
    )


def progress_text(progress, config) -> str:
    """The bar's words for an InductionProgress of a run of ``config``."""
    layers = f"{config.layers} layer{'s' if config.layers > 1 else ''}"
    return f"Training {layers}: step {progress.step:,} of {progress.total_steps:,}"


def first_layer_head(previous, duplicate) -> int:
    """The first layer's head that looks most at the previous token or at the earlier copy of the current one."""
    return int(np.argmax(np.maximum(previous[0], duplicate[0])))


def drawn_heads(prefix, previous, duplicate) -> list[int]:
    """The head the page draws of each layer (scores (L, H)): the last layer's best at prefix matching, and before
    it the first layer's head it reads from."""
    last = int(np.argmax(prefix[-1]))
    return [first_layer_head(previous, duplicate), last] if len(prefix) == 2 else [last]


def parse_tokens(text: str, vocab_size: int, longest: int) -> list[int]:
    """A typed r: whole numbers from 0 to vocab_size - 1, separated by spaces or commas, 2 to ``longest`` of them."""
    parts = text.replace(",", " ").split()
    if not all(part.isascii() and part.isdigit() for part in parts):
        raise AttnvizInputError(f"Type whole numbers from 0 to {vocab_size - 1}, separated by spaces.")
    tokens = [int(part) for part in parts]
    if not 2 <= len(tokens) <= longest:
        raise AttnvizInputError(f"Type 2 to {longest} numbers; that has {len(tokens)}.")
    if max(tokens) >= vocab_size:
        raise AttnvizInputError(f"The tokens are 0 to {vocab_size - 1}; {max(tokens)} is not one.")
    return tokens


def challenge_text(tokens, predicted) -> tuple[bool, str]:
    """Whether the model, given [r; r] (``tokens``, 2m) and its predictions (2m,), copied any of the second r's
    tokens after its first wrongly, and which, in words."""
    m = len(tokens) // 2
    wrong = [i for i in range(m, 2 * m - 1) if predicted[i] != tokens[i + 1]]
    if not wrong:
        return False, f"The model copies all {m - 1} tokens of the second r right. Try again."
    i = wrong[0]
    return True, (
        f"Solved: after {tokens[i]} (position {i}) the sequence continues with {tokens[i + 1]}, but the model "
        f"predicts {predicted[i]}; it copies {len(wrong)} of the second r's {m - 1} tokens wrongly."
    )
