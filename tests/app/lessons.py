"""Helpers for the guided pages' AppTests: open a page, and read a chart by the key the page gave it."""

import json

import numpy as np
from streamlit.testing.v1 import AppTest

from tests.app.conftest import APP, decode


def open_page(page: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page(page).run()
    assert not at.exception
    return at


def chart(at: AppTest, key: str) -> dict:
    """The plotly spec of the chart created with ``key`` (Streamlit ends the element id with the user key)."""
    matches = [json.loads(c.proto.spec) for c in at.get("plotly_chart") if c.proto.id.endswith(f"-{key}")]
    assert len(matches) == 1, f"expected one chart with key {key!r}, found {len(matches)}"
    return matches[0]


def keys(at: AppTest) -> list[str]:
    return [c.proto.id.rsplit("-", 1)[-1] for c in at.get("plotly_chart")]


def trace(at: AppTest, key: str, index: int, field: str) -> np.ndarray:
    return decode(chart(at, key)["data"][index][field]).astype(float)


def texts(elements) -> str:
    return "\n".join(str(e.value) for e in elements)
