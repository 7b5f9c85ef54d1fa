"""User text made plain, for any host (a Streamlit page, a notebook widget): shown as text, never reordered."""

from __future__ import annotations

import re

# Line breaks, tabs and the invisible characters that reorder text (bidirectional overrides and isolates).
_LAYOUT_CHARACTERS = re.compile(r"[\r\n\t\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")


def plain(text: str) -> str:
    """``text`` for a place that shows plain text (a canvas, a DOM text node): newlines and tabs become spaces, and
    direction-override characters are dropped so they can't flip the text after them."""
    return _LAYOUT_CHARACTERS.sub(lambda m: "" if m.group() not in "\r\n\t\u2028\u2029" else " ", text)
