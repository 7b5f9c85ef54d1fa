"""The Real model page's challenges: is a head's attention an explanation? Each is checked from the run's numbers
(attnviz.models.explain), on the app page's own settings: the model, the sentence, the chosen head and query, the view
and the token taken away."""

from __future__ import annotations

import numpy as np

from attnviz import AttnvizInputError
from attnviz.core.playground_state import PlaygroundState
from attnviz.lessons.challenge import Challenge, Situation, at
from attnviz.lessons.explanations import NONE
from attnviz.models.explain import output_change, shares, sink_share
from attnviz.models.registry import load_model

PAGE = "real_model"
ENCODER, DECODER = "all-MiniLM-L6-v2", "SmolLM2-135M"
SENTENCE = "The animal didn't cross the street because it was too tired."
CAPITAL = "The capital of France is"
SHRUNK, HALF, FIFTH, TURNED = 0.1, 0.5, 0.2, 0.9


def _run(s: Situation, removed=None):
    """The situation's run (None if its model or sentence cannot run here)."""
    try:
        return load_model(s.settings.get("model", ENCODER), served=True).run(s.settings.get("sentence", SENTENCE), removed)
    except AttnvizInputError:  # a missing model, a bad sentence or token: the goal is simply not met
        return None


def _head(s: Situation) -> tuple[int, int]:
    return s.settings.get("layer", 0), s.settings.get("head", 0)


def _start(model: str, sentence: str, query: int, layer: int = 0, head: int = 0) -> Situation:
    settings = {"model": model, "sentence": sentence, "layer": layer, "head": head, "query": query}
    return Situation(PlaygroundState(), settings | {"view": "raw", "removed": NONE, "hide_sinks": False})


def _shrinks(s: Situation, layer: int, head: int) -> bool:
    """The key the query attends to most gets less than SHRUNK of what arrives, value-weighted."""
    run, query = _run(s), s.settings.get("query", 0)
    if run is None or not (0 <= query < len(run.tokens)):
        return False
    raw = run.attention[layer, head, query]  # (n,)
    arrives = shares(raw * run.value_norms[layer, head])  # (n,)
    return bool(arrives[int(np.argmax(raw))] < SHRUNK)


def _sinks_pass_little(s: Situation, layer: int, head: int) -> bool:
    run = _run(s)
    if run is None:
        return False
    raw = run.attention[layer, head]
    return sink_share(raw, run.sinks) > HALF and sink_share(raw * run.value_norms[layer, head], run.sinks) < FIFTH


def _valued(test):
    """Solved when the chosen head passes ``test`` and the page shows it value-weighted."""
    return lambda s: s.settings.get("view") == "value" and test(s, *_head(s))


def _find_head(test):
    def moves(s: Situation) -> list[tuple[str, Situation]]:
        run = _run(s)
        for layer in range(run.n_layers if run else 0):
            for head in range(run.n_heads):
                if test(s, layer, head):
                    chosen = at(s, layer=layer, head=head)
                    return [(f"choose layer {layer + 1}, head {head + 1}", chosen), ("show it value-weighted",
                            at(chosen, view="value"))]  # fmt: skip
        return []

    return moves


def _removed(s: Situation) -> int | None:
    removed = s.settings.get("removed", NONE)
    return None if removed == NONE else removed


def _top_changes_unattended(s: Situation) -> bool:
    """Taking the token away changes the top next word, while no last-layer head attends to it most."""
    removed, run = _removed(s), _run(s)
    without = None if removed is None else _run(s, removed)
    if run is None or without is None or not run.causal:
        return False
    most = {int(np.argmax(run.attention[-1, head, -1])) for head in range(run.n_heads)}  # the last token's rows
    return removed not in most and output_change(run, without).top_changed


def _embedding_turns(s: Situation) -> bool:
    removed, run = _removed(s), _run(s)
    without = None if removed is None else _run(s, removed)
    return run is not None and without is not None and output_change(run, without).cosine < TURNED


def _find_token(test, order):
    def moves(s: Situation) -> list[tuple[str, Situation]]:
        run = _run(s)
        for index in order(len(run.tokens)) if run else ():
            if test(at(s, removed=index)):
                return [(f"take token {index} (“{run.tokens[index].strip()}”) away", at(s, removed=index))]
        return []

    return moves


CHALLENGES = [
    Challenge(
        "value_shrinks",
        PAGE,
        f"Find a head whose largest weight in “tired”'s row gets less than {SHRUNK} of what arrives, value-weighted.",
        "Heads that park on [CLS] or [SEP] take a lot from them, but their value vectors there are short.",
        lambda: _start(ENCODER, SENTENCE, 13, 0, 2),
        _valued(_shrinks),
        _find_head(_shrinks),
    ),
    Challenge(
        "sinks_pass_little",
        PAGE,
        "Find a head in which the sinks take more than half of the weight but less than a fifth of what arrives.",
        "Look at the middle layers, then switch the view to value-weighted and read the sinks' share.",
        lambda: _start(ENCODER, SENTENCE, 13),
        _valued(_sinks_pass_little),
        _find_head(_sinks_pass_little),
    ),
    Challenge(
        "top_word_changes",
        PAGE,
        "Take away a token that changes the decoder's most likely next word, though no head of the last layer "
        "attends to it most from the last token.",
        "The last layer's heads look mostly at the first token and at “ is”: try a word they pass over.",
        lambda: _start(DECODER, CAPITAL, 4, 29, 0),
        _top_changes_unattended,
        _find_token(_top_changes_unattended, lambda n: range(1, n)),
    ),
    Challenge(
        "embedding_turns",
        PAGE,
        f"Take away one token so that the sentence embedding's cosine with the full sentence's drops below {TURNED}.",
        "Try the words that carry the meaning, or the token every head parks on.",
        lambda: _start(ENCODER, SENTENCE, 13),
        _embedding_turns,
        _find_token(_embedding_turns, lambda n: [*range(1, n), 0]),
    ),
]
