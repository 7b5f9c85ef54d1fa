"""What a downloaded file shows the person who opens it (attnviz.classroom.export): the JSON's note and the words
as typed, and a file name with no stray hyphen where the first words were cut."""

from __future__ import annotations

import json

from attnviz.classroom.export import file_stem, json_bytes
from attnviz.core.playground_state import PlaygroundState, set_sentence


def sentence(text: str) -> PlaygroundState:
    return set_sentence(PlaygroundState(), text)[0]


def test_the_json_says_why_masked_has_nulls_and_keeps_the_words_as_typed():
    state = sentence("Ça va, Zoë?")
    text = json_bytes(state).decode("utf-8")
    assert '"sentence": "Ça va, Zoë?"' in text and '"Ça"' in text  # readable in an editor, not \u escapes
    document = json.loads(text)
    assert document["note"] == "masked is null where blocked is true: that cell is -infinity, which JSON cannot write."


def test_a_file_name_cut_at_forty_letters_does_not_end_in_a_hyphen():
    assert file_stem(sentence("a" * 39 + " bb")) == "attnviz-" + "a" * 39 + "-n2"
    assert file_stem(sentence("a" * 45 + " bb")) == "attnviz-" + "a" * 40 + "-n2"
    assert file_stem(sentence("Über straße")) == "attnviz-uber-strae-n2"
