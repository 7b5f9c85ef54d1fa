"""The join address a class reads off the teacher's screen (attnviz.classroom.join), from page addresses the tests in
test_join.py leave out: a fragment with no query, and a query or fragment holding a second ? or #."""

from __future__ import annotations

import pytest

from attnviz.classroom.join import app_root, join_address


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
