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
    stats = head_statistics(CAUSAL_HEAD, sinks=(0,))
    assert stats.previous == pytest.approx((0.6 + 0.7) / 2)  # rows 1 and 2 only: row 0 has no previous token
    assert stats.next == 0.0  # rows 0 and 1: a causal head never sees the token after
    assert stats.first == pytest.approx((1.0 + 0.6 + 0.2) / 3)
    assert stats.sinks == pytest.approx((1.0 + 0.6 + 0.2) / 3)
    assert stats.itself == pytest.approx((1.0 + 0.4 + 0.1) / 3)


def test_several_sinks_add_up_and_a_repeated_one_counts_once():
    stats = head_statistics(CAUSAL_HEAD, sinks=(0, 2, 2))
    assert stats.sinks == pytest.approx((1.0 + 0.6 + (0.2 + 0.1)) / 3)


def test_statistics_keep_the_layers_and_heads():
    attention = np.stack([np.stack([CAUSAL_HEAD, np.eye(3)]), np.stack([np.full((3, 3), 1 / 3), CAUSAL_HEAD])])
    stats = head_statistics(attention, sinks=(0,))  # (layers 2, heads 2)
    np.testing.assert_allclose(stats.itself, [[0.5, 1.0], [1 / 3, 0.5]])
    np.testing.assert_allclose(stats.previous, [[0.65, 0.0], [1 / 3, 0.65]])
    np.testing.assert_array_equal(stats.labels(), [["previous token", "itself"], ["", "previous token"]])


def test_a_one_token_sentence_has_no_previous_token():
    stats = head_statistics(np.ones((2, 3, 1, 1)), sinks=(0,))
    np.testing.assert_array_equal(stats.previous, np.zeros((2, 3)))
    np.testing.assert_array_equal(stats.next, np.zeros((2, 3)))
    np.testing.assert_array_equal(stats.itself, np.ones((2, 3)))


def test_labels_follow_the_threshold():
    stats = head_statistics(CAUSAL_HEAD, sinks=(0,))  # previous 0.65, sinks 0.6, itself 0.5
    assert stats.labels() == "previous token"
    assert stats.labels(threshold=0.7) == ""
    sink_head = np.array([[1.0, 0.0], [0.9, 0.1]])
    assert head_statistics(sink_head, sinks=(0,)).labels() == "sinks"


def test_a_head_that_looks_ahead_is_a_next_token_head():
    ahead = np.array([[0.1, 0.8, 0.1], [0.1, 0.2, 0.7], [0.3, 0.3, 0.4]])  # rows 0 and 1 look one token ahead
    stats = head_statistics(ahead, sinks=(0,))
    assert stats.next == pytest.approx((0.8 + 0.7) / 2)  # row 2 has no token after it
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
    assert stats.previous[0, 2] > 0.95
    assert stats.labels()[0, 2] == "previous token"


def test_real_decoder_heads_park_attention_on_the_first_token(decoder):
    run = decoder.run("The animal didn't cross the street because it was too tired.")
    stats = head_statistics(run.attention, run.sinks)
    assert (stats.sinks[3:] > 0.5).mean() > 0.75  # past the first layers, most heads are mostly sink
    hidden = hide_sinks(run.attention, run.sinks)
    np.testing.assert_allclose(hidden[:, :, 1:].sum(axis=-1), 1.0)  # every row but the first renormalised
    assert (hidden[:, :, 0] == 0).all()
