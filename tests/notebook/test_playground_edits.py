"""The notebook Playground's Q, K and V, typed into without a browser: an edit event as the component sends it
(attnviz/component/edits.py) goes through the widget's one handler to the session, the traits ``Q``, ``K`` and ``V``
follow every move (a typed cell, a pasted block, Undo, a new sentence), a refused edit keeps the state and says why
under its table, and every data echoes the last edit's id so the browser can let the next one go."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
import traitlets

from attnviz.core.playground_state import MATRICES
from attnviz.notebook import Playground


def sent(widget) -> dict:
    return json.loads(widget._data)


_COUNT = itertools.count(1)
_IDS = itertools.count(1)


def event(widget, payload: dict) -> None:
    """What widget.js sends: the event in "_event", counted."""
    widget._event = {"event": payload, "count": next(_COUNT)}


def typed(widget, view: str, row: int, col: int, cells, *, id: str | None = None) -> str:
    """Texts typed (one cell) or pasted (a block) into ``view`` from (row, col), named as the browser names them."""
    view_data = next(v for v in sent(widget)["views"] if v["name"] == view)
    block = cells if isinstance(cells, list) else [[cells]]
    id = id or f"test-{next(_IDS)}"
    event(widget, {"edit": {"view": view, "row": view_data["rows"][row], "col": view_data["cols"][col],
                            "cells": block, "id": id}})  # fmt: skip
    return id


def traits(widget) -> list[list[list[float]]]:
    return [getattr(widget, name) for name in MATRICES]


def follows(widget) -> bool:
    """The traits are the state's matrices, exactly."""
    return traits(widget) == [m.tolist() for m in widget.state.matrices()]


def table(widget, view: str) -> dict:
    return next(v for v in sent(widget)["views"] if v["name"] == view)


def test_q_k_and_v_are_editable_views_after_the_four():
    widget = Playground()
    views = sent(widget)["views"]
    assert [v["name"] for v in views] == ["scores", "scaled", "weights", "output", "Q", "K", "V"]
    Q, K, V = widget.state.matrices()
    for view, values in zip(views[4:], (Q, K, V), strict=True):
        assert view["edit"]["name"] == view["name"]
        assert view["edit"]["col_names"] == [f"dimension {j + 1}" for j in range(values.shape[1])]
        assert view["rows"] == widget.state.labels
        assert [float(t) for t in view["text"]] == values.ravel().tolist()  # every cell's exact number
    assert sent(widget)["edited"] == "" and follows(widget)
    assert "line" not in views[4] and table(widget, "V")["line"]["tone"] == "info"  # what a cell takes, under V


def test_a_typed_cell_is_a_move_the_traits_follow_and_its_id_is_echoed():
    widget = Playground()
    seen = []
    widget.observe(lambda change: seen.append(change["name"]), names=list(MATRICES))
    scores_before = table(widget, "scores")["numbers"]
    id = typed(widget, "K", 4, 1, "0.5")
    assert widget.state.matrices()[1][4, 1] == 0.5 and widget.K[4][1] == 0.5
    assert follows(widget) and seen == ["K"]  # only the matrix that changed is announced
    assert table(widget, "K")["text"][4 * widget.state.d_k + 1] == "0.5"
    assert sent(widget)["edited"] == id
    assert table(widget, "scores")["numbers"] != scores_before  # the views computed from the new K


def test_exact_text_and_minus_zero_are_kept():
    widget = Playground()
    typed(widget, "Q", 0, 0, "−0")
    typed(widget, "V", 2, 1, "-12.125")
    assert np.signbit(widget.state.matrices()[0][0, 0]) and table(widget, "Q")["text"][0] == "-0"
    assert widget.V[2][1] == -12.125 and follows(widget)


def test_a_pasted_block_lands_from_the_cell_named():
    widget = Playground()
    typed(widget, "V", 1, 0, [["1", "2"], ["3", "4"], ["5", "6"]])
    assert [row[:2] for row in widget.V[1:4]] == [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]] and follows(widget)


@pytest.mark.parametrize(
    ("view", "row", "col", "cells", "says"),
    [
        ("Q", 3, 0, "abc", "is not a number"),
        ("K", 0, 1, "1001", "1000"),
        ("V", 6, 0, [["1"], ["2"], ["3"], ["4"], ["5"], ["6"], ["7"]], "Nothing was pasted"),
        ("Q", 1, 0, [["1", "x"]], "Nothing was pasted"),
    ],
)
def test_a_refused_edit_keeps_the_state_and_says_why_under_its_table(view, row, col, cells, says):
    widget = Playground()
    before, matrices = widget.state, traits(widget)
    id = typed(widget, view, row, col, cells)
    assert widget.state == before and traits(widget) == matrices
    assert sent(widget)["edited"] == id  # processed: the browser lets the next edit go
    line = table(widget, view)["line"]
    assert line["tone"] == "warn" and says in line["text"]
    assert not sent(widget)["warning"]  # said at the table, not above the views
    assert all(v.get("line", {}).get("tone") != "warn" for v in sent(widget)["views"] if v["name"] != view)
    event(widget, {"control": "causal", "value": True})  # the next move: the refusal is no longer said
    assert all(v.get("line", {}).get("tone") != "warn" for v in sent(widget)["views"])


def test_a_cell_the_state_no_longer_has_is_refused():
    widget = Playground()
    gone = table(widget, "Q")["rows"][-1]
    widget.sentence = "a b"  # set from Python while the edit was on its way
    before = widget.state
    event(widget, {"edit": {"view": "Q", "row": gone, "col": "q1", "cells": [["2"]], "id": "late-1"}})
    assert widget.state == before and "no longer in the table" in table(widget, "Q")["line"]["text"]


def test_undo_takes_an_edit_back_and_a_resent_edit_does_nothing_more():
    widget = Playground()
    start = traits(widget)
    id = typed(widget, "Q", 2, 0, "7")
    assert widget.Q[2][0] == 7.0
    event(widget, {"control": "undo", "value": None})
    assert traits(widget) == start and follows(widget)
    typed(widget, "Q", 2, 0, "7", id=id)  # its echo was late: sent again, the same edit
    assert traits(widget) == start and sent(widget)["edited"] == id


def test_the_traits_follow_a_new_sentence_and_a_new_size():
    widget = Playground()
    typed(widget, "K", 0, 0, "3")
    widget.sentence = "one two three"
    assert len(widget.Q) == len(widget.K) == len(widget.V) == 3 and follows(widget)
    widget.d_k = 3
    assert len(widget.Q[0]) == len(widget.K[0]) == 3 and follows(widget)
    assert table(widget, "K")["edit"]["col_names"] == ["dimension 1", "dimension 2", "dimension 3"]
    widget.d_v = 4
    assert len(widget.V[0]) == 4 and follows(widget)


def test_the_matrices_are_read_only_from_python():
    widget = Playground()
    before = widget.state
    with pytest.raises(traitlets.TraitError):
        widget.Q = [[1.0]]
    assert widget.state == before and follows(widget)


def test_fifty_edits_each_land_in_the_cell_named():
    """Random cells of Q, K and V, interleaved with a toggle: each value read back from the traits and the data."""
    rng = np.random.default_rng(53)
    widget = Playground()
    aimed = {}
    for k in range(50):
        view = MATRICES[rng.integers(3)]
        values = widget.state.matrices()[MATRICES.index(view)]
        row, col = int(rng.integers(values.shape[0])), int(rng.integers(values.shape[1]))
        text = f"{rng.integers(-999, 1000)}.{rng.integers(10)}"
        typed(widget, view, row, col, text)
        aimed[(view, row, col)] = text
        if k % 7 == 3:
            event(widget, {"control": "causal", "value": not widget.causal})
    for (view, row, col), text in aimed.items():
        assert getattr(widget, view)[row][col] == float(text)
        width = len(getattr(widget, view)[0])
        assert table(widget, view)["text"][row * width + col] == text.removesuffix(".0")
    changed = {(m, i, j) for (m, i, j), _ in widget.state.edits}
    assert changed == set(aimed) and follows(widget)  # none elsewhere


def test_an_event_sent_as_a_message_and_in_the_trait_is_handled_once():
    """widget.js sends each event both ways (a message arrives even when the widget manager merges trait changes; a
    trait change makes marimo run its cells again): the one that comes first is handled, the other ignored."""
    widget = Playground()
    widget._handle_custom_msg({"event": {"control": "causal", "value": True}, "id": "page-1"}, [])  # model.send's
    assert widget.causal
    widget.temperature = 0.5
    undo = {"event": {"control": "undo", "value": None}, "id": "page-2"}
    widget._handle_custom_msg(undo, [])
    assert widget.temperature == 1.0 and widget.causal
    widget._event = undo  # the same Undo, its trait change arriving after its message: not made again
    assert widget.causal
    widget._event = {"event": {"control": "undo", "value": None}, "count": 7}  # no id: each one is an event
    assert not widget.causal
    widget._handle_custom_msg({"something": "else"}, [])  # anywidget's own messages, or none: nothing happens
    assert widget.state == Playground().state
