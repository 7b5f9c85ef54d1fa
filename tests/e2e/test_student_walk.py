"""A student's walk through every page in a real browser, in 20 random states (a random sentence or none, an example
or random vectors, the causal mask, blocked keys, the focus, d_k and τ), each opened by its share link. Every
sentence on screen is recorded (artifacts/student-walk.txt), and each one that states a weight, a score or an output
about a named token (a number of two or more decimals, in a sentence that quotes a token) is checked against the
numbers the page's views give their reader tables: the number must be one of them, as the sentence rounds it.

A number a sentence quotes from before the last move ("0.08 → 0.67": the first) or a divisor (÷ √d_k) is not a cell:
the sentence's own words say so, and such numbers are left out (BEFORE below)."""

from __future__ import annotations

import random
import re
from decimal import ROUND_HALF_EVEN, Decimal

import pytest

from attnviz.classroom.share import PARAM, encode
from attnviz.core.playground_state import PlaygroundState, example_options, load_example, set_dim, set_sentence
from attnviz.pages import PAGES
from attnviz.playground.controls import set_field
from tests.e2e.conftest import SCREENSHOTS
from tests.support.live import open_app_page, wait_for_app

WALKS = 20
WORDS = [
    "the",
    "a",
    "cat",
    "dog",
    "sat",
    "on",
    "mat",
    "street",
    "because",
    "it",
    "was",
    "tired",
    "not",
    "good",
    "movie",
    "but",
    "amazing",
    "river",
    "bank",
    "money",
]
NUMBER = re.compile(r"(?<![\d.])−?-?\d+\.\d{2,}(?![\d.])")
QUOTED = re.compile(r"“[^”]+”")
# A number quoted as it was before the move, or one the weights are divided by: not a cell shown now.
BEFORE = re.compile(r"(−?-?\d+\.\d+)\s*→|÷\s*√?\S*\s*=?\s*÷?\s*(\d+\.\d+)|divided by (\d+\.\d+)|√\S+ = (\d+\.\d+)")
# Every view's reader table filled (a large one is filled when the keyboard enters it: the walk's views are small).
TABLES_FILLED_JS = """() => [...document.querySelectorAll('.attnviz-view table')]
  .every((t) => t.hidden || t.dataset.filled === 'true')"""
TABLE_NUMBERS_JS = """() => [...document.querySelectorAll('.attnviz-view table td')].map((td) => td.textContent)"""
SAID = ':is(p, li, .attnviz-caption, .attnviz-note, .attnviz-warning, [data-testid="stCaptionContainer"])'
SAID_JS = f"""() => [...document.querySelectorAll('[data-testid="stMain"]').values()].flatMap((main) =>
  [...main.querySelectorAll(`{SAID}`)]).filter((e) => e.offsetParent !== null)
  .map((e) => e.innerText.trim()).filter(Boolean)"""


def random_state(rng: random.Random) -> PlaygroundState:
    """A state a student could reach: an example or random vectors, maybe their own sentence, then the controls."""
    state = load_example(PlaygroundState(), rng.choice(example_options(PlaygroundState())))
    if rng.random() < 0.5:
        state, _ = set_sentence(state, " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 12))))
    state = set_dim(state, rng.randint(1, 8), which="d_k")
    blocked = sorted(rng.sample(range(state.n), rng.randint(0, min(3, state.n - 1))))
    for field, value in (
        ("causal", rng.random() < 0.5),
        ("temperature", rng.choice([0.5, 1.0, 2.0])),
        ("blocked_keys", blocked),
        ("focus", rng.randrange(state.n)),
    ):
        state, _ = set_field(state, field, value)
    return state


STATES = [random_state(random.Random(seed)) for seed in range(WALKS)]


def sentences(texts: list[str]) -> list[str]:
    """Each text split into its sentences (a full stop, question or exclamation mark and a space end one)."""
    return [s.strip() for text in texts for s in re.split(r"(?<=[.?!])\s+(?=[A-Z“])", text) if s.strip()]


def shown_as(number: str, cells: set[str]) -> bool:
    """Whether a cell's number, rounded to the sentence's decimals, reads as ``number``."""
    value = Decimal(number.replace("−", "-"))
    places = Decimal(1).scaleb(value.as_tuple().exponent)
    for cell in cells:
        try:
            if Decimal(cell.replace("−", "-")).quantize(places, rounding=ROUND_HALF_EVEN) == value:
                return True
        except ArithmeticError:
            continue
    return False


def unchecked(sentence: str) -> set[str]:
    return {n for groups in BEFORE.findall(sentence) for n in groups if n}


@pytest.fixture(scope="module")
def record():
    """The walk's record of every sentence, started afresh by each run of this file."""
    path = SCREENSHOTS.parent / "student-walk.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("", encoding="utf-8")
    return path


@pytest.mark.parametrize("walk", range(WALKS))
def test_every_number_a_sentence_states_is_on_the_page(page, server, record, walk):
    state, name = STATES[walk], PAGES[walk % len(PAGES)].name
    open_app_page(page, f"{server.url}/{'' if name == 'playground' else name}?{PARAM}={encode(state, name)}")
    wait_for_app(page)
    page.wait_for_function(TABLES_FILLED_JS)
    said = sentences(page.evaluate(SAID_JS))
    cells = {re.sub(r"[^\d.−-]", "", text) for text in page.evaluate(TABLE_NUMBERS_JS)} - {""}
    with record.open("a", encoding="utf-8") as kept:
        kept.write(f"\n# walk {walk}: {name}, {encode(state, name)}\n" + "\n".join(said) + "\n")
    assert not [s for s in said if "Traceback" in s or "could not be read" in s]
    if not cells:  # a page without views: its sentences are recorded, and read by the property tests
        return
    wrong = [
        (number, sentence)
        for sentence in said
        if QUOTED.search(sentence)
        for number in set(NUMBER.findall(sentence)) - unchecked(sentence)
        if not shown_as(number, cells)
    ]
    assert not wrong, wrong
