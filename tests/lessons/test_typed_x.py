"""Multi-head's X typed into: a block lands whole, kept per (seed, d_model), or is refused whole saying why."""

import numpy as np

from attnviz.lessons.table_words import UNREADABLE, cell_gone
from attnviz.lessons.typed_x import TypedX, x_table

ROWS, COLS = ["0: a", "1: b", "2: c"], ["x1", "x2"]
BASE = np.arange(6, dtype=float).reshape(3, 2)


def edit(row="1: b", col="x1", cells=(("7",),), id="e-1", view="X") -> dict:
    return {"edit": {"view": view, "row": row, "col": col, "cells": [list(r) for r in cells], "id": id}}


def test_a_block_lands_exactly_and_only_on_the_x_it_was_typed_into():
    typed = TypedX().after(edit(cells=(("-0", "1e-3"), ("2.5", "−4"))), (0, 2), ROWS, COLS)
    X = typed.on(BASE, (0, 2))
    assert X.tolist() == [[0.0, 1.0], [-0.0, 0.001], [2.5, -4.0]] and np.signbit(X[1, 0])
    assert typed.edited == "e-1" and typed.refused == ""
    np.testing.assert_array_equal(typed.on(BASE, (1, 2)), BASE)  # another seed's X has none of it
    both = typed.after(edit(row="0: a", id="e-2"), (1, 2), ROWS, COLS)
    assert both.on(BASE, (0, 2)).tolist() == X.tolist() and both.on(BASE, (1, 2))[0, 0] == 7.0  # each its own


def test_a_refused_block_changes_no_cell_and_says_why_once():
    kept = TypedX().after(edit(cells=(("5",),)), (0, 2), ROWS, COLS)
    for sent, words in [
        (edit(cells=(("1",), ("2",), ("3",)), id="e-2"), "The pasted block is 3 rows × 1 column"),
        (edit(cells=(("1", "x"),), id="e-3"), "Nothing was pasted: X[1: b, dimension 2]"),
        (edit(row="9: z", id="e-4"), cell_gone("X", "9: z", "x1")),
        (edit(view="Q", id="e-5"), cell_gone("Q", "1: b", "x1")),
    ]:
        refused = kept.after(sent, (0, 2), ROWS, COLS)
        assert refused.cells == kept.cells and refused.edited == sent["edit"]["id"]
        assert refused.refused.startswith(words) and refused.said().refused == ""


def test_an_edit_sent_again_or_no_edit_at_all_changes_nothing():
    typed = TypedX().after(edit(), (0, 2), ROWS, COLS)
    assert typed.after(edit(cells=(("9",),)), (0, 2), ROWS, COLS) == typed  # the same id again
    for other in [{"cell": {"view": "X", "row": 0, "col": 0}}, None, {"edit": edit(id="e-2")["edit"], "x": 1}]:
        assert typed.after(other, (0, 2), ROWS, COLS) == typed


def test_an_edit_no_honest_browser_sends_is_refused_and_still_echoed():
    typed = TypedX().after(edit(), (0, 2), ROWS, COLS)
    ragged = {"edit": {"view": "X", "row": "0: a", "col": "x1", "cells": [["1"], ["2", "3"]], "id": "c-1"}}
    refused = typed.after(ragged, (0, 2), ROWS, COLS)
    assert refused.cells == typed.cells and refused.edited == "c-1" and refused.refused == UNREADABLE
    assert refused.after(ragged, (0, 2), ROWS, COLS) == refused  # sent again: nothing more
    no_id = typed.after({"edit": {"view": "X"}}, (0, 2), ROWS, COLS)
    assert no_id.edited == typed.edited and no_id.refused == UNREADABLE


def test_x_is_sent_with_every_cell_s_exact_text_its_warning_and_the_edit_echoed():
    data = x_table(
        np.array([[0.1, -0.0], [1e-5, 2.0]]), ["0: a", "1: b"], edited="e-9", warning="why", height=260, font_size=13
    )
    (view,) = data["views"]
    assert view["text"] == ["0.1", "-0", "1e-05", "2"] and view["edit"] == {
        "name": "X",
        "col_names": ["dimension 1", "dimension 2"],
    }
    assert data["edited"] == "e-9" and data["warning"] == "why"
