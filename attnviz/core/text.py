"""User text as text, for any host and the places that draw it without Streamlit's markdown: ``plain`` for a canvas
or a DOM text node (a Streamlit page, a notebook widget), ``chart_text`` for plotly, which reads an HTML subset in
every string it draws (attnviz.ui.text: for markdown)."""

from __future__ import annotations

import re

# Line breaks, tabs and the invisible characters that reorder text (bidirectional overrides and isolates).
_LAYOUT_CHARACTERS = re.compile(r"[\r\n\t\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
# Plotly turns <a href>, <span style>, <br>, <b>… into links and styles, decodes entities, and takes $…$ for LaTeX:
# as entities, each of these is drawn as the character itself.
_CHART_MARKUP = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "$": "&#36;"}


def plain(text: str) -> str:
    """``text`` for a place that shows plain text (a canvas, a DOM text node): newlines and tabs become spaces, and
    direction-override characters are dropped so they can't flip the text after them."""
    return _LAYOUT_CHARACTERS.sub(lambda m: "" if m.group() not in "\r\n\t\u2028\u2029" else " ", text)


def chart_text(text: str) -> str:
    """``plain(text)`` for a plotly title, label or tick: shown exactly as typed, never as a link, a style or a
    formula."""
    return re.sub(r"[&<>$]", lambda m: _CHART_MARKUP[m.group()], plain(text))
