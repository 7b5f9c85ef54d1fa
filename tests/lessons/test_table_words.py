"""Typing into the Q, K and V tables over generated states and blocks: a block lands exactly on the cells it names
or not at all, and what the tables say then is true of the block and the table, worked out here from the state."""

from __future__ import annotations

import re

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from attnviz.core.errors import AttnvizInputError
from attnviz.core.numbers import parse_number
from attnviz.core.playground_state import column_names
from attnviz.lessons import table_words
from attnviz.playground.session import Session
from tests.lessons.sentence_registry import covers
from tests.lessons.test_sentence_claims import MANY, edited_states

TEXTS = st.one_of(
    st.floats(-1000, 1000, allow_nan=False).map(repr),
    st.sampled_from(["-0", "1e-3", ".5", "3.", "2000", "x", "", "1,5", "−2"]),
)


@st.composite
def typed(draw):
    """A state, and an edit aimed at a named cell (perhaps one the state does not have) with a block of texts."""
    state = draw(edited_states())
    matrix = draw(st.sampled_from("QKV"))
    width = state.d_v if matrix == "V" else state.d_k
    rows = [*state.labels, "99: gone"]
    cols = [*column_names(matrix, width + 1)]  # the last is past the table
    height, wide = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    cells = [[draw(TEXTS) for _ in range(wide)] for _ in range(height)]
    sent = {"view": matrix, "row": draw(st.sampled_from(rows)), "col": draw(st.sampled_from(cols)), "cells": cells}
    return state, sent | {"id": "t-1"}


@MANY
@covers(table_words.cell_gone, table_words.block_misfit, table_words.paste_refused)
@given(typed())
def test_a_block_lands_exactly_where_it_was_aimed_or_nowhere_saying_why(case):
    state, sent = case
    after = Session(state=state).apply({"edit": sent})
    matrix, cells = sent["view"], np.array(sent["cells"], dtype=object)
    width = state.d_v if matrix == "V" else state.d_k
    said = after.said.at_tables
    assert after.last_edit == "t-1"
    if sent["row"] not in state.labels or sent["col"] not in column_names(matrix, width):
        assert said == table_words.cell_gone(matrix, sent["row"], sent["col"])
        assert f"({matrix}, row {sent['row']}, column {sent['col']})" in said and after.state == state
        return
    top, left = state.labels.index(sent["row"]), int(sent["col"][1:]) - 1
    room = (state.n - top, width - left)
    if cells.shape[0] > room[0] or cells.shape[1] > room[1]:
        numbers = [int(x) for x in re.findall(r"(\d+) (?:rows?|columns?)", said)]
        assert numbers == [*cells.shape, *room] and after.state == state
        return
    good = []
    for text in cells.ravel():
        try:
            good.append(parse_number(text))
        except AttnvizInputError:
            good.append(None)
    if None in good:
        assert after.state == state and said is not None
        bad = good.count(None)
        assert (f"{bad} of its {cells.size} cells" in said) == (bad > 1 and cells.size > 1)
        assert said.startswith("Nothing was pasted") == (cells.size > 1)
        return
    assert said is None
    landed = after.state.matrices()["QKV".index(matrix)]
    block = landed[top : top + cells.shape[0], left : left + cells.shape[1]]
    assert np.array_equal(block, np.array(good).reshape(cells.shape))
    assert np.signbit(block).tolist() == np.signbit(np.array(good).reshape(cells.shape)).tolist()  # −0 kept
    for other, (before, now) in enumerate(zip(state.matrices(), after.state.matrices(), strict=True)):
        mask = np.ones(now.shape, bool)
        if other == "QKV".index(matrix):
            mask[top : top + cells.shape[0], left : left + cells.shape[1]] = False
        assert np.array_equal(before[mask], now[mask])  # nothing else moved
    assert after.undone().state == state  # Undo takes the whole block back
