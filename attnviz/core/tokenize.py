"""A small, predictable word-level tokenizer: words and punctuation become separate tokens."""

from __future__ import annotations

import re
import unicodedata

# Scripts written without spaces: one character a token.
_NO_SPACE_SCRIPTS = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# Modifiers that belong to the symbol before them (variation selectors, skin tones, keycaps).
_MODIFIERS = r"\ufe0e\ufe0f\u20e3\U0001F3FB-\U0001F3FF"
_SYMBOL = rf"[^\w\s][{_MODIFIERS}]*"
_TOKEN = re.compile(
    rf"[\U0001F1E6-\U0001F1FF]{{2}}"  # a flag is a pair of regional-indicator letters
    rf"|[{_NO_SPACE_SCRIPTS}]"
    rf"|(?:(?![{_NO_SPACE_SCRIPTS}])\w)+(?:['’](?:(?![{_NO_SPACE_SCRIPTS}])\w)+)*"  # words, with contractions
    rf"|{_SYMBOL}(?:\u200d{_SYMBOL})*"  # punctuation or an emoji, with its zero-width-joined parts
)


def _is_invisible(token: str) -> bool:
    return all(unicodedata.category(char) in ("Cc", "Cf") for char in token)


def tokenize(text: str) -> list[str]:
    """Split ``text`` into words and punctuation. Empty or whitespace-only text gives []."""
    text = unicodedata.normalize("NFC", text or "")
    return [token for token in _TOKEN.findall(text) if not _is_invisible(token)]
