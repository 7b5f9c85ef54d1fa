"""The load test's own parts: its protocol client against a real server, and the numbers it expects.

``make load`` is only worth its figures if each session really drives the app and really checks what comes back,
so these tests run one student through every move on a live ``streamlit run app.py`` and show that a wrong number or
a lost session is caught.
"""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from streamlit.proto.Element_pb2 import Element

from attnviz import PRESETS
from attnviz.figures.matrix_view import Scale, matrix_view
from attnviz.ui import state
from attnviz.ui.state import control_key
from bench.harness.server import StreamlitServer
from bench.load_moves import DEFAULT_SENTENCE, MOVES, VIEWS, Expected, Student, Wrong, pick_move
from bench.st_client import Session
from bench.st_elements import Widget, heatmap, key_parts, user_key
from tests.reference import naive_attention


def run_apart(coroutine):
    """asyncio.run in a thread of its own: the browser tests' Playwright keeps an event loop running in this one."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_matrices_are_read_from_the_attention_grid_views():
    view = matrix_view(
        np.array([[1.0, 0.0], [0.4256, 0.5744]]),
        ["0: a", "1: b"],
        ["0: a", "1: b"],
        scale=Scale("weights"),
        blocked=np.array([[False, True], [False, False]]),
        name="head",
        title="a head",
        value_name="weight",
    )
    element = Element()
    element.bidi_component.json = json.dumps(
        json.dumps({"views": [view]})
    )  # one JSON text (attnviz.ui.attention_grid.show_matrices)
    chart = heatmap(Widget("$$ID-0-rm.head", "bidi_component", "", "", element.bidi_component), "head")
    np.testing.assert_array_equal(chart.values, [[1.0, 0.0], [0.4256, 0.5744]])  # masked: a weight of 0
    assert chart.rows == ["0: a", "1: b"] and chart.tolerance == pytest.approx(5e-5)


def test_widgets_are_found_by_the_words_of_the_keys_the_app_makes():
    ids = {key: f"$$ID-aad8caa832d6964b5977a3cc8daeac44-{key}" for key in (control_key("seed"), state.TABLES)}
    assert [user_key(widget_id) for widget_id in ids.values()] == ["pg.seed", "playground.tables"]
    assert "tables" in key_parts(ids[state.TABLES]) and "seed" in key_parts(ids["pg.seed"])
    assert VIEWS["key_part"] in key_parts(f"$$ID-3814064d972c18ec0fbf015f66e73c6b-{state.VIEWS}")


def test_expected_weights_match_a_naive_reference():
    expected = Expected(sentence="The cat sat on the mat.", causal=True, edits={("K", 2, 1): 2.5, ("Q", 0, 1): -1.0})
    first_screen = PRESETS["movie_negation"]  # the vectors by position: the first 7 rows of the worked example's
    Q, K, V = (matrix[:7].copy() for matrix in (first_screen.Q, first_screen.K, first_screen.V))
    K[2, 1], Q[0, 1] = 2.5, -1.0
    _, weights, _ = naive_attention(Q.tolist(), K.tolist(), V.tolist(), causal=True)
    np.testing.assert_allclose(expected.weights(), weights, rtol=0, atol=1e-12)
    assert expected.labels == ["0: The", "1: cat", "2: sat", "3: on", "4: the", "5: mat", "6: ."]
    assert Expected().sentence == DEFAULT_SENTENCE


@pytest.fixture(scope="module")
def server():
    with StreamlitServer("app.py") as running:
        yield running


def lesson(server, seed: int, moves):
    """A student on ``server`` loads the Playground, then ``await moves(student)``; the session is closed after.
    Returns (student, what ``moves`` returned)."""

    async def run():
        student = Student(Session(server.url), seed=seed)
        try:
            await student.load()
            return student, await moves(student)
        finally:
            await student.session.close()

    return run_apart(run())


def test_a_student_makes_every_move_and_the_numbers_hold(server):
    async def moves(student):
        await student.toggle_causal()
        await student.edit_cell()
        await student.change_sentence()
        await student.edit_cell()
        session_id = student.session.session_id
        await student.reconnect()  # raises Wrong if the server forgot the session or its numbers
        return session_id

    student, session_id = lesson(server, 1, moves)
    assert student.expected.causal is True
    assert student.expected.edits, "the cell edits are part of what was checked"
    assert student.session.session_id == session_id


def test_a_wrong_number_is_caught(server):
    async def moves(student):
        student.expected.causal = True  # the student believes in a mask the server never got
        views = student.session.find(**VIEWS)
        with pytest.raises(Wrong, match="weights differ"):
            student.check(await student.session.rerun(fragment_id=views.fragment_id), "rerun")

    lesson(server, 2, moves)


def test_a_student_opens_a_real_model_head_and_finds_the_playground_as_it_was(server, encoder):
    async def moves(student):
        await student.toggle_causal()
        await student.open_real_model()
        steps = [pick_move(student) for _ in range(2)]
        picked = await student.pick_head()  # raises Wrong if the head's weights differ from the model's
        await student.back_to_playground()  # raises Wrong if the Playground's weights are not the student's
        return steps, picked

    student, (steps, picked) = lesson(server, 3, moves)
    assert [name for name, _ in steps] == ["pick a head", "back to the Playground"]  # the visit's next two moves
    assert picked.find(label="Layer") is not None and pick_move(student)[0] in MOVES
    assert student.expected.causal is True  # still masked after the visit, as the check of "back" confirmed


def test_a_wrong_head_is_caught(server, encoder, monkeypatch):
    import bench.load_moves as load_moves

    real = load_moves.model_attention
    monkeypatch.setattr(load_moves, "model_attention", lambda model, sentence: real(model, sentence)[::-1])

    async def moves(student):
        await student.open_real_model()
        with pytest.raises(Wrong, match="differs from the model"):
            await student.pick_head()

    lesson(server, 4, moves)  # the layers reversed: every layer of the six is another one


def test_a_reconnect_on_the_real_model_page_finds_that_page(server, encoder):
    async def moves(student):
        await student.open_real_model()
        return await student.reconnect()  # raises Wrong if the page or the session was lost

    _, result = lesson(server, 5, moves)
    assert result.find(label="Layer") is not None and result.find(**VIEWS) is None
