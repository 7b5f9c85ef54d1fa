"""A student on the Playground: the moves a class makes, and what the numbers must be after each.

Each student keeps the state it expects the server to hold (sentence, causal mask, cell edits) and, after every
move, compares the attention weights the server drew with ``attnviz.attention`` computed here for that state. A
session that lost its state, or got another student's, shows up as a wrong answer.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from dataclasses import dataclass, field, replace
from functools import cache

import numpy as np

from attnviz import attention
from attnviz.core.playground_state import PlaygroundState, set_sentence
from attnviz.lessons.playground import OPENING
from attnviz.ui.model_runs import POLL_S as MODEL_POLL_S  # how often the page asks whether the model run is ready
from bench.st_client import Session
from bench.st_elements import ProtocolError, RunResult, heatmap, user_key

# A student opens the Playground on its first screen (attnviz.lessons.playground.OPENING); the expected numbers are
# derived from that state with the product's own moves, never restated here.
DEFAULT_SENTENCE = OPENING.sentence
SENTENCES = (
    "The cat sat on the mat.",
    "A teacher shares one link and the whole class opens it in the same minute.",
    "Attention lets every token look at every other token.",
    DEFAULT_SENTENCE,
)
# How a student finds things on the page: by label, or by a word of the key and the kind of element.
SENTENCE = {"label": "Sentence"}
# The controls and four views (playground.views): heatmap() reads the weights; a control's change is a trigger of it.
VIEWS = {"kind": "bidi_component", "key_part": "views"}
# The Q, K and V tables (playground.tables), the same component: a typed cell is its trigger {"edit": ...}.
TABLES = {"kind": "bidi_component", "key_part": "tables"}
# The Real model page as a class first meets it: its default model and sentence; a student picks a layer and a head.
MODEL_PAGE, PLAYGROUND_PAGE = "real_model", "playground"
HEAD_CHART = {"kind": "bidi_component", "key_part": "head"}  # the head up close: its view "head"


@dataclass
class Expected:
    """What the server should hold for this student."""

    sentence: str = DEFAULT_SENTENCE
    causal: bool = OPENING.causal
    edits: dict[tuple[str, int, int], float] = field(default_factory=dict)  # (matrix, row, column) -> value

    def state(self) -> PlaygroundState:
        """The first screen with this student's sentence, mask and edits, made by the product's own moves."""
        typed, _ = set_sentence(OPENING, self.sentence)
        return replace(typed, causal=self.causal, edits=tuple(sorted(self.edits.items())))

    @property
    def labels(self) -> list[str]:
        return self.state().labels

    def weights(self) -> np.ndarray:
        state = self.state()
        Q, K, V = state.matrices()  # (n, d_k), (n, d_k), (n, d_v)
        return attention(
            Q, K, V, causal=state.causal, scale=state.scale, temperature=state.temperature, mask=state.allow_mask()
        ).weights  # (n, n)


class Wrong(AssertionError):
    """The server answered, but with numbers other than the ones this student expects."""


class Student:
    """One session and the state it expects. Each move returns the run's result, or raises ProtocolError / Wrong."""

    def __init__(self, session: Session, seed: int):
        self.session = session
        self.expected = Expected()
        self.rng = random.Random(seed)
        self.edit_ids = (f"{seed}-{k}" for k in itertools.count(1))  # each edit's id, as the browser numbers them
        self.next_moves: list[tuple[str, object]] = []  # moves that must come next (a visit to the Real model page)
        self.on_model_page = False

    def check(self, result: RunResult, move: str) -> None:
        if result.exceptions:
            raise ProtocolError(f"{move}: the app raised {result.exceptions[0]}")
        found = result.find(**VIEWS)
        if found is None:
            drawn = sorted({user_key(e.id) for e in result.elements})
            raise Wrong(f"{move}: the run drew no weights chart ({result.status}, {result.messages} messages: {drawn})")
        chart = heatmap(found)
        if chart.rows != self.expected.labels:
            raise Wrong(f"{move}: the weights chart's rows are {chart.rows[:3]}…, not the sentence's tokens")
        want = self.expected.weights()
        if chart.values.shape != want.shape or not np.allclose(chart.values, want, rtol=0, atol=chart.tolerance):
            raise Wrong(f"{move}: weights differ from attnviz.attention by up to {_gap(chart.values, want)}")

    async def load(self) -> RunResult:
        """Opens the Playground, as a student following the teacher's link."""
        result = await self.session.open()
        self.check(result, "load")
        return result

    async def toggle_causal(self) -> RunResult:
        views = self.session.find(**VIEWS)
        self.expected.causal = not self.expected.causal
        self.session.trigger(views, "event", {"control": "causal", "value": self.expected.causal})
        result = await self.session.rerun(fragment_id=views.fragment_id)  # the attention section is a fragment
        self.check(result, "toggle causal")
        return result

    async def edit_cell(self) -> RunResult:
        """Types a number into a cell of Q or K (V is left alone: a lost V edit would not show in the weights this
        student checks), as the browser sends it: the tables' trigger, the cell by its row and column names."""
        matrix = self.rng.choice("QK")
        row = self.rng.randrange(len(self.expected.labels))
        column = self.rng.randrange(OPENING.d_k)
        value = round(self.rng.uniform(-3, 3), 2)
        cell = {"view": matrix, "row": self.expected.labels[row], "col": f"{matrix.lower()}{column + 1}"}
        edit = cell | {"cells": [[str(value)]], "id": next(self.edit_ids)}
        self.session.trigger(self.session.find(**TABLES), "event", {"edit": edit})
        self.expected.edits[(matrix, row, column)] = value
        result = await self.session.rerun()
        self.check(result, "edit a cell")
        return result

    async def change_sentence(self) -> RunResult:
        """Types another sentence: edits on rows that remain are kept."""
        sentence = self.rng.choice([s for s in SENTENCES if s != self.expected.sentence])
        self.session.set_value(self.session.find(**SENTENCE), string_value=sentence)
        self.expected.sentence = sentence
        n = len(self.expected.labels)
        self.expected.edits = {cell: v for cell, v in self.expected.edits.items() if cell[1] < n}
        result = await self.session.rerun()
        self.check(result, "change the sentence")
        return result

    async def open_real_model(self) -> RunResult:
        """Opens the Real model page; timed until its head map is drawn, waiting for the model run included (the page
        polls while it waits, as the browser does). The student's next two moves are ``pick_head`` and
        ``back_to_playground``."""
        started = time.perf_counter()
        opened = await self.session.rerun(page=MODEL_PAGE)
        while opened.find(**HEAD_CHART) is None and not opened.exceptions:
            if time.perf_counter() - started > self.session.timeout:
                raise ProtocolError(f"open the real model: no head drawn within {self.session.timeout:.0f} s")
            await asyncio.sleep(MODEL_POLL_S)
            opened = await self.session.rerun()
        opened.elapsed_ms = (time.perf_counter() - started) * 1000
        if opened.exceptions:
            raise ProtocolError(f"open the real model: the app raised {opened.exceptions[0]}")
        self.next_moves = [("pick a head", Student.pick_head), ("back to the Playground", Student.back_to_playground)]
        self.on_model_page = True
        return opened

    async def pick_head(self) -> RunResult:
        """Picks a layer and a head and checks that head's weights against the model run in this process."""
        model, sentence = (shown_value(self.session.find(label=label).element) for label in ("Model", "Sentence"))
        attention = model_attention(model, sentence)  # (layers, heads, n, n)
        layer, head = self.rng.randrange(attention.shape[0]), self.rng.randrange(attention.shape[1])
        self.session.set_value(self.session.find(label="Layer"), string_value=str(layer + 1))
        self.session.set_value(self.session.find(label="Head"), string_value=str(head + 1))
        picked = await self.session.rerun()
        found = picked.find(**HEAD_CHART)
        if found is None:
            raise Wrong(f"pick a head: the run drew no head map ({picked.status}, {picked.messages} messages)")
        drawn, want = heatmap(found, "head"), attention[layer, head]
        if drawn.values.shape != want.shape or not np.allclose(drawn.values, want, rtol=0, atol=drawn.tolerance):
            raise Wrong(
                f"pick a head: layer {layer + 1} head {head + 1} differs from the model by {_gap(drawn.values, want)}"
            )
        return picked

    async def back_to_playground(self) -> RunResult:
        """Back on the Playground, its numbers must be as this student left them."""
        back = await self.session.rerun(page=PLAYGROUND_PAGE)
        self.on_model_page = False
        self.check(back, "back to the Playground")
        return back

    async def reconnect(self) -> RunResult:
        """A network blip: a new websocket asks for the same session. Its state must still be there."""
        before = self.session.session_id
        result = await self.session.reconnect()
        if self.session.session_id != before:
            raise Wrong(f"reconnect: the server started a new session ({self.session.session_id}) instead of {before}")
        if not self.on_model_page:
            self.check(result, "reconnect")
        elif result.find(**HEAD_CHART) is None:
            raise Wrong("reconnect: the Real model page came back without its head map")
        return result


def shown_value(element) -> str:
    """What a text input or a selectbox shows: the value the app gave it, else its default."""
    if hasattr(element, "options"):  # a selectbox
        return element.raw_value if element.HasField("raw_value") else element.options[element.default]
    return element.value if element.HasField("value") else element.default


@cache
def model_attention(model: str, sentence: str) -> np.ndarray:
    """Every head's weights for ``sentence``, computed in this process: what the server must draw."""
    from attnviz.models import load_model

    return load_model(model).run(sentence).attention


# The moves a session makes on the Playground, with how often each is picked. Opening the Real model page is followed
# by two more moves there, one a turn like any other: picking a head, then going back to the Playground.
MOVES = {
    "toggle causal": (Student.toggle_causal, 3),
    "edit a cell": (Student.edit_cell, 3),
    "change the sentence": (Student.change_sentence, 1),
    "open the real model": (Student.open_real_model, 1),
}
RECONNECT = ("reconnect", Student.reconnect)  # used by scenarios that check a session keeps its state


def pick_move(student: Student, *, reconnect_every: int = 0, made: int = 0):
    """(name, coroutine function) of the next move."""
    if reconnect_every and made and made % reconnect_every == 0:
        return RECONNECT
    if student.next_moves:
        return student.next_moves.pop(0)
    names = list(MOVES)
    name = student.rng.choices(names, weights=[MOVES[n][1] for n in names])[0]
    return name, MOVES[name][0]


def _gap(got: np.ndarray, want: np.ndarray) -> str:
    if got.shape != want.shape:
        return f"shape {got.shape} vs {want.shape}"
    return f"{float(np.nanmax(np.abs(got - want))):.3g}"
