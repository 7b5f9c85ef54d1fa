"""The benchmarks measure the app as it is: what bench.product reads from attnviz is what the app shows, and the chart
floor draws as many views, of the same size, as the Playground's first screen."""

import json

from streamlit.testing.v1 import AppTest

from bench.harness.apptest import open_app, views_data
from bench.harness.server import REPO
from bench.product import FIRST_SCREEN_TOKENS, PLAYGROUND_VIEWS


def test_the_first_screen_is_what_the_app_opens_on():
    views = views_data(open_app())["views"]
    # Counted here, not by the function bench.product asks: the four views of self-attention, 12 tokens of the review
    assert [view["name"] for view in views] == ["scores", "scaled", "weights", "output"] and PLAYGROUND_VIEWS == 4
    assert {len(view["rows"]) for view in views} == {FIRST_SCREEN_TOKENS} == {12}


def test_the_chart_floor_draws_as_many_views_of_the_same_size():
    floor = AppTest.from_file(str(REPO / "bench" / "chart_floor_app.py"), default_timeout=60).run()
    assert not floor.exception
    options = [json.loads(chart.proto.spec) for chart in floor.get("echarts_chart")]
    assert len(options) == PLAYGROUND_VIEWS
    assert {(len(o["yAxis"]["data"]), len(o["xAxis"]["data"])) for o in options} == {(FIRST_SCREEN_TOKENS,) * 2}
