"""AppTest fixtures. Helpers live in tests/support/apptest.py."""

import pytest
import streamlit.testing.v1.app_test as app_test_module
from streamlit.testing.v1 import AppTest

from tests.support.apptest import RouterAlreadyRan, open_app


@pytest.fixture(autouse=True)
def _router_already_ran(monkeypatch):
    monkeypatch.setattr(app_test_module, "PagesManager", RouterAlreadyRan)


@pytest.fixture
def app() -> AppTest:
    return open_app()
