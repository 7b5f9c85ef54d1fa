"""The Real model page's numbers and words: a long sentence's attention grouped for the overview, what a head's
measured statistics say, and how tokens, waits and next-token choices are put for a student."""

from __future__ import annotations

import math
from pathlib import PurePath

import numpy as np

from attnviz.core.limits import MAX_TOKENS, MAX_USER_MODEL_PARAMETERS
from attnviz.models.stats import LABEL_THRESHOLD, HeadStatistics

OVERVIEW_CELLS = 20_000  # cells in the whole layers × heads overview: each head's small map gets an equal share
# What each measured label says a head mostly does (HeadStatistics.labels), for the page and the hover.
PATTERNS = {
    "previous token": "looks at the previous token",
    "next token": "looks at the next token",
    "sinks": "parks its attention on the sinks",
    "itself": "looks at the token itself",
    "": "spreads its attention",
}


DESIGNS = {"bert": "BERT", "gpt2": "GPT-2", "llama": "Llama", "qwen2": "Qwen2"}  # attnviz.models.families


OPEN_TEXT = (  # said in sight, under the page's heading: a phone and a projector have no hover
    f"Open a model: a BERT, GPT-2, Llama or Qwen2 model's Hugging Face id or folder (config.json, model.safetensors, "
    f"tokenizer.json), up to {MAX_USER_MODEL_PARAMETERS // 10**6}M parameters."
)


def model_label(name: str) -> str:
    """How the page names a model: a folder by its own name (its full path is one machine's), else as it was given
    (a shipped model's name, a hub id)."""
    return PurePath(name).name if name.startswith(("/", "~", ".")) else name


def kind(causal: bool, family: str) -> str:
    """What a model is, for the page's caption: an encoder or a decoder, and its family's design."""
    design = DESIGNS.get(family, "Llama" if causal else "BERT")
    if causal:
        return f"a decoder ({design} design), in which each token sees only itself and the tokens before it"
    return f"an encoder ({design} design), in which every token sees every token"


# Predict mode on the head's map: the lines draw the same weights, so they wait for the prediction too.
LINES_WAIT = "The lines show this head's weights too: they are drawn once you have predicted on its map."
NEXT_TOKEN_TEXT = (
    "The last layer gives every token of the vocabulary a score (a logit). Divided by τ, the softmax turns the "
    "scores into probabilities, the same softmax that turns attention scores into weights: τ below 1 sharpens them, "
    "above 1 flattens them."
)


# ----------------------------------------------------------------------------- the overview


def overview_side(n_maps: int, n: int, budget: int = OVERVIEW_CELLS) -> int:
    """Cells along each side of a head's small map: every token while the whole overview stays within ``budget``
    cells, else fewer, each cell then standing for a group of neighbouring tokens."""
    return max(1, min(n, math.isqrt(budget // n_maps)))


def group_starts(n: int, side: int) -> np.ndarray:
    """Where each of ``side`` groups of neighbouring tokens starts: as equal as they can be, the longer ones first."""
    return np.array([group[0] for group in np.array_split(np.arange(n), side)])


def pooled(attention, side: int) -> np.ndarray:
    """(..., n, n) attention as (..., side, side): a group of queries' average attention on a group of keys (the
    keys' weights added up), so every row still sums to 1. With ``side`` = n it is the attention itself."""
    attention = np.asarray(attention, dtype=float)
    n = attention.shape[-1]
    starts = group_starts(n, side)
    sizes = np.diff(np.append(starts, n))  # (side,) tokens in each group
    on_key_groups = np.add.reduceat(attention, starts, axis=-1)  # (..., n, side)
    return np.add.reduceat(on_key_groups, starts, axis=-2) / sizes[:, None]  # (..., side, side)


def run_caption(model: str, kind: str, layers: int, heads: int, n: int) -> str:
    """What the page runs: the model, its size, this sentence's tokens against the limit, and where the weights come
    from."""
    return (
        f"{model} is {kind}: {layers} layers × {heads} heads, {n} tokens here (the limit is {MAX_TOKENS}, about 90 "
        "words, its special tokens included; press Enter to run a new sentence). Every weight below is what "
        "attnviz.attention, the Playground's own function, gives on the model's queries, keys and values, to the last "
        f"digit (all heads of a layer computed at once). {OPEN_TEXT}"
    )


def sinks_caption(sinks: str) -> str:
    """The sink switch's help, in sight; ``sinks`` as markdown shows them (escaped by the page)."""
    return (
        f"Many heads park most of their attention on {sinks} when nothing else fits. Hiding them sets their columns "
        "to 0 and divides each row by what is left, so it sums to 1 again and shows where the rest goes."
    )


def open_caption(n: int, d_head: int) -> str:
    """What Open in Playground takes there: the head's n × d_head Q, K and V."""
    return (
        f"Open in Playground: this head's tokens and its Q, K and V ({n} × {d_head} each), to edit and take apart; its "
        "weights there are the model's own (the sink switch stays here)."
    )


def lines_caption(not_drawn: str) -> str:
    """How to read the line view; ``not_drawn`` says which of its lines are too faint to draw."""
    return f"Or click a row of a map. The lines: queries left, keys right, a line's opacity its weight ({not_drawn})."


def overview_words(layers_across: bool, side: int, n: int, stats: HeadStatistics) -> str:
    """The overview's caption and how many heads each pattern went to, on the percentages the summaries show."""
    return f"{overview_caption(layers_across, side, n)} {label_counts(shown_labels(stats))}"


def overview_caption(layers_across: bool, side: int, n: int) -> str:
    order = "layers across, heads down" if layers_across else "heads across, layers down"
    grouped = (
        f" With {n} tokens, each cell stands for a group of neighbouring tokens ({side} groups)." if side < n else ""
    )
    return (
        f"Each small map is one head ({order}; click one to choose it): queries down, keys across, bright where the "
        f"weight is high.{grouped}"
    )


def group_names(tokens: list[str], side: int) -> list[str]:
    """What each cell of a small map stands for: one token ("3: cat"), or a group ("tokens 8–15")."""
    n = len(tokens)
    if side == n:
        return [f"{i}: {visible_token(token)}" for i, token in enumerate(tokens)]
    ends = np.append(group_starts(n, side)[1:], n) - 1
    return [f"tokens {start}–{end}" for start, end in zip(group_starts(n, side).tolist(), ends.tolist(), strict=True)]


# ----------------------------------------------------------------------------- what heads do


def sink_words(tokens: list[str], sinks: tuple[int, ...]) -> str:
    """The sink tokens by name: "[CLS] and [SEP]", or "the first token (“The”)"."""
    if tuple(sinks) == (0,):
        return f"the first token (“{visible_token(tokens[0])}”)"
    return " and ".join(visible_token(tokens[i]) for i in sinks)


def head_name(layer: int, head: int) -> str:
    """Layers and heads are counted from 1 on the page, as in papers; arrays count from 0."""
    return f"Layer {layer + 1}, head {head + 1}"


def _parts(stats: HeadStatistics, at: tuple) -> list[float]:
    return [stats.sinks[at], stats.itself[at], stats.previous[at], stats.next[at], stats.elsewhere[at]]


def shown_labels(stats: HeadStatistics) -> np.ndarray:
    """Per head, the pattern its shown percentages give it (HeadStatistics.labels' rule on the whole percentages a
    reader sees, so two heads both shown at 50% get one verdict): the largest of sinks, itself, previous, next that
    shows at least half, else "" (spreads)."""
    labels = np.full(stats.sinks.shape, "", dtype=object)
    for at in np.ndindex(stats.sinks.shape):
        sinks, itself, previous, after, _ = percents(_parts(stats, at))
        shown = {"previous token": previous, "next token": after, "sinks": sinks, "itself": itself}  # labels' order
        best = max(shown, key=shown.get)
        labels[at] = best if shown[best] >= 100 * LABEL_THRESHOLD else ""
    return labels


def head_summary(stats: HeadStatistics, layer: int, head: int, sinks: str) -> str:
    """What one head does, in numbers measured on this sentence, and the label they give it. The shares split the
    head's attention (each cell counted once) and are rounded so that they add up to 100%."""
    at = (layer, head)
    label = str(shown_labels(stats)[at])
    pattern = (
        f"At least half of it follows one pattern: this head {PATTERNS[label]}."
        if label
        else "No single pattern takes half of it: this head spreads its attention."
    )
    names = [f"the sinks ({sinks})", "the token itself", "the token just before it", "the token just after it"]
    parts = _parts(stats, at)
    shown = percents(parts)
    # A decoder's tokens never see the token after them (its share is exactly 0): no need to say so.
    said = [f"{p}% to {name}" for p, name, share in zip(shown, names, parts, strict=False) if share or "after" not in name]
    return (
        f"**{head_name(layer, head)}.** Of the attention of this sentence's tokens (the sinks' own rows aside): "
        f"{', '.join(said)} and {shown[-1]}% elsewhere, each cell counted once (a sink first). {pattern}"
    )


def percents(shares) -> list[int]:
    """Shares of one whole as whole percentages adding up to 100 (largest remainders get the leftover points)."""
    total = float(np.sum(shares))
    if total <= 0:
        return [0] * len(shares)
    exact = 100 * np.asarray(shares, dtype=float) / total
    whole = np.floor(exact).astype(int)
    for k in np.argsort(-(exact - whole), kind="stable")[: 100 - int(whole.sum())]:
        whole[k] += 1
    return whole.tolist()


def layer_table(stats: HeadStatistics, layer: int) -> tuple[list[str], list[list[str]]]:
    """One layer's heads as a screen reader's table (the overview's picture would be read cell by cell): its column
    names and, a head a row, the shares head_summary says and the pattern they give it."""
    after = bool(stats.next.any())  # as head_summary: a decoder's share after is always 0
    names = ["To the sinks", "To itself", "To the token before", "To the token after", "Elsewhere"]
    columns = ["Head", *(name for name in names if after or "after" not in name), "Mostly"]
    labels = shown_labels(stats)
    rows = []
    for head in range(labels.shape[1]):
        at = (layer, head)
        shown = percents(_parts(stats, at))
        shares = [f"{p}%" for p, name in zip(shown, names, strict=True) if after or "after" not in name]
        rows.append([str(head + 1), *shares, PATTERNS[str(labels[at])]])
    return columns, rows


def sinks_said(hide: bool, sinks: str) -> str:
    """What the sink switch has done, said when it changes."""
    if not hide:
        return f"Sinks shown: every weight as the model computed it, {sinks} included."
    return (
        f"Sinks hidden: the columns of {sinks} are 0 and every row is rescaled to sum to 1. A row that gave all its "
        "attention to sinks is left empty. The labels and shares above are measured on what is shown."
    )


def label_counts(labels: np.ndarray) -> str:
    """How many heads each measured label went to, e.g. "Of 72 heads, 41 park their attention on the sinks, …"."""
    counts = {label: int((labels == label).sum()) for label in PATTERNS}
    parts = [f"{counts[label]} {_plural(PATTERNS[label], counts[label])}" for label in PATTERNS if counts[label]]
    listed = ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]
    return f"Of {labels.size} heads, measured on this sentence: {listed}."


def _plural(pattern: str, count: int) -> str:
    """ "looks at …" for one head, "look at …" for several."""
    if count == 1:
        return pattern
    verb, _, rest = pattern.partition(" ")
    return f"{verb.removesuffix('s')} {rest}".replace(" its ", " their ")


# ----------------------------------------------------------------------------- tokens and waiting


def visible_token(text: str) -> str:
    """A token as a label: a line break as ⏎, a tab as ⇥, a token of spaces as ␣ (a leading space stays a space)."""
    shown = text.replace("\n", "⏎").replace("\r", "").replace("\t", "⇥")
    return shown if shown.strip() else "␣" * max(len(shown), 1)


def last_word(tokens: list[str], sinks: tuple[int, ...]) -> int:
    """The position of the sentence's last word (not a sink, not punctuation): where the line view starts."""
    words = [i for i, token in enumerate(tokens) if i not in sinks and any(c.isalnum() for c in token)]
    return words[-1] if words else len(tokens) - 1


def progress_text(model: str, stage: str, seconds: float, ahead: int) -> str:
    """What a waiting page says while the background worker loads a model or runs a sentence."""
    if stage == "loading":
        return (
            f"Loading {model} into this server ({seconds:.0f} s so far); it is loaded once, for every student. The "
            "decoder's very first load on a machine converts its weights from the downloaded file: up to half a minute."
        )
    if stage == "running":
        return f"Running the sentence through {model}, every head through attnviz.attention ({seconds:.1f} s so far)."
    others = f"{ahead} other sentence{'s' if ahead != 1 else ''}" if ahead else "the server"
    return f"Waiting for {others} to finish first: models run one sentence at a time, for every student."


def next_token_rows(tokens: list[str], probabilities, other: float) -> tuple[list[str], list[float]]:
    """Labels and probabilities for the next-token bars, most likely first, then every other token together.

    Tokens that show as the same text (a byte-level tokenizer's pieces of one character all show as �) are told
    apart by a number, so that each keeps a bar of its own."""
    labels, seen = [], {}
    for token in tokens:
        label = f"“{visible_token(token)}”"
        seen[label] = seen.get(label, 0) + 1
        labels.append(label if seen[label] == 1 else f"{label} #{seen[label]}")
    return [*labels, "every other token"], [float(p) for p in probabilities] + [float(other)]
