"""Head statistics and sink hiding, against matrices worked out by hand, then on the real models."""

from __future__ import annotations

import numpy as np
import pytest

from attnviz import AttnvizInputError
from attnviz.models import head_statistics, hide_sinks

# Three query rows of one causal head: row 0 can only see itself.
CAUSAL_HEAD = np.array(
    [
        [1.0, 0.0, 0.0],
        [0.6, 0.4, 0.0],
        [0.2, 0.7, 0.1],
    ]
)


def test_statistics_of_a_hand_built_head():
    """The parts split the attention, a cell counted once (shares that overlapped added up to 119%)."""
    stats = head_statistics(CAUSAL_HEAD, sinks=(0,))
    # of rows 1 and 2, the sentence's tokens (row 0 is the sink's own): row 1's previous token is the sink
    assert stats.sinks == pytest.approx((0.6 + 0.2) / 2)
    assert stats.itself == pytest.approx((0.4 + 0.1) / 2)
    assert stats.previous == pytest.approx(0.7 / 2)
    assert stats.next == 0.0 and stats.elsewhere == 0.0  # a causal head never sees the token after
    assert stats.sinks + stats.itself + stats.previous + stats.next + stats.elsewhere == pytest.approx(1.0)
    assert stats.first == pytest.approx((1.0 + 0.6 + 0.2) / 3)


def test_several_sinks_add_up_and_a_repeated_one_counts_once():
    stats = head_statistics(CAUSAL_HEAD, sinks=(0, 2, 2))
    assert stats.sinks == pytest.approx(0.6) and stats.itself == pytest.approx(0.4)  # row 1: the only non-sink row


def test_statistics_keep_the_layers_and_heads():
    attention = np.stack([np.stack([CAUSAL_HEAD, np.eye(3)]), np.stack([np.full((3, 3), 1 / 3), CAUSAL_HEAD])])
    stats = head_statistics(attention, sinks=(0,))  # (layers 2, heads 2)
    np.testing.assert_allclose(stats.itself, [[0.25, 1.0], [1 / 3, 0.25]])
    np.testing.assert_allclose(stats.previous, [[0.35, 0.0], [1 / 6, 0.35]])
    np.testing.assert_allclose(stats.next + stats.elsewhere, [[0.0, 0.0], [1 / 6, 0.0]])
    np.testing.assert_array_equal(stats.labels(), [["", "itself"], ["", ""]])


def test_a_one_token_sentence_has_no_previous_token():
    stats = head_statistics(np.ones((2, 3, 1, 1)), sinks=(0,))
    np.testing.assert_array_equal(stats.previous, np.zeros((2, 3)))
    np.testing.assert_array_equal(stats.next, np.zeros((2, 3)))
    np.testing.assert_array_equal(stats.sinks, np.ones((2, 3)))  # its one token is the sink, counted once
    np.testing.assert_array_equal(stats.itself, np.zeros((2, 3)))


def test_labels_follow_the_threshold():
    stats = head_statistics(CAUSAL_HEAD, sinks=(0,))  # sinks 0.4, previous 0.35, itself 0.25
    assert stats.labels(threshold=0.4) == "sinks"
    assert stats.labels() == ""
    previous = np.eye(5, k=-1)
    previous[0, 0] = 1.0  # every token looks at the one before it: 3 of 5 rows not at the sink
    assert head_statistics(previous, sinks=(0,)).labels() == "previous token"
    sink_head = np.array([[1.0, 0.0], [0.9, 0.1]])
    assert head_statistics(sink_head, sinks=(0,)).labels() == "sinks"


def test_a_head_that_looks_ahead_is_a_next_token_head():
    ahead = np.array([[1, 0, 0, 0], [0.1, 0.1, 0.8, 0], [0.1, 0.1, 0.1, 0.7], [0.2, 0.2, 0.2, 0.4]])  # rows 1, 2
    stats = head_statistics(ahead, sinks=(0,))
    assert stats.next == pytest.approx((0.8 + 0.7) / 3)  # of rows 1 to 3: row 3 has no token after it
    assert stats.labels() == "next token"


def test_hide_sinks_renormalises_what_is_left():
    hidden = hide_sinks(CAUSAL_HEAD, sinks=(0,))
    expected = np.array(
        [
            [0.0, 0.0, 0.0],  # all of row 0's attention was on the sink: nothing left to show
            [0.0, 1.0, 0.0],
            [0.0, 0.7 / 0.8, 0.1 / 0.8],
        ]
    )
    np.testing.assert_allclose(hidden, expected)
    np.testing.assert_array_equal(CAUSAL_HEAD[1], [0.6, 0.4, 0.0])  # the input is not changed


def test_hide_sinks_works_on_every_head_at_once():
    attention = np.stack([np.full((4, 4), 0.25), np.eye(4)])[None]  # (1 layer, 2 heads, 4, 4)
    hidden = hide_sinks(attention, sinks=(0, 3))
    np.testing.assert_allclose(hidden[0, 0], np.tile([0.0, 0.5, 0.5, 0.0], (4, 1)))
    np.testing.assert_allclose(hidden[0, 1], np.diag([0.0, 1.0, 1.0, 0.0]))


@pytest.mark.parametrize(
    ("attention", "sinks", "message"),
    [
        (np.ones((2, 3)), (0,), r"square matrices \(\.\.\., n, n\), not shape \(2, 3\)"),
        (np.ones(3), (0,), r"not shape \(3,\)"),
        (np.eye(3), (3,), r"between 0 and 2, not \[3\]"),
        (np.eye(3), (-1,), r"between 0 and 2, not \[-1\]"),
    ],
)
def test_bad_input_is_refused_in_words(attention, sinks, message):
    with pytest.raises(AttnvizInputError, match=message):
        hide_sinks(attention, sinks)
    with pytest.raises(AttnvizInputError, match=message):
        head_statistics(attention, sinks)


def test_a_real_previous_token_head(encoder):
    """all-MiniLM-L6-v2's layer 1 head 3 (0-based: 0, 2) looks at the token just before, found by measuring."""
    run = encoder.run("The animal didn't cross the street because it was too tired.")
    stats = head_statistics(run.attention, run.sinks)
    assert stats.previous[0, 2] > 0.85  # the rest: row 1's previous token is [CLS], a sink
    assert stats.labels()[0, 2] == "previous token"


def test_real_decoder_heads_park_attention_on_the_first_token(decoder):
    run = decoder.run("The animal didn't cross the street because it was too tired.")
    stats = head_statistics(run.attention, run.sinks)
    assert (stats.sinks[3:] > 0.5).mean() > 0.75  # past the first layers, most heads are mostly sink
    hidden = hide_sinks(run.attention, run.sinks)
    np.testing.assert_allclose(hidden[:, :, 1:].sum(axis=-1), 1.0)  # every row but the first renormalised
    assert (hidden[:, :, 0] == 0).all()
