"""Share links (attnviz.classroom.share) by what their reader gets: a sentence in any script travels as its own
characters, so a link stays as short as its words allow (JSON's \\u escapes would spend six characters on each); a
link at each limit is read or refused as the limit says; each refusal names the setting, cut as the page shows it."""

from __future__ import annotations

import base64
import json
import zlib

import pytest

from attnviz.classroom.share import DAMAGED, VERSION, decode, encode, unpack
from attnviz.core.errors import AttnvizInputError
from attnviz.core.limits import MAX_JSON_BYTES, MAX_LINK_CHARS
from attnviz.core.playground_state import IMPORTED, PlaygroundState

SENTENCE = "Le café était très bon, mais le thé était froid: 猫は静かに眠った。"


def test_a_sentence_in_any_script_travels_as_its_own_characters():
    link = encode(PlaygroundState(sentence=SENTENCE))
    text = unpack(link.split(".", 1)[1])
    assert SENTENCE in text and "\\u" not in text
    assert decode(link).state.sentence == SENTENCE


def refusal(link: str) -> str:
    """What the page says of ``link``: decode's one line."""
    with pytest.raises(AttnvizInputError) as refused:
        decode(link)
    return str(refused.value)


def link_of(text: bytes) -> str:
    """A link whose payload unpacks to ``text``, as the app packs one."""
    return f"{VERSION}." + base64.urlsafe_b64encode(zlib.compress(text, 9)).rstrip(b"=").decode("ascii")


def test_a_link_at_the_length_limit_is_read_and_one_past_it_is_refused_for_its_length():
    assert refusal(f"{VERSION}." + "A" * (MAX_LINK_CHARS - 2)) == DAMAGED  # read, and found damaged
    assert refusal(f"{VERSION}." + "A" * (MAX_LINK_CHARS - 1)) == (
        f"This share link is too long ({MAX_LINK_CHARS + 1:,} characters; the limit is {MAX_LINK_CHARS:,}), so it "
        "was not opened."
    )


def test_a_link_that_unpacks_past_the_limit_is_refused_even_by_one_byte():
    too_large = (
        f"This share link unpacks to more than {MAX_JSON_BYTES:,} bytes, far more than any real setup, so it was not "
        "opened."
    )
    assert refusal(link_of(b" " * 10 * MAX_JSON_BYTES)) == too_large  # a zip bomb
    text = json.dumps({"s": "The cat sat on the warm mat."}).encode()
    one_over = text[:-1] + b" " * (MAX_JSON_BYTES + 1 - len(text)) + b"}"  # valid JSON, one byte too long
    assert len(one_over) == MAX_JSON_BYTES + 1 and refusal(link_of(one_over)) == too_large
    fits = text[:-1] + b" " * (MAX_JSON_BYTES - len(text)) + b"}"
    assert decode(link_of(fits)).state.sentence == "The cat sat on the warm mat."


def test_a_payload_that_is_not_utf_8_is_called_damaged():
    assert refusal(link_of(b'{"s": "caf\xe9"}')) == DAMAGED


@pytest.mark.parametrize(
    ("wire", "why"),
    [
        ({"abcdefghijklmnopqrstuvwxyz": 1}, "it has a setting this version doesn't know ('abcdefghijklmnopqrst')."),
        (
            {"p": "abcdefghijklmnopqrstuvwxyz" * 2},
            "there is no page called 'abcdefghijklmnopqrstuvwxyzabcdefghijklmn'.",
        ),
        ({"e": {"ABCDEFGHIJKLMNOP": []}}, "there is no matrix called 'ABCDEFGHIJ'; only Q, K and V are edited."),
        ({"x": IMPORTED}, "the imported head and the example don't match."),
        ({"P": "yes"}, "presenter mode is not on or off."),
    ],
)
def test_a_setting_the_app_cannot_use_is_named_in_the_refusal(wire, why):
    assert refusal(link_of(json.dumps(wire).encode())) == f"This share link has a setting attnviz can't use: {why}"


def test_a_setup_whose_link_is_exactly_the_limit_is_shared_and_one_past_it_is_not():
    """A link of exactly MAX_LINK_CHARS characters is handed out; one character more is refused with its length. The
    states are found by lengthening a sentence of seeded CJK words (a link's length moves in steps its compression
    decides, so the search looks for the exact one)."""
    import random

    from attnviz.core.playground_state import set_sentence

    def sentence(words: int, letters: int) -> str:
        rng = random.Random(0)
        cjk = " ".join("".join(chr(rng.randrange(0x4E00, 0x4E00 + 3000)) for _ in range(9)) for _ in range(words))
        return f"{cjk} {''.join(rng.choice('abcdefghijklmnopqrstuvwxyz') for _ in range(letters))}"

    def length(state) -> int:
        try:
            return len(encode(state))
        except AttnvizInputError as error:
            return int(str(error).split("(", 1)[1].split(" ", 1)[0].replace(",", ""))

    states = (set_sentence(PlaygroundState(), sentence(w, k))[0] for w in range(230, 260) for k in range(1, 12))
    lengths = {length(state): state for state in states}
    at_limit, past = lengths[MAX_LINK_CHARS], lengths[MAX_LINK_CHARS + 1]
    assert len(encode(at_limit)) == MAX_LINK_CHARS and decode(encode(at_limit)).state == at_limit
    with pytest.raises(AttnvizInputError, match=r"^This setup is too large to share as a link \(6,001 characters; "):
        encode(past)
