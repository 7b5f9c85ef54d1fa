"""The Real model page's numbers and words, each checked against loops or by hand."""

import re

import numpy as np
import pytest

from attnviz.lessons.real_model import (
    PATTERNS,
    group_names,
    group_starts,
    head_summary,
    label_counts,
    last_word,
    layer_table,
    next_token_rows,
    overview_caption,
    overview_side,
    pooled,
    progress_text,
    sink_words,
    sinks_said,
    visible_token,
)
from attnviz.models import head_statistics


def random_attention(*shape, seed=0):
    rng = np.random.default_rng(seed)
    scores = rng.standard_normal(shape)
    return np.exp(scores) / np.exp(scores).sum(axis=-1, keepdims=True)


def pooled_by_loops(attention, groups):
    """A group of queries' average, over its queries, of the weights they put on a group of keys, added up."""
    side = len(groups)
    out = np.zeros((side, side))
    for a, queries in enumerate(groups):
        for b, keys in enumerate(groups):
            out[a, b] = sum(sum(attention[i, j] for j in keys) for i in queries) / len(queries)
    return out


@pytest.mark.parametrize(("n", "side"), [(16, 16), (13, 8), (128, 8), (128, 16), (9, 4), (5, 1)])
def test_pooling_groups_neighbours_and_keeps_rows_summing_to_one(n, side):
    attention = random_attention(2, 3, n, n)
    groups = np.array_split(np.arange(n), side)
    assert group_starts(n, side).tolist() == [g[0] for g in groups]
    maps = pooled(attention, side)
    assert maps.shape == (2, 3, side, side)
    np.testing.assert_allclose(maps[1, 2], pooled_by_loops(attention[1, 2], groups), rtol=1e-12)
    np.testing.assert_allclose(maps.sum(axis=-1), 1.0, rtol=1e-12)
    if side == n:
        np.testing.assert_array_equal(maps, attention)


def test_the_overview_gets_every_token_while_it_fits_its_budget():
    assert overview_side(72, 16) == 16  # the encoder's 72 heads, 16 tokens: all of them (72 × 256 = 18,432 cells)
    assert overview_side(270, 13) == 8  # the decoder's 270 heads: 8 × 8 each (270 × 64 = 17,280)
    assert overview_side(72, 128) == 16 and overview_side(72, 3) == 3 and overview_side(10**6, 5) == 1
    assert group_names(["[CLS]", "hi", "\n"], 3) == ["0: [CLS]", "1: hi", "2: ⏎"]
    assert group_names([str(i) for i in range(13)], 8) == [
        "tokens 0–1", "tokens 2–3", "tokens 4–5", "tokens 6–7", "tokens 8–9", "tokens 10–10", "tokens 11–11",
        "tokens 12–12",
    ]  # fmt: skip
    assert "(8 groups)" in overview_caption(True, 8, 13) and "layers across" in overview_caption(True, 8, 13)
    assert "group" not in overview_caption(False, 16, 16) and "heads across" in overview_caption(False, 16, 16)


def test_a_heads_summary_gives_its_measured_shares_and_its_label():
    n = 5
    previous_head = np.zeros((n, n))
    previous_head[0, 0] = 1.0
    previous_head[np.arange(1, n), np.arange(n - 1)] = 1.0  # every token looks at the one before it
    spread = np.full((n, n), 1 / n)
    attention = np.stack([previous_head, spread])[None]  # (1 layer, 2 heads, n, n)
    stats = head_statistics(attention, (0,))
    first = head_summary(stats, 0, 0, "the first token (“The”)")
    # "100% … before it, 13% to the sinks and 6% to itself" was 119%: shares that overlapped
    assert first.startswith(
        "**Layer 1, head 1.** Of the attention of this sentence's tokens (the sinks' own rows aside): 25% to the sinks "
        "(the first token (“The”)), 0% to the token itself, 75% to the token just before it and 0% elsewhere"
    )  # of rows 1 to 4: row 1 looks at token 0, the sink; rows 2 to 4 at the token before
    assert "this head looks at the previous token." in first
    second = head_summary(stats, 0, 1, "[CLS] and [SEP]")
    assert "20% to the sinks ([CLS] and [SEP]), 20% to the token itself, 15% to the token just before it, 15% to the" \
           " token just after it and 30% elsewhere" in second  # fmt: skip
    assert "spreads its attention" in second
    causal = head_statistics(attention[:, :1], (0,))  # only the first head: no token sees the one after it
    assert "just after" not in head_summary(causal, 0, 0, "the first token (“The”)")


def test_a_layers_table_holds_each_heads_shares_as_head_summary_says_them():
    n = 5
    previous_head = np.eye(n, k=-1)
    previous_head[0, 0] = 1.0
    attention = np.stack([previous_head, np.full((n, n), 1 / n)])[None]  # (1 layer, 2 heads, n, n)
    columns, rows = layer_table(head_statistics(attention, (0,)), 0)
    assert columns == ["Head", "To the sinks", "To itself", "To the token before", "To the token after", "Elsewhere",
                       "Mostly"]  # fmt: skip
    assert rows == [  # the sinks' own rows aside, each cell counted once (a sink first), as head_summary's test says
        ["1", "25%", "0%", "75%", "0%", "0%", "looks at the previous token"],
        ["2", "20%", "20%", "15%", "15%", "30%", "spreads its attention"],
    ]
    columns, rows = layer_table(head_statistics(attention[:, :1], (0,)), 0)  # no token sees the one after it
    assert "To the token after" not in columns
    assert rows[0] == ["1", "25%", "0%", "75%", "0%", "looks at the previous token"]


def test_the_sink_switch_says_what_it_did_both_ways():
    assert (
        sinks_said(False, "[CLS] and [SEP]")
        == "Sinks shown: every weight as the model computed it, [CLS] and [SEP] included."
    )
    assert sinks_said(True, "[CLS] and [SEP]").startswith("Sinks hidden: the columns of [CLS] and [SEP] are 0")


def test_label_counts_add_up_to_every_head_and_agree_in_number():
    labels = np.array([["sinks", "sinks", ""], ["previous token", "sinks", "itself"]])
    text = label_counts(labels)
    assert text == (
        "Of 6 heads, measured on this sentence: 1 looks at the previous token, 3 park their attention on the sinks, "
        "1 looks at the token itself and 1 spreads its attention."
    )
    assert label_counts(np.array(["", ""])) == "Of 2 heads, measured on this sentence: 2 spread their attention."
    assert set(PATTERNS) == {"previous token", "next token", "sinks", "itself", ""}  # HeadStatistics.labels' names


def test_sinks_and_tokens_in_words():
    assert sink_words(["[CLS]", "a", "[SEP]"], (0, 2)) == "[CLS] and [SEP]"
    assert sink_words(["The", " cat"], (0,)) == "the first token (“The”)"
    assert [visible_token(t) for t in ["\n", " ", "  ", "\t", " cat", "##ing", ""]] == [
        "⏎", "␣", "␣␣", "⇥", " cat", "##ing", "␣",
    ]  # fmt: skip
    assert last_word(["[CLS]", "the", "cat", ".", "[SEP]"], (0, 4)) == 2
    assert last_word(["The", " cat", "."], (0,)) == 1 and last_word(["[CLS]", "[SEP]"], (0, 1)) == 1


def test_the_waiting_page_says_what_it_waits_for():
    assert progress_text("SmolLM2-135M", "loading", 12.4, 0).startswith("Loading SmolLM2-135M into this server (12 s")
    assert "(1.5 s so far)" in progress_text("m", "running", 1.46, 0)
    assert progress_text("m", "waiting", 0, 2).startswith("Waiting for 2 other sentences to finish first")
    assert progress_text("m", "waiting", 0, 1).startswith("Waiting for 1 other sentence to finish first")


def test_next_token_rows_end_with_every_other_token():
    labels, probabilities = next_token_rows([" The", "\n"], np.array([0.5, 0.25]), 0.25)
    assert labels == ["“ The”", "“⏎”", "every other token"] and probabilities == [0.5, 0.25, 0.25]


def test_next_tokens_that_show_alike_keep_a_bar_each():
    labels, _ = next_token_rows(["\ufffd", " a", "\ufffd", "\ufffd"], np.array([0.3, 0.2, 0.1, 0.1]), 0.3)
    assert labels == ["“\ufffd”", "“ a”", "“\ufffd” #2", "“\ufffd” #3", "every other token"]


def test_a_real_next_token_head_is_summarised_as_one(encoder):
    """All-MiniLM-L6-v2's layer 2, head 9 puts most of each token's attention on the token just after it
    (0.88 from "the" to "animal") and was summed up as spreading its attention. Its share, worked out by a loop over
    the run's own attention, is now in the summary, with the label it earns."""
    run = encoder.run("The animal didn't cross the street because it was too tired.")  # the page's sentence
    a, n = run.attention[1, 8], len(run.tokens)
    tokens = [i for i in range(n) if i not in run.sinks]  # the sinks' own rows aside; a sink's cell is the sinks'
    after = sum(a[i, i + 1] for i in tokens if i + 1 < n and i + 1 not in run.sinks) / a[tokens].sum()
    assert a[1, 2] == pytest.approx(0.88, abs=0.005) and after >= 0.5
    summary = head_summary(head_statistics(run.attention, run.sinks), 1, 8, "[CLS] and [SEP]")
    said = int(re.search(r"(\d+)% to the token just after it", summary)[1])
    assert said in (int(100 * after), int(100 * after) + 1)  # rounded so that the shares add up to 100
    assert summary.endswith("At least half of it follows one pattern: this head looks at the next token.")
