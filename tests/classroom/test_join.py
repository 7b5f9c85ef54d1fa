"""The short join address and its QR code: the app's own address as the browser reached it, plus ?join=<code>."""

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
        ("http://192.168.1.20:8501/", "http://192.168.1.20:8501"),
        ("http://192.168.1.20:8501", "http://192.168.1.20:8501"),
        ("https://uni.example/attnviz/playground", "https://uni.example/attnviz"),  # behind a proxy, a sub-path
        ("https://uni.example/attnviz/lesson_plans/?s=1.x#top", "https://uni.example/attnviz"),
        ("https://uni.example/tools/attention", "https://uni.example/tools/attention"),  # not a page: kept
        (None, None),
        ("", None),
    ],
)
def test_the_app_s_root_is_the_page_s_address_without_the_page(page_url, root):
    assert app_root(page_url) == root


def test_the_join_address_is_the_root_plus_the_code_or_the_part_to_add():
    assert join_address("https://uni.example/attnviz", "K7P2QX") == "https://uni.example/attnviz/?join=K7P2QX"
    assert join_address(None, "K7P2QX") == "?join=K7P2QX"


def test_the_qr_code_is_an_svg_image_of_the_address_named_by_its_alt_text():
    address = 'https://uni.example/a"b<c>/?join=K7P2QX'
    image = qr_image(address, 200)
    alt = re.search(r' alt="([^"]*)"', image)[1]
    assert html.unescape(alt) == f"QR code of the join address {address}"  # quotes and brackets stay text
    src = html.unescape(re.search(r' src="([^"]*)"', image)[1])
    svg = unquote(src.removeprefix("data:image/svg+xml;charset=utf-8,"))
    expected = segno.make(address, error="m").svg_data_uri(border=4, dark="#000", light="#fff", omitsize=True)
    assert src == expected and svg.startswith("<svg") and "<script" not in svg
    assert "max-width" not in image and "min(100%,200px,62vh)" in image
