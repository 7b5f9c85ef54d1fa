"""Every matrix on every page is drawn by the one attention-grid component, from the one cell model
(attnviz.figures.matrix_view). Plotly and ECharts stay for line and bar charts; a heatmap drawn with either fails here.
The component's script and styles come once a page, in the router's element, and never with a views element, which a
click redraws.
"""

import json
from pathlib import Path

import pytest

from attnviz.component.bundle import bundle
from attnviz.pages import PAGE_NAMES, page_named
from bench.harness.apptest import all_views_data
from tests.support.apptest import echarts, open_app

# The matrices each page draws, by component key: what a page that stopped drawing one would lose.
MATRICES = {
    "playground": {"playground.views", "playground.tables"},
    "step_by_step": {"steps.views"},
    "multi_head": {"mh.x", "mh.weights", "mh.qkv", "mh.heads", "mh.mixing", "mh.scores"},
    "real_model": {"rm.overview", "rm.head", "rm.explain"},
}
VIEW_FIELDS = {"name", "title", "rows", "cols", "ticks", "row_ticks", "colour", "text", "numbers", "palette", "range",
               "value_name", "focus", "changed", "boxes", "groups", "tick_font"}  # fmt: skip


def plotly_traces(at) -> list[str]:
    return [trace.get("type", "scatter") for c in at.get("plotly_chart") for trace in json.loads(c.proto.spec)["data"]]


@pytest.mark.parametrize("page", PAGE_NAMES)
def test_no_page_draws_a_matrix_any_other_way(page, request):
    if page == "real_model":
        request.getfixturevalue("encoder")  # the model's files, or a skip that says which are missing
    at = open_app(page)
    if page == "real_model":
        from tests.app.test_real_model import ready

        ready(at)
    assert not at.exception
    assert not {"heatmap", "heatmapgl", "contour", "image"} & set(plotly_traces(at)), "a plotly matrix"
    heatmaps = [k for k, option in echarts(at).items() if any(s.get("type") == "heatmap" for s in option["series"])]
    assert heatmaps == [], f"ECharts heatmaps: {heatmaps}"
    drawn = all_views_data(at)
    assert set(drawn) == MATRICES.get(page, set())
    components = [c.proto for c in at.get("bidi_component")]
    shared = [c for c in components if c.component_name == "attnviz_views_shared"]
    assert page_named(page).draws_views == bool(drawn) and len(shared) == bool(drawn)  # the router: once, where needed
    for element in shared:
        assert element.js_content == bundle(entry="shared.js") and ".attnviz-instrument" in element.css_content
    views = [c for c in components if c.component_name == "attnviz_attention_views"]
    assert [(c.js_content, c.css_content) for c in views] == [(bundle(), "")] * len(drawn)
    for data in drawn.values():
        for view in data["views"]:
            assert set(view) >= VIEW_FIELDS, f"{view['name']} is not a matrix_view cell model"


def test_no_page_draws_a_table_to_type_into_but_the_component():
    """The Q, K and V tables and Multi-head's X are typed into in the matrix component: no Streamlit data editor
    (its own input, text and queue) is left anywhere in the app."""
    root = Path(__file__).resolve().parents[2]
    sources = [*(root / "attnviz").rglob("*.py"), *(root / "pages").glob("*.py"), root / "app.py"]
    assert [str(path.relative_to(root)) for path in sources if "data_editor" in path.read_text(encoding="utf-8")] == []
