"""AppTest fixtures. Helpers live in tests/support/apptest.py."""

import pytest
import streamlit.testing.v1.app_test as app_test_module
from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

from tests.support.apptest import open_app


class _RouterAlreadyRan(PagesManager):
    """AppTest re-detects the pages/ folder on every run and so runs each one in Streamlit's legacy multipage mode,
    which a real server leaves for good once app.py has called st.navigation. Tests run as a warmed-up server does
    (see attnviz/ui/__init__.py for the same fix on a real server, and tests/app/test_router.py for its check)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        PagesManager.uses_pages_directory = False


@pytest.fixture(autouse=True)
def _router_already_ran(monkeypatch):
    monkeypatch.setattr(app_test_module, "PagesManager", _RouterAlreadyRan)


@pytest.fixture
def app() -> AppTest:
    return open_app()
