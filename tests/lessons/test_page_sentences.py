"""Every sentence the app writes comes from a function of the state, in attnviz.lessons, never assembled in a
page. A page that glues words and numbers together for st.markdown, st.caption and the rest fails here; the ones
that still do are listed, each by its page and its first words, and the list only shrinks."""

from __future__ import annotations

import ast
from pathlib import Path

PAGES = Path(__file__).parents[2] / "pages"
SAID_BY = {
    "markdown",
    "caption",
    "warning",
    "info",
    "success",
    "error",
    "header",
    "subheader",
    "title",
    "write",
    "toast",
}

# Sentences still assembled in a page: none now; one that must stay (a page's own) is listed here with its reason.
ASSEMBLED_STILL: set[tuple[str, str]] = set()


def assembled() -> set[tuple[str, str]]:
    """Every text a page builds itself (an f-string, or words joined with +) and hands to a Streamlit text call."""
    found = set()
    for page in sorted(PAGES.glob("*.py")):
        for node in ast.walk(ast.parse(page.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr in SAID_BY and node.args and isinstance(node.args[0], (ast.JoinedStr, ast.BinOp)):
                found.add((page.name, ast.unparse(node.args[0])[:40]))
    return found


def test_no_page_assembles_a_new_sentence():
    assert assembled() - ASSEMBLED_STILL == set(), "a page builds its own words: write them in attnviz.lessons"


def test_the_list_of_pages_still_assembling_words_only_shrinks():
    assert ASSEMBLED_STILL - assembled() == set(), "moved to attnviz.lessons: take it off ASSEMBLED_STILL"
