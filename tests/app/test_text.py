"""User text on a page: plain() for places that show text (the views' canvases and tables), literal() for markdown."""

import re
import unicodedata

import pytest

from attnviz.ui.text import literal, plain


def test_plain_keeps_the_text_but_not_line_breaks_or_direction_overrides():
    assert plain("a\nb\tc") == "a b c"
    assert plain("abc \u202edef \u2066ghi\u2069 \u200fjkl") == "abc def ghi jkl"
    assert plain("<b>**x**</b> $y$") == "<b>**x**</b> $y$"  # shown as text by whoever draws it: nothing to escape


def test_literal_is_plain_text_with_every_markdown_character_escaped():
    assert literal("**b**\n$x$ \u202e<i>") == r"\*\*b\*\* \$x\$ \<i\>"


def gfm_autolinks(markdown: str) -> list[str]:
    """What GFM (remark-gfm, Streamlit's markdown) would make links of in ``markdown``: its autolink-literal patterns
    (mdast-util-gfm-autolink-literal's, with JavaScript's ASCII \\w), run on the text once its escapes are read."""
    text = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown)
    urls = re.findall(r"(?:https?://|www(?=\.))[-.\w]+", text, flags=re.ASCII | re.IGNORECASE)
    return urls + re.findall(r"[-.\w+]+@[-\w]+(?:\.[-\w]+)+", text, flags=re.ASCII)


def spoken(markdown: str) -> str:
    """The text a screen reader reads from ``markdown`` made by literal(): escapes read, format characters silent."""
    text = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown)
    return "".join(c for c in text if unicodedata.category(c) != "Cf")


@pytest.mark.parametrize(
    "text",
    [
        "www.evil.example",
        "see WWW.Evil.Example/x?y=1 now",
        "https://evil.example/q and http://evil.example",
        "mail teacher@evil.example",
        "mailto:teacher@evil.example, xmpp:me@evil.example",
        "wwww.evil.example",
    ],
)
def test_literal_leaves_nothing_gfm_makes_a_link_and_reads_the_same(text):
    assert gfm_autolinks(text)  # the pattern finds the link in the text as typed
    shown = literal(text)
    assert gfm_autolinks(shown) == []
    assert spoken(shown) == text
