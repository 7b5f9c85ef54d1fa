"""The app driven in Streamlit's AppTest, as the tests and the server benchmarks (bench.worst, bench.server) do: opened
through its router, a button by its label, the Playground's controls beside the views used as the browser uses them."""

from __future__ import annotations

from pathlib import Path

from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

from attnviz.ui.attention_grid import sent_data
from attnviz.ui.state import TABLES, VIEWS
from bench.harness.triggers import trigger_state

APP = str(Path(__file__).resolve().parents[2] / "app.py")


class RouterAlreadyRan(PagesManager):
    """AppTest re-detects the pages/ folder on every run and so runs each one in Streamlit's legacy multipage mode,
    which a real server leaves for good once app.py has called st.navigation. Patched in as AppTest's
    PagesManager (tests/app/conftest.py, bench/worst.py), it makes every run go through the router as on a warmed-up
    server (see attnviz/ui/__init__.py for the same fix on a real server, and tests/app/test_router.py for its check)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        PagesManager.uses_pages_directory = False


def open_app(page: str | None = None, **query_params) -> AppTest:
    """The app after its first run, on ``page`` (a name from attnviz.pages) if given."""
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in query_params.items():
        at.query_params[name] = value
    at.run()
    if page is not None:
        at.switch_page(f"pages/{page}.py").run()
    assert not at.exception, at.exception
    return at


def button(at: AppTest, label: str):
    matches = [b for b in at.button if b.label == label]
    assert len(matches) == 1, f"expected one button {label!r}, found {[b.label for b in at.button]}"
    return matches[0]


def all_views_data(at: AppTest) -> dict[str, dict]:
    """What every attention-grid component on the page (attnviz/component) was sent, by its key."""
    return {
        c.proto.id.rsplit("-", 1)[-1]: sent_data(c.proto.json)
        for c in at.get("bidi_component")
        if c.proto.component_name == "attnviz_attention_views"
    }


def views_data(at: AppTest, key: str | None = None) -> dict:
    """What the attention-views component (attnviz/component) drawn with ``key`` was sent: views, sizes,
    colours; without a key, the page's one such component (the Playground's views, not its Q, K and V tables)."""
    drawn = all_views_data(at)
    if key is None:
        drawn.pop(TABLES, None)
        assert len(drawn) == 1, f"expected one attention-views component, found {list(drawn)}"
        return next(iter(drawn.values()))
    assert key in drawn, f"no attention-views component {key!r}: {list(drawn)}"
    return drawn[key]


def controls(at: AppTest) -> dict[str, dict]:
    """The controls beside the views, by field (causal, scale, temperature, blocked_keys, focus, undo): each as the
    component was given it, with its kind, label, options and the value it shows."""
    return {control["field"]: control for control in views_data(at)["controls"]}


def control_value(at: AppTest, field: str):
    return controls(at)[field]["value"]


def click_cell(at: AppTest, key: str, view: str, row: int, col: int | None, *, covered: bool = False) -> AppTest:
    """Clicks cell (row, col) of ``view`` in the attention-grid component drawn with ``key`` (col None: the row's
    label), as the browser does: the event {"cell": …} sent with the rerun, or {"guess": …} on a ``covered`` view."""
    (component,) = [c for c in at.get("bidi_component") if c.proto.id.endswith(f"-{key}")]
    states = at._tree.get_widget_states()
    sent = {"view": view, "row": row, "col": col}  # as the browser sends both
    states.widgets.append(trigger_state(component.proto.id, "event", {"guess" if covered else "cell": sent}))
    return at._run(states)


def use_control(at: AppTest, field: str, value=True) -> AppTest:
    """Changes the control ``field`` beside the views to ``value`` (a button: presses it) as the browser does: the
    event {"control": field, "value": value}, sent with the rerun. AppTest has no API for a v2 component's triggers, so this
    adds the trigger to the widget states AppTest would send and runs with them."""
    assert field in controls(at) or field == "focus", f"no control {field!r} beside the views"
    (component,) = [c for c in at.get("bidi_component") if c.proto.id.endswith(f"-{VIEWS}")]
    states = at._tree.get_widget_states()
    states.widgets.append(trigger_state(component.proto.id, "event", {"control": field, "value": value}))
    return at._run(states)
