"""The join address a class reads off the teacher's screen (attnviz.classroom.join), from page addresses the tests in
test_join.py leave out: a fragment with no query, and a query or fragment holding a second ? or #."""

from __future__ import annotations

import html
import re
from urllib.parse import unquote

import pytest
import segno

from attnviz.classroom.join import app_root, join_address, qr_image


@pytest.mark.parametrize(
    ("page_url", "root"),
    [
        ("https://uni.example/attnviz/geometry#top", "https://uni.example/attnviz"),
        ("https://uni.example/attnviz/playground?s=1.x?y#a", "https://uni.example/attnviz"),
        ("https://uni.example/attnviz/playground#a#b", "https://uni.example/attnviz"),
        ("https://uni.example/attnviz/#a?b", "https://uni.example/attnviz"),
    ],
)
def test_the_root_drops_the_page_and_everything_after_the_first_query_or_fragment(page_url, root):
    assert app_root(page_url) == root
    assert join_address(app_root(page_url), "K7P2QX") == f"{root}/?join=K7P2QX"


def test_a_short_address_is_drawn_with_medium_error_correction_not_the_least():
    """A 31-character address fits a version-2 code with the lowest correction (L, 7 %), where a glare on the
    projection loses it; at M or better it needs version 3: 29 modules a side, and 4 of quiet zone on each side."""
    address = "http://192.168.1.2/?join=K7P2QX"
    src = html.unescape(re.search(r' src="([^"]*)"', qr_image(address, 200))[1])
    svg = unquote(src.removeprefix("data:image/svg+xml;charset=utf-8,"))
    assert "viewBox='0 0 37 37'" in svg
    assert src == segno.make(address, error="m").svg_data_uri(border=4, dark="#000", light="#fff", omitsize=True)
