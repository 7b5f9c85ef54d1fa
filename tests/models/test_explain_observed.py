"""What the Real model page's explanation shows (attnviz.models.explain), for the cases test_explain.py leaves out:
shares of whole counts and of every head at once, which token an encoder's change names, and a comparison of two runs
that are not a sentence and the same sentence without one token, refused in one sentence."""

from __future__ import annotations

import numpy as np
import pytest

from attnviz.core.errors import AttnvizInputError
from attnviz.models.explain import output_change, shares
from tests.models.conftest import require_package

WRONG_WAY = "Compare a sentence's run with the same sentence's run without one of its tokens."


def test_shares_of_whole_counts_are_fractions_not_zeros():
    np.testing.assert_array_equal(
        shares([[1, 1, 0], [0, 0, 0], [1, 0, 3]]), [[0.5, 0.5, 0], [0, 0, 0], [0.25, 0, 0.75]]
    )


def test_shares_of_every_layer_and_head_at_once_are_each_rows_own():
    values = np.arange(1.0, 17.0).reshape(2, 2, 2, 2)  # (layers, heads, n, n)
    expected = values / values.sum(axis=-1, keepdims=True)
    np.testing.assert_allclose(shares(values), expected, rtol=1e-15)


def test_an_encoders_change_names_the_token_taken_away(encoder):
    require_package("all-MiniLM-L6-v2")
    run = encoder.run("The cat sat on the mat.")
    assert output_change(run, run.without(2)).removed == 2


def test_runs_that_are_not_one_sentence_with_and_without_a_token_are_refused(encoder):
    require_package("all-MiniLM-L6-v2")
    run, other = encoder.run("The cat sat."), encoder.run("A dog ran.")
    for before, after in ((run, run), (run, other.without(1)), (run.without(1), run.without(2))):
        with pytest.raises(AttnvizInputError) as refused:
            output_change(before, after)
        assert str(refused.value) == WRONG_WAY
