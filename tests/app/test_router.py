"""The router: one page table, and the one workaround for Streamlit's legacy pages/ mode."""

import subprocess
import sys
from pathlib import Path

from streamlit.runtime.pages_manager import PagesManager

from attnviz.pages import PAGES, page_named
from tests.support.apptest import APP, open_app


def test_every_page_in_the_table_is_a_file_and_every_file_is_in_the_table():
    on_disk = sorted(path.stem for path in (Path(APP).parent / "pages").glob("*.py"))
    assert sorted(page.name for page in PAGES) == on_disk
    assert page_named("why_scale").file == "pages/why_scale.py"


HEADINGS = {  # each page's own h1: the page that was asked for ran, not another (the Playground, say)
    "playground": "Attention playground",
    "step_by_step": "Step by step",
    "geometry": "The geometry of dot products",
    "why_scale": "Why we divide by √d_k",
    "multi_head": "Multi-head attention and projections",
    "watch_it_learn": "Watch attention learn",
    "real_model": "A real model",
    "challenges": "Challenges",
    "lesson_plans": "Lesson plans",
}


def test_every_page_in_the_table_opens_without_an_error_on_its_own_heading():
    at = open_app()
    assert set(HEADINGS) == {page.name for page in PAGES}
    for page in PAGES:
        at.switch_page(page.file).run()
        assert not at.exception, page.name
        assert [title.value for title in at.title] == [HEADINGS[page.name]], page.name


def test_streamlit_still_needs_the_legacy_pages_workaround(monkeypatch):
    """attnviz.ui.routes.through_the_router (and tests/app/conftest.py) switch off the legacy multipage mode Streamlit enters for
    a folder named pages/ until st.navigation first runs. When this test fails, Streamlit no longer enters that mode:
    delete both workarounds and this test."""
    monkeypatch.setattr(PagesManager, "uses_pages_directory", None)
    PagesManager(APP)
    assert PagesManager.uses_pages_directory is True


def test_each_run_gets_its_own_page_objects_made_from_one_set():
    """st.navigation marks the chosen page runnable on the object itself: sessions running at once must not share."""
    at = open_app()
    from attnviz.ui.routes import routes

    first, second = routes(), routes()
    assert list(first) == [page.name for page in PAGES]
    assert all(first[name] is not second[name] for name in first)
    assert [p.url_path for p in first.values()] == [p.url_path for p in second.values()]
    assert not at.exception


def test_importing_the_ui_package_changes_nothing_in_streamlit():
    """app.py's ``install()`` does, once; importing attnviz.ui (a page, a test, a notebook user) must not."""
    code = (
        "import gc\n"
        "from streamlit.runtime.state.session_state import SessionState\n"
        "from streamlit.runtime.pages_manager import PagesManager\n"
        "import attnviz.ui, attnviz.ui.state, attnviz.ui.routes\n"
        "print(gc.get_freeze_count(), hasattr(SessionState.set_widgets_from_proto, 'attnviz_edge'),\n"
        "      PagesManager.uses_pages_directory)\n"
        "attnviz.ui.install()\n"
        "print(gc.get_freeze_count() > 0, hasattr(SessionState.set_widgets_from_proto, 'attnviz_edge'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(APP).parent, check=True)
    assert done.stdout.split("\n")[:2] == ["0 False None", "True True"]
