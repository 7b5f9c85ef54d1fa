"""User text on a page: plain() for places that show text (the views' canvases and tables), literal() for markdown."""

from attnviz.ui.text import literal, plain


def test_plain_keeps_the_text_but_not_line_breaks_or_direction_overrides():
    assert plain("a\nb\tc") == "a b c"
    assert plain("abc \u202edef \u2066ghi\u2069 \u200fjkl") == "abc def ghi jkl"
    assert plain("<b>**x**</b> $y$") == "<b>**x**</b> $y$"  # shown as text by whoever draws it: nothing to escape


def test_literal_is_plain_text_with_every_markdown_character_escaped():
    assert literal("**b**\n$x$ \u202e<i>") == r"\*\*b\*\* \$x\$ \<i\>"
