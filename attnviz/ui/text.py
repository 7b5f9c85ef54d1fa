"""User text inside Streamlit markdown: shown exactly as typed, never as formatting."""

from __future__ import annotations

import re

# Everything Streamlit's markdown gives a meaning to: emphasis, code, links, headings, lists, tables, LaTeX ($),
# colour and icon directives (:red[…]), HTML.
_MARKDOWN_SPECIALS = re.compile(r"([\\`*_{}\[\]()#+\-.!|~<>$:&])")


def literal(text: str) -> str:
    """``text`` escaped for st.markdown, st.warning and friends, so "**bold** $x$ [a](b)" shows just like that."""
    return _MARKDOWN_SPECIALS.sub(r"\\\1", text)
