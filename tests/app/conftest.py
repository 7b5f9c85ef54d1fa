"""Helpers for AppTest: run the app and read back the numbers the plotly charts were given."""

import base64
import json
from pathlib import Path

import numpy as np
import pytest
import streamlit.testing.v1.app_test as app_test_module
from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")


class _RouterAlreadyRan(PagesManager):
    """AppTest re-detects the pages/ folder on every run and so runs each one in Streamlit's legacy multipage mode,
    which a real server leaves for good once app.py has called st.navigation. Tests run as a warmed-up server does."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        PagesManager.uses_pages_directory = False


@pytest.fixture(autouse=True)
def _router_already_ran(monkeypatch):
    monkeypatch.setattr(app_test_module, "PagesManager", _RouterAlreadyRan)


@pytest.fixture
def app() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception
    return at


def decode(array):
    """Plotly 7 sends arrays as base64 typed arrays; plain lists pass through."""
    if isinstance(array, dict) and "bdata" in array:
        values = np.frombuffer(base64.b64decode(array["bdata"]), dtype=array["dtype"])
        shape = array.get("shape")
        return values.reshape([int(s) for s in str(shape).split(",")]) if shape else values
    return np.array(array, dtype=object if array and isinstance(array[0], str) else float)


def figures(at: AppTest) -> dict[str, dict]:
    """Every plotly figure on the page, by its title text."""
    specs = [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]
    return {spec["layout"]["title"]["text"]: spec for spec in specs}


def figure(at: AppTest, title_start: str) -> dict:
    matches = [spec for title, spec in figures(at).items() if title.startswith(title_start)]
    assert len(matches) == 1, f"expected one figure titled {title_start!r}, found {list(figures(at))}"
    return matches[0]


def heatmap_z(at: AppTest, title_start: str) -> np.ndarray:
    return decode(figure(at, title_start)["data"][0]["z"]).astype(float)
