"""The Q, K and V tables in a real Chromium, typed into in place (the matrix component's input over a cell): a value
typed right after its neighbour is kept, a pasted block lands whole, a refused value is said at the tables."""

from __future__ import annotations

import time

import pytest

from attnviz import random_qkv
from attnviz.classroom.share import decode
from attnviz.core.numbers import cell_text
from tests.e2e.test_playground import RANDOM_BY_POSITION, current_link
from tests.support.live import (
    CELL_INPUT,
    Q_VIEW,
    click_table_cell,
    open_app_page,
    paste_into,
    table_view,
    type_into,
    wait_for_app,
    wait_for_views_to_settle,
)

ROUNDS = 20


@pytest.fixture
def tables(page, server):
    """The Playground on seed 42's random vectors, scrolled to its tables."""
    open_app_page(page, f"{server.url}/?s={RANDOM_BY_POSITION}")
    wait_for_views_to_settle(page)
    table_view(page, "Q")
    wait_for_app(page)
    return page


def query_cells_when(page, wanted: dict, timeout_s: float = 30.0, matrix: int = 0) -> dict:
    """Q's (or K's, V's) cells at ``wanted``'s positions, read from the address once they hold ``wanted`` (or at the
    deadline)."""
    deadline = time.monotonic() + timeout_s
    while True:
        values = decode(current_link(page)).state.matrices()[matrix]  # (n, d)
        now = {cell: float(values[cell]) for cell in wanted}
        if now == wanted or time.monotonic() > deadline:
            return now
        page.wait_for_function("() => true")  # a round trip to the page between reads


def test_a_cell_typed_right_after_its_neighbour_is_kept_every_time(tables):
    """Edits typed while an earlier one's run is in flight are queued, never lost or reordered: each reaches the state,
    and the cell typed twice holds the later value."""
    page = tables
    for round_ in range(ROUNDS):
        row, column = round_ % 4, round_ % 3  # cells typed more than once, as a student trying values does
        wanted = {(row, column): round_ + 1.5, (row + 1, column): -(round_ + 1.25)}
        for (i, j), value in wanted.items():  # the second right after the first, without waiting for its run
            type_into(page, "Q", i, j, str(value))
        assert query_cells_when(page, wanted) == wanted, f"round {round_}"


def test_the_first_cell_typed_on_a_fresh_page_is_kept(page, server):
    open_app_page(page, f"{server.url}/?s={RANDOM_BY_POSITION}")
    table_view(page, "Q")
    wait_for_app(page)
    wanted = {(0, 0): 2.5, (1, 0): -3.25}
    for (i, j), value in wanted.items():
        type_into(page, "Q", i, j, str(value))
    assert query_cells_when(page, wanted) == wanted


def test_the_input_over_a_cell_names_it_and_asks_for_a_number(tables):
    """A screen reader says which cell is typed into; a phone shows its number pad; the text is no longer than a cell
    takes. A click on a cell picks no focus token (the click only puts the keyboard there)."""
    page = tables
    focus = decode(current_link(page)).state.focus
    click_table_cell(page, "Q", 4, 1)
    page.keyboard.press("Enter")
    cell_input = page.locator(f"{Q_VIEW} {CELL_INPUT}")
    cell_input.wait_for(state="visible")
    assert cell_input.get_attribute("aria-label") == "Q, row 4: good, dimension 2"
    assert cell_input.get_attribute("inputmode") == "decimal" and cell_input.get_attribute("maxlength") == "32"
    assert cell_input.input_value() == cell_text(random_qkv(12, 4, 4, seed=42, decimals=2)[0][4, 1])  # exactly
    page.keyboard.press("Escape")
    assert cell_input.count() == 0 or not cell_input.is_visible()
    assert decode(current_link(page)).state.focus == focus and decode(current_link(page)).state.edits == ()


def test_a_pasted_block_lands_whole_from_the_cell_it_was_pasted_on(tables):
    page = tables
    paste_into(page, "K", 1, 2, "1\t-0\n0.25\t−2\n7\t0.125\n")
    wanted = {(1, 2): 1.0, (1, 3): -0.0, (2, 2): 0.25, (2, 3): -2.0, (3, 2): 7.0, (3, 3): 0.125}
    assert query_cells_when(page, wanted, matrix=1) == wanted


def test_a_refused_value_is_said_at_the_tables_and_its_cell_goes_back(tables):
    page = tables
    type_into(page, "Q", 2, 0, "abc")
    warning = page.locator(".attnviz-instrument").filter(has=page.locator(Q_VIEW)).get_by_text("is not a number")
    warning.first.wait_for()
    assert decode(current_link(page)).state.edits == ()
    type_into(page, "Q", 2, 0, "1.5")  # the next move: its warning is gone
    assert query_cells_when(page, {(2, 0): 1.5}) == {(2, 0): 1.5}
    warning.first.wait_for(state="detached")


def table_top(page) -> float:
    """The Q table's top, from the top of the page's content (whatever the scroll)."""
    # The page as drawn: the four views above the tables laid out (a run that redraws them has ended).
    page.wait_for_function(
        "() => [...document.querySelectorAll('.attnviz-view:not([data-editable]) canvas')]"
        ".filter((c) => c.dataset.layout && c.getBoundingClientRect().height > 0).length === 4"
    )
    content = page.locator('[data-testid="stMainBlockContainer"]').bounding_box()
    return table_view(page, "Q").bounding_box()["y"] - content["y"]


def table_top_when(page, wanted: float, timeout_s: float = 30.0) -> float:
    """The Q table's top once it is ``wanted`` (or at the deadline): a run that redraws the page passes through
    frames drawn before all of it has arrived; the page the move leaves is what is measured."""
    deadline = time.monotonic() + timeout_s
    while (now := table_top(page)) != wanted and time.monotonic() < deadline:
        page.wait_for_function("() => true")  # a round trip to the page between reads
    return now


def test_nothing_above_the_tables_changes_height_when_a_move_says_something(tables):
    """A refused cell's message above the tables moved them 67 px, Randomise's and Undo's banners 49 px, the line
    under the views 17 px when it wrapped: the next click on a cell then edited the wrong row."""
    page = tables
    top = table_top(page)
    moves = {
        "a refused cell": lambda: type_into(page, "Q", 1, 0, "abc"),
        "a typed cell": lambda: type_into(page, "Q", 1, 0, "1.5"),
        "Randomise": lambda: page.get_by_role("button", name="Randomise").click(),
        "Undo": lambda: page.locator('button[data-field="undo"], [data-field="undo"] button').first.click(),
        "the causal mask": lambda: page.get_by_text("Causal mask").first.click(),
    }
    for name, move in moves.items():
        move()
        wait_for_app(page)
        wait_for_views_to_settle(page)
        assert table_top_when(page, top) == top, name
