"""Share links (attnviz.classroom.share) by what their reader gets: a sentence in any script travels as its own
characters, so a link stays as short as its words allow (JSON's \\u escapes would spend six characters on each)."""

from __future__ import annotations

from attnviz.classroom.share import decode, encode, unpack
from attnviz.core.playground_state import PlaygroundState

SENTENCE = "Le café était très bon, mais le thé était froid: 猫は静かに眠った。"


def test_a_sentence_in_any_script_travels_as_its_own_characters():
    link = encode(PlaygroundState(sentence=SENTENCE))
    text = unpack(link.split(".", 1)[1])
    assert SENTENCE in text and "\\u" not in text
    assert decode(link).state.sentence == SENTENCE
