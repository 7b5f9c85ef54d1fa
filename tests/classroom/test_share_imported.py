"""Share links of a head imported from a real model: exact round trips where it fits, a plain refusal where it does
not, every wire field checked, and links made before imports existed still opening as they did."""

import base64
import json
import re
import zlib
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attnviz import AttnvizInputError
from attnviz.classroom.share import MAX_LINK_CHARS, decode, encode
from attnviz.core.limits import MAX_TOKENS
from attnviz.core.playground_state import (
    PlaygroundState,
    apply_edits,
    import_head,
    load_example,
    set_sentence,
)

BAD_SETTING = "This share link has a setting attnviz can't use"
TITLE = "all-MiniLM-L6-v2, layer 1, head 3"


def pack(wire) -> str:
    return "1." + base64.urlsafe_b64encode(zlib.compress(json.dumps(wire).encode())).rstrip(b"=").decode()


def unpack(link: str):
    payload = link.split(".", 1)[1]
    return json.loads(zlib.decompress(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))))


def head_state(n=4, d=32, *, seed=0, causal=False) -> PlaygroundState:
    rng = np.random.default_rng(seed)
    Q, K, V = ((rng.standard_normal((n, d)) * 4).astype(np.float32) for _ in range(3))
    tokens = ["[CLS]", *(f"w{i}" for i in range(n - 2)), "[SEP]"]
    return import_head(PlaygroundState(), tokens, Q, K, V, causal=causal, title=TITLE, sentence="a short one")


# ----------------------------------------------------------------------------- links made before imports existed


@pytest.mark.parametrize(
    ("link", "state", "page"),
    [
        ("1.eNqrrgUAAXUA-Q", PlaygroundState(), "playground"),
        (
            "1.eNoVzDEKg0AQQNGrLL8eRA2mmC5HSC2LRJ2ARFbJjoWId4-pPrziH2SUh7sln5YUphxe8xz2ZQvJbET4oDdhQP27meBoWdwboUfbKgpvtBYMPXhe1JZSSV00MZ7Cer2z29r1e_cv5w9FPCCo",
            apply_edits(
                PlaygroundState(
                    sentence="Attention is all you need",
                    causal=True,
                    temperature=0.65,
                    blocked_keys=(1,),
                    focus=2,
                    d_k=3,
                ),
                "Q",
                {(0, 1): "2.5"},
            )[0],
            "step_by_step",
        ),
    ],
)
def test_links_made_before_imports_existed_open_the_same_and_are_made_the_same(link, state, page):
    """Recorded with attnviz at commit 96110a2, before imported heads existed."""
    assert decode(link) == (state, page, (), False)
    assert encode(state, page) == link


# ----------------------------------------------------------------------------- round trips


@pytest.mark.parametrize(("n", "d"), [(4, 32), (8, 32), (3, 64), (4, 64)])
def test_a_short_sentences_head_round_trips_to_the_last_bit(n, d):
    state = head_state(n, d, causal=d == 64)
    link = encode(state, "step_by_step")
    assert len(link) <= MAX_LINK_CHARS
    shared = decode(link)
    assert shared == (state, "step_by_step", (), False)
    for mine, theirs in zip(state.matrices(), shared.state.matrices(), strict=True):
        assert mine.tobytes() == theirs.tobytes()
    assert shared.state.tokens == state.tokens and shared.state.imported.title == TITLE


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-1000, 1000, width=32, allow_nan=False), min_size=3, max_size=3))
def test_every_float32_reads_back_exactly_from_its_short_text(values):
    state = import_head(PlaygroundState(), ["a"], [values[:2]], [values[1:]], [values], causal=False, title="t")
    assert decode(encode(state)).state.imported == state.imported


def test_the_numbers_are_written_short():
    state = head_state(4, 32)
    numbers = unpack(encode(state))["m"]["q"][0]
    assert [float(np.float32(x)) for x in numbers] == state.imported.Q[0].tolist()
    assert max(len(repr(x)) for x in numbers) <= 15  # float32's shortest text, not float64's 17 digits


def test_edits_on_an_imported_head_and_its_tokens_alone_round_trip():
    edited, _ = apply_edits(head_state(), "V", {(1, 2): "0.3"})
    assert decode(encode(edited)).state == edited
    tokens_only = load_example(edited, "random")  # the head is gone, the model's tokens stay
    assert decode(encode(tokens_only)).state == tokens_only and tokens_only.imported is None
    head_only, _ = set_sentence(edited, "Dogs bark loudly")  # the sentence's tokens, the head's vectors
    assert decode(encode(head_only)).state == head_only and head_only.model_tokens is None


# ----------------------------------------------------------------------------- too large


def largest_that_fits(d: int) -> int:
    n = 2
    while True:
        try:
            encode(head_state(n + 1, d))
        except AttnvizInputError:
            return n
        n += 1


@pytest.mark.parametrize(("n", "d"), [(MAX_TOKENS, 64), (16, 32), (9, 32), (6, 64)])
def test_a_head_too_large_for_a_link_says_so_and_about_how_many_tokens_fit(n, d):
    with pytest.raises(AttnvizInputError) as refused:
        encode(head_state(n, d))
    message = str(refused.value)
    assert message.startswith("This imported head is too large to share as a link")
    assert f"all {3 * n * d:,} numbers of its Q, K and V" in message and "export buttons" in message
    stated = int(re.search(r"up to about (\d+) tokens fits", message)[1])
    assert abs(stated - largest_that_fits(d)) <= 1  # "about": estimated from this head's own size


# ----------------------------------------------------------------------------- bad links


def wire(**changes) -> dict:
    good = unpack(encode(head_state(2, 2)))
    return {**good, **changes}


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"x": "random"}, "the imported head and the example don't match"),
        ({"m": None}, "the imported head and the example don't match"),
        ({"m": {"t": TITLE, "q": [[1.0, 2.0]]}}, "not a title with Q, K and V"),
        ({"m": {"t": 5, "q": [[1.0]], "k": [[1.0]], "v": [[1.0]]}}, "title is not text"),
        ({"m": {"t": "x" * 201, "q": [[1.0]], "k": [[1.0]], "v": [[1.0]]}}, "title is longer than 200"),
        ({"m": {"t": TITLE, "q": [[1.0], [2.0, 3.0]], "k": [[1.0]], "v": [[1.0]]}}, "rows are not all"),
        ({"m": {"t": TITLE, "q": [], "k": [[1.0]], "v": [[1.0]]}}, "not a list of 1 to 128 rows"),
        ({"m": {"t": TITLE, "q": [[1.0]] * 129, "k": [[1.0]], "v": [[1.0]]}}, "not a list of 1 to 128 rows"),
        ({"m": {"t": TITLE, "q": [[1.0] * 65], "k": [[1.0]], "v": [[1.0]]}}, "rows are not all 1 to 64"),
        ({"m": {"t": TITLE, "q": [["a"]], "k": [[1.0]], "v": [[1.0]]}}, "is not a number"),
        ({"m": {"t": TITLE, "q": [[1e9]], "k": [[1.0]], "v": [[1.0]]}}, "outside the allowed range"),
        ({"m": {"t": TITLE, "q": [[1.0]], "k": [[1.0], [2.0]], "v": [[1.0]]}}, "don't fit together"),
        ({"o": "[CLS]"}, "not a list of 1 to 128 tokens"),
        ({"o": []}, "not a list of 1 to 128 tokens"),
        ({"o": ["a", 3]}, "an imported token is not text"),
        ({"o": ["a", "b" * 101]}, "longer than 100 characters"),
        ({"o": ["only one"], "f": 1}, "the focus token must be a whole number from 0 to 0"),
    ],
)
def test_a_bad_imported_head_in_a_link_is_refused_in_plain_words(changes, reason):
    with pytest.raises(AttnvizInputError) as refused:
        decode(pack(wire(**changes)))
    assert str(refused.value).startswith(BAD_SETTING) and reason in str(refused.value)


def test_the_imported_tokens_set_the_length_the_other_fields_are_checked_against():
    state = replace(head_state(4, 2), blocked_keys=(3,), focus=3)
    assert decode(encode(state)).state.blocked_keys == (3,)  # the sentence has 3 words, the model 4 tokens


def test_a_heads_sentence_of_punctuation_opens_its_model_tokens_being_what_is_attended_over():
    rows = [[1.0, 0.0], [0.0, 1.0]]
    state = import_head(PlaygroundState(), ["?", "!"], rows, rows, rows, causal=True, title=TITLE, sentence="?!")
    assert decode(encode(state)).state == state  # typing "?!" is refused: its own tokens would be attended over


def test_a_head_with_more_numbers_than_a_link_has_characters_is_refused_from_its_count():
    """Before any packing: 7 characters a number (imported_link.CHARS_PER_NUMBER) is the estimate the sentence says."""
    from attnviz.classroom.imported_link import check_size

    state = head_state(n=64, d=32)  # 3 × 64 × 32 = 6,144 numbers: more than a link's 6,000 characters
    with pytest.raises(AttnvizInputError) as refused:
        check_size(state)
    assert "all 6,144 numbers of its Q, K and V, about 43,008 characters, and a link holds 6,000." in str(refused.value)
    check_size(head_state(n=4, d=32))  # 384 numbers: left to the packing to judge
