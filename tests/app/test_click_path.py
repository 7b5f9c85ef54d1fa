"""The README's "life of a click" tables, held to what a click really runs.

Two clicks on the Playground, each made in AppTest as the browser makes it and run under a profiler
(``sys.setprofile`` and ``threading.setprofile``: the script runs in its own thread):

- a tick on *Causal mask* beside the views: the component's one trigger, sent with the rerun;
- a number typed into a cell of the Q table: the tables' one trigger (an ``{"edit"}`` event), sent with the rerun.

**Ran**: every product Python file (attnviz/, pages/, app.py) with a frame called below one of the click's roots:
the edge that screens what the browser sent (``set_widgets_from_proto`` of attnviz/ui/edge.py), the handler that
takes the click (the component's callback, the views' or the tables') and the views' fragment (``attention_views`` of
pages/playground.py); for a typed cell, the tables' data too (``tables_data``: the echo of the edit). The JavaScript half is every ES module the Node test of the click
(tests/js/click.test.mjs) imports, with what they import. The table must name each of those files, and no other.

**Carries the value**: a file with a frame, below those roots, whose arguments or locals (read as it is called and as
it returns) hold the change itself: the event as the browser sent it (or a container holding it), the Playground's
state after the click (a ``PlaygroundState`` equal to it, or an object whose ``.state`` is), or the changed field
under its own name (``causal`` true, or ``field="causal"`` beside ``value=True``; a ``Q`` whose typed cell holds the
typed number). A file that only runs below them (a number printed, a colour looked up) does not carry it.
"""

from __future__ import annotations

import re
import sys
import threading
from dataclasses import replace

import numpy as np

from attnviz.classroom.share import encode
from attnviz.core.playground_state import PlaygroundState
from attnviz.ui.state import TABLES
from bench.harness.apptest import open_app, use_control, views_data
from tests.support.apptest import playground, type_cells
from tests.support.live import REPO

MOST_FILES_CARRYING_THE_VALUE = 14
EDGE = ("set_widgets_from_proto", "attnviz/ui/edge.py")
FRAGMENT = ("attention_views", "pages/playground.py")
CALLBACK = ("_hand_over", "attnviz/ui/attention_grid.py")
TABLES_DATA = ("tables_data", "attnviz/playground/tables.py")
_PRODUCT = str(REPO) + "/"
# A state no other test opens: the click computes its numbers afresh, as a student's first click does, rather than
# finding them in the class's cache (attnviz/core/class_cache.py), where a test run before this one may have put them.
FRESH = replace(PlaygroundState(), seed=271_828)


def _relative(filename: str) -> str | None:
    if not filename.startswith(_PRODUCT):
        return None
    path = filename[len(_PRODUCT) :]
    return path if path.startswith(("attnviz/", "pages/")) or path == "app.py" else None


def _contains(value, wanted, depth: int = 4) -> bool:
    try:
        if type(value) is type(wanted) and value == wanted:
            return True
    except (ValueError, TypeError):  # an array compared
        return False
    if depth and isinstance(value, dict):
        return any(_contains(v, wanted, depth - 1) for v in value.values())
    if depth and isinstance(value, list | tuple):
        return any(_contains(v, wanted, depth - 1) for v in value[:64])
    return False


def profile(click, roots, holds_the_change) -> tuple[set[str], set[str]]:
    """(files that ran, files that carried the value) below ``roots`` ((function, file) pairs) during ``click()``."""
    ran, carried, depth, entered = set(), set(), [0], set()

    def seen(frame, event, arg):
        if event not in ("call", "return"):
            return
        path = _relative(frame.f_code.co_filename)
        if path is None:
            return
        root = (frame.f_code.co_name, path) in roots
        if root:
            entered.add((frame.f_code.co_name, path))
        depth[0] += root and event == "call"
        if depth[0] > 0:
            ran.add(path)
            if path not in carried and any(holds_the_change(name, value) for name, value in frame.f_locals.items()):
                carried.add(path)
        depth[0] -= root and event == "return"

    threading.setprofile(seen)
    sys.setprofile(seen)
    try:
        click()
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
    assert entered == roots, f"the click never entered {roots - entered}: a root was renamed or moved"
    return ran, carried


def table_files(heading: str) -> set[str]:
    """Every file the README's table under ``heading`` names: a row's first column holds full paths in backticks, or a
    folder (ending in /) followed by names in it."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split(f"### {heading}\n", 1)[1].split("\n#", 1)[0]
    named = set()
    for row in re.findall(r"^\| *\d+ *\|([^|]+)\|", section, re.M):
        folder = ""
        for token in re.findall(r"`([^`]+)`", row):
            if token.endswith("/"):
                folder = token
            else:
                named.add(token if "/" in token else folder + token)
    return named


def js_half() -> set[str]:
    """The ES modules the Node test of the click imports, with every module they import."""
    found, todo = set(), [REPO / "tests" / "js" / "click.test.mjs"]
    while todo:
        module = todo.pop()
        for target in re.findall(r"^import [^;]*? from '(\.[^']+)';", module.read_text(encoding="utf-8"), re.M | re.S):
            path = (module.parent / target).resolve()
            relative = str(path.relative_to(REPO))
            if relative not in found:
                found.add(relative)
                todo.append(path)
    return found


def check_table(heading: str, ran: set[str], carried: set[str]) -> None:
    print(f"\n{heading}: {len(ran)} Python files run, {len(carried)} carrying the value: {sorted(carried)}")
    named = table_files(heading)
    expected = ran | js_half()
    assert not expected - named, f"the README's {heading!r} table does not name: {sorted(expected - named)}"
    assert not named - expected, (
        f"the README's {heading!r} table names files the click no longer runs: {sorted(named - expected)}"
    )
    assert len(carried) <= MOST_FILES_CARRYING_THE_VALUE, (
        f"{len(carried)} files carry the value, more than {MOST_FILES_CARRYING_THE_VALUE}: {sorted(carried)}"
    )


def test_a_causal_mask_click_runs_the_files_its_table_names():
    at = open_app(s=encode(FRESH))
    after = replace(playground(at), causal=True)
    event = {"control": "causal", "value": True}

    def holds_the_change(name, value) -> bool:
        state = getattr(value, "state", value)
        return (
            (type(state) is type(after) and state == after)
            or _contains(value, event)
            or (name == "causal" and value is True)
            or (name == "field" and value == "causal")
        )

    ran, carried = profile(lambda: use_control(at, "causal", True), {EDGE, CALLBACK, FRAGMENT}, holds_the_change)
    assert playground(at) == after
    check_table("The life of a click", ran, carried)


def test_a_number_typed_into_q_runs_the_files_its_table_names():
    at = open_app(s=encode(FRESH))
    typed = "7.25"
    row = playground(at).labels[0]
    after = replace(playground(at), edits=((("Q", 0, 0), 7.25),))

    def holds_the_change(name, value) -> bool:
        state = getattr(value, "state", value)
        return (
            (type(state) is type(after) and state == after)
            or _contains(value, typed)
            or (name in ("Q", "q") and isinstance(value, np.ndarray) and value.ndim == 2 and value[0, 0] == 7.25)
        )

    type_it = lambda: type_cells(at, "Q", row, "q1", [[typed]], id="click-path-1")  # noqa: E731
    ran, carried = profile(type_it, {EDGE, CALLBACK, FRAGMENT, TABLES_DATA}, holds_the_change)
    assert playground(at) == after and views_data(at, TABLES)["edited"] == "click-path-1"
    check_table("The life of a typed cell", ran, carried)
