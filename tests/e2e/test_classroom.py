"""Classroom features in a real Chromium: downloads, presenter mode and the dark theme."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

from tests.support.live import open_app_page, read_plots, wait_for_app, wait_for_charts

WEIGHTS = "3. Attention weights"


def weights_shown(page) -> list[list[float]]:
    return next(p for p in read_plots(page) if WEIGHTS in p["title"])["traces"][0]["z"]


def download(page, label: str) -> bytes:
    with page.expect_download() as event:
        page.get_by_role("button", name=label).click()
    return Path(event.value.path()).read_bytes()


def test_downloads_carry_exactly_the_matrices_on_screen(page, server):
    open_app_page(page, server.url)
    shown = weights_shown(page)
    exported = json.loads(download(page, "Download JSON"))
    assert exported["matrices"]["weights"] == shown  # the same floats, not rounded
    with zipfile.ZipFile(io.BytesIO(download(page, "Download CSV tables (.zip)"))) as archive:
        names = set(archive.namelist())
        assert {"Q.csv", "K.csv", "V.csv", "weights.csv", "output.csv"} <= names
        first_row = archive.read("weights.csv").decode("utf-8-sig").splitlines()[1].split(",")
    assert first_row[0] == "0: The" and [float(x) for x in first_row[1:]] == shown[0]


def test_presenter_mode_hides_the_tables_and_enlarges_the_charts(page, server):
    open_app_page(page, server.url)
    assert page.locator('[data-testid="stDataFrame"]').count() == 5  # Q, K, V, then the two focus tables
    before = page.evaluate("() => getComputedStyle(document.documentElement).fontSize")
    page.get_by_text("Presenter mode").click()
    page.wait_for_function("() => document.querySelectorAll('[data-testid=\"stDataFrame\"]').length === 2")
    wait_for_app(page)
    wait_for_charts(page)
    assert before == "16px"
    assert page.evaluate("() => getComputedStyle(document.documentElement).fontSize") == "20px"
    title_size = page.evaluate(
        "() => [...document.querySelectorAll('.js-plotly-plot')].map(p => p._fullLayout.font.size)"
    )
    assert set(title_size) == {18}
    page.set_viewport_size({"width": 1280, "height": 720})
    page.screenshot(path=str(Path(__file__).resolve().parents[2] / "artifacts" / "screenshots" / "presenter.png"))


def test_the_dark_theme_darkens_the_page_and_the_charts(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme="dark")
    try:
        page = context.new_page()
        open_app_page(page, server.url)
        background = page.evaluate(
            "() => getComputedStyle(document.querySelector('[data-testid=\"stApp\"]')).backgroundColor"
        )
        assert background == "rgb(15, 17, 23)"  # theme.dark backgroundColor #0f1117
        font_colour = page.evaluate("() => document.querySelector('.js-plotly-plot')._fullLayout.font.color")
        assert font_colour != "#444"  # plotly's light default: the charts follow the theme
    finally:
        context.close()
