"""Is a head's attention an explanation? The Real model page's words for its three views of a head (raw,
value-weighted, rolled out) and for what taking a token away did to the output, each sentence built from the numbers
shown beside it (attnviz.models.explain computes them)."""

from __future__ import annotations

import numpy as np

from attnviz.core.numbers import format_fixed_numbers
from attnviz.lessons.real_model import visible_token
from attnviz.models.explain import EmbeddingChange, NextTokenChange, shares, sink_share

VIEWS = {"raw": "Raw attention", "value": "Value-weighted", "rollout": "Rolled out"}
NONE = "none"  # the take-away choice that takes nothing away
EXPLAIN_WAIT = (  # predict mode: the raw view is the head's own weights, which would answer its question
    "Predict first on the head's map: this head raw, value-weighted and rolled out, and the query's row in each, show "
    "once you have."
)
VIEW_PLACES = {"raw": "in the raw attention", "value": "value-weighted", "rollout": "rolled out"}  # a row's line
VIEW_HELP = {
    "raw": "The head's own weights: how much each query takes from each key.",
    "value": (
        "Each weight times ‖f_h(x_j)‖, the length of what key j hands on through this head (its value vector through "
        "the head's slice of the output projection), then each row divided by its sum: the share of what arrives "
        "(Kobayashi et al., 2020)."
    ),
    "rollout": (
        "Every head of each layer averaged, half of each token kept as the residual (0.5·I), rows renormalised and "
        "multiplied through the layers up to this one: how much each token's vector after this layer draws on each "
        "input token (Abnar & Zuidema, 2020). The same for every head of a layer."
    ),
}


def view_matrix(run, rolled: np.ndarray, view: str, layer: int, head: int) -> np.ndarray:
    """The (n, n) map a view shows for a head, on the weights' 0-to-1 scale (each row sums to 1)."""
    if view == "value":
        return shares(run.attention[layer, head] * run.value_norms[layer, head][None, :])
    if view == "rollout":
        return rolled[layer]
    return run.attention[layer, head]


def view_title(view: str, layer: int, head: int) -> str:
    if view == "rollout":
        return f"Rolled out to layer {layer + 1}"
    return f"Layer {layer + 1}, head {head + 1}: {VIEWS[view].lower()}"


def asking_rows(n: int, sinks) -> list[int]:
    """The queries whose rows the sinks' share averages: every token but the sinks (unless every token is one), the
    rows the head's summary counts (attnviz.models.stats.head_statistics), so the two agree."""
    return [i for i in range(n) if i not in set(sinks)] or list(range(n))


def sink_shares(matrices: dict[str, np.ndarray], sinks) -> dict[str, float]:
    """Each view's share, averaged over the queries other than the sinks, that lands on the sinks."""
    return {view: sink_share(matrix[asking_rows(len(matrix), sinks)], sinks) for view, matrix in matrices.items()}


def sinks_line(shared: dict[str, float], sinks: str) -> str:
    """The sinks' share in each view, over the rows the head's summary counts (and saying so)."""
    listed = ", ".join(f"{VIEWS[view].lower()} {percent(share)}" for view, share in shared.items())
    return f"The sinks' share of the other tokens' rows, on {sinks}: {listed}."  # the summary's rows too


def sinks_verdict(shared: dict[str, float]) -> str:
    """What the sinks' share raw and value-weighted say together."""
    raw, value = shared["raw"], shared["value"]
    if percent(value) == percent(raw):
        return "In this head they hand on as much as they take."
    return f"In this head they take {percent(raw)} of the weight but hand on {percent(value)} of what arrives."


def row_line(matrices: dict[str, np.ndarray], tokens: list[str], query: int, shown_view: str) -> str:
    """Where the query's row puts most in each view. Only the map on screen (``shown_view``) has its number said: a
    number of a view not drawn is one the student cannot check on the page (the switch above shows it)."""
    parts = []
    for view, matrix in matrices.items():
        shown = format_fixed_numbers(matrix[query], decimals=2)  # as the map's cells print them
        best = max(shown, key=float)
        keys = [f"“{visible_token(tokens[j])}”" for j, text in enumerate(shown) if text == best]
        named = keys[0] if len(keys) == 1 else f"{', '.join(keys[:-1])} and {keys[-1]}" if len(keys) <= 3 else None
        if view != shown_view:  # named, not numbered
            most = (f"{named}{' (a tie)' if len(keys) > 1 else ''}") if named else f"{len(keys)} keys tie"
        else:
            most = f"{named} ({best}{' each' if len(keys) > 1 else ''})" if named else f"{len(keys)} keys tie at {best}"
        parts.append(f"{most} {VIEW_PLACES[view]}")
    return f"Where query {query} (“{visible_token(tokens[query])}”) puts most: " + "; ".join(parts) + "."


def take_away_caption(causal: bool) -> str:
    """What Take this token away does, and that the maps above it stay the whole sentence's."""
    first = " (not the first: it is all the first token sees)" if causal else ""
    return (
        f"Takes the token away as a key in every layer and head{first}: every weight on it becomes 0 and each row is "
        "shared out again over the rest, then the model runs on. The sentence is not re-tokenised. The maps above "
        "stay those of the whole sentence (they still show weight on the token); what changed is the output, below."
    )


def removable(n: int, causal: bool) -> list[int]:
    """The tokens a student may take away: all, but a decoder's first (it is all the first token sees)."""
    return list(range(1 if causal else 0, n))


def change_text(change: NextTokenChange | EmbeddingChange, tokens: list[str]) -> str:
    """What taking the token away did, in the numbers shown beside it."""
    gone = f"Without “{visible_token(tokens[change.removed])}” (token {change.removed})"
    if isinstance(change, NextTokenChange):
        before, after = change.before, change.after
        first, then = _quoted(before.tokens[0]), _quoted(after.tokens[0])
        if change.top_changed:
            top = f"the most likely next token changes from {first} ({percent(before.probabilities[0])}) to {then} "
            top += f"({percent(after.probabilities[0])})"
        else:
            top = f"the most likely next token stays {first} ({percent(before.probabilities[0])} → "
            top += f"{percent(after.probabilities[0])})"
        return (
            f"{gone}, {top}. Total variation distance between the two predictions: {change.total_variation:.3f} "
            "(0: the same probabilities, 1: nothing in common)."
        )
    moved = f"token {change.at} (“{visible_token(tokens[change.at])}”)"
    return (
        f"{gone}, the mean-pooled sentence embedding has cosine {change.cosine:.3f} with the full sentence's (1: the "
        f"same direction). The final vector that moved most is {moved}'s: by {change.largest:.2f}, against its length "
        f"{change.size:.2f} ({percent(change.largest / change.size)})."
    )


def top_five(change: NextTokenChange) -> dict[str, list[str]]:
    """The decoder's five most likely next tokens before and after, side by side: a table's columns."""
    before, after = change.before, change.after
    return {
        "with every token": [_quoted(token) for token in before.tokens],
        "probability": [percent(p) for p in before.probabilities],
        "without it": [_quoted(token) for token in after.tokens],
        "probability after": [percent(p) for p in after.probabilities],
    }


def percent(share: float) -> str:
    return f"{100 * float(share):.1f}%"


def _quoted(token: str) -> str:
    return f"“{visible_token(token)}”"
