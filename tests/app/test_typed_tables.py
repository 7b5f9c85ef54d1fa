"""The Q, K and V tables typed into in place: each edit sent as the browser sends it (the tables' one trigger, an
``{"edit"}`` event), read back from the session and from what the tables and the views were given."""

import numpy as np
import pytest

from attnviz import random_qkv
from attnviz.classroom.share import encode
from attnviz.core.numbers import format_fixed
from attnviz.core.playground_state import PlaygroundState
from attnviz.lessons.table_words import UNREADABLE
from attnviz.ui.state import TABLES
from bench.harness.triggers import trigger_state
from tests.reference import naive_attention
from tests.support.apptest import open_app, playground, table_texts, type_cells, use_control, views, views_data

LABELS = ["0: The", "1: movie", "2: was", "3: not", "4: good", "5: ,"]  # the first rows of the default sentence


@pytest.fixture
def app():
    """Random vectors by position (seed 42, d_k = d_v = 4), twelve tokens, opened from a link."""
    return open_app(s=encode(PlaygroundState()))


def said(at) -> str:
    return views_data(at, TABLES)["warning"]


def test_a_typed_cell_lands_in_the_state_the_table_and_the_views(app):
    type_cells(app, "Q", "4: good", "q2", [["0.5"]], id="t-1")
    assert not app.exception and said(app) == ""
    assert playground(app).edits == ((("Q", 4, 1), 0.5),)
    assert table_texts(app, "Q")[4][1] == "0.5" and views_data(app, TABLES)["edited"] == "t-1"
    Q, K, V = random_qkv(12, 4, 4, seed=42, decimals=2)
    Q[4, 1] = 0.5
    scores, _, _ = naive_attention(Q.tolist(), K.tolist(), V.tolist())
    cols = len(views(app)["scores"]["cols"])
    assert views(app)["scores"]["text"][4 * cols : 5 * cols] == [format_fixed(x) for x in scores[4]]


def test_a_pasted_block_lands_exactly_from_the_cell_named(app):
    """A 3 × 2 block, as a spreadsheet pastes it, fills down and right from K[1: movie, k3], each text exactly as
    typed (−0 kept); every other cell as before; one Undo takes the whole block back."""
    before = playground(app)
    block = [["1", "-0"], ["1e-3", "−2.5"], ["1000", "0.125"]]
    type_cells(app, "K", "1: movie", "k3", block)
    K = playground(app).matrices()[1]
    assert K[1:4, 2:4].tolist() == [[1.0, -0.0], [0.001, -2.5], [1000.0, 0.125]] and np.signbit(K[1, 3])
    assert [row[2:] for row in table_texts(app, "K")[1:4]] == [["1", "-0"], ["0.001", "-2.5"], ["1000", "0.125"]]
    mask = np.ones(K.shape, bool)
    mask[1:4, 2:4] = False
    np.testing.assert_array_equal(K[mask], before.matrices()[1][mask])
    use_control(app, "undo")
    assert playground(app) == before


def test_a_block_too_large_for_the_table_is_refused_whole(app):
    before, shown = playground(app), table_texts(app, "V")
    type_cells(app, "V", "10: amazing", "v3", [["1", "2", "3"], ["4", "5", "6"], ["7", "8", "9"]], id="big")
    assert playground(app) == before and table_texts(app, "V") == shown
    assert said(app) == (
        "The pasted block is 3 rows × 3 columns, but from V, row 10: amazing, column v3 the table has room for "
        "2 rows × 2 columns. Nothing was pasted."
    )
    assert views_data(app, TABLES)["edited"] == "big"  # refused, and echoed: the browser's queue moves on
    use_control(app, "causal", True)
    assert said(app) == ""


def test_a_block_with_one_bad_cell_is_refused_whole_saying_which(app):
    before = playground(app)
    type_cells(app, "Q", "0: The", "q1", [["1", "2"], ["x", "2000"]])
    assert playground(app) == before
    assert said(app).startswith("Nothing was pasted (2 of its 4 cells are not numbers the table takes): Q[")


def test_an_edit_sent_again_does_nothing_more(app):
    """The browser sends an edit again until its id comes back: the second arrival changes nothing, even after
    another move (Undo would otherwise be handed the same edit twice)."""
    type_cells(app, "Q", "0: The", "q1", [["3"]], id="again-1")
    use_control(app, "undo")  # the cell is back as it was
    undone = playground(app)
    type_cells(app, "Q", "0: The", "q1", [["3"]], id="again-1")
    assert playground(app) == undone and views_data(app, TABLES)["edited"] == "again-1"


def test_a_cell_the_state_no_longer_has_is_refused_by_its_names(app):
    """Typed into before a shorter sentence arrived: its row name is gone, so nothing lands anywhere."""
    app.text_input(key="pg.sentence").input("The cat sat").run()
    before = playground(app)
    type_cells(app, "Q", "4: good", "q1", [["5"]])
    assert playground(app) == before and "is no longer in the table" in said(app)


@pytest.mark.parametrize("sent", [{"view": "Q"}, {"view": "Q", "row": "0: The", "col": "q1", "cells": [], "id": "a"}])
def test_an_edit_no_browser_sends_changes_nothing_and_says_so_at_the_tables(app, sent):
    before = playground(app)
    (component,) = [c for c in app.get("bidi_component") if c.proto.id.endswith(f"-{TABLES}")]
    states = app._tree.get_widget_states()
    states.widgets.append(trigger_state(component.proto.id, "event", {"edit": sent}))
    app._run(states)
    assert not app.exception and playground(app) == before and said(app) == UNREADABLE
    assert views_data(app, TABLES)["edited"] == sent.get("id", "")  # echoed when it has an id: the queue moves on


def test_the_tables_are_tall_enough_for_their_rows(app):
    assert views_data(app, TABLES)["height"] >= 12 * 26  # every row tall enough to read and to type into
    assert [view["rows"][:6] for view in views_data(app, TABLES)["views"]] == [LABELS] * 3
