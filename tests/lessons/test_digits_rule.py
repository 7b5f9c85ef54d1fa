"""One digits rule for every grid (item 17): a number a student is told to check by hand carries the digits
the next view needs. View 2 is view 1 ÷ (√d_k · τ): worked out from view 1's digits as shown, it lands within one
unit of view 2's last digit, for every generated state (large typed cells, τ down to its minimum, d_k from 1 to 64)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attnviz.core.limits import MAX_DIM, MAX_TEMPERATURE, MIN_TEMPERATURE, VALUE_LIMIT
from attnviz.core.numbers import MINUS
from attnviz.core.playground_state import set_dim
from attnviz.figures.stages import stage_views
from attnviz.lessons.stages import walkthrough
from attnviz.playground.views import playground_views
from tests.lessons.test_sentence_properties import states

MANY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def read(text: str) -> float:
    return float(text.replace(MINUS, "-").replace("∞", "inf"))


def decimals(text: str) -> int:
    return len(text.partition(".")[2])


@st.composite
def checked_states(draw):
    state = set_dim(draw(states()), draw(st.integers(1, MAX_DIM)), which="d_k")  # d_k from 1 to the Playground's largest
    cells = draw(st.lists(st.tuples(st.sampled_from("QK"), st.integers(0, state.n - 1), st.integers(0, state.d_k - 1),
                                    st.floats(-VALUE_LIMIT, VALUE_LIMIT)), max_size=4))  # fmt: skip
    edits = {(m, r, c): v for m, r, c, v in cells}
    tau = draw(st.one_of(st.just(1.0), st.floats(MIN_TEMPERATURE, MAX_TEMPERATURE)))
    return replace(state, edits=tuple(sorted(edits.items())), temperature=round(tau, 2))


def check_division(raw: list[str], scaled: list[str], divisor: float, masked: set[int] = frozenset()) -> None:
    shown = [decimals(t) for t in scaled if "∞" not in t]
    if not shown:  # every score masked: nothing to work out
        return
    unit = 10.0 ** -max(shown)
    for at, (before, after) in enumerate(zip(raw, scaled, strict=True)):
        if at in masked or "∞" in after:
            continue
        assert abs(read(before) / divisor - read(after)) <= unit * (1 + 1e-9), (before, divisor, after)


@MANY
@given(checked_states())
def test_view_2_can_be_worked_out_from_view_1_as_shown(state):
    raw, scaled, weights, output = playground_views(state)
    for view in (raw, scaled, weights, output):  # one precision a view: no "800" beside "20.00"
        assert len({decimals(t) for t in view["text"] if t not in ("−∞", "0")}) <= 1, view["text"]
    check_division(raw["text"], scaled["text"], state.result().scale_factor)


@MANY
@given(checked_states())
def test_step_by_steps_scale_stage_can_be_worked_out_from_its_input_as_shown(state):
    stage = next(s for s in walkthrough(state).stages if s.key == "scale")
    before, after = stage_views(stage)
    check_division(before["text"], after["text"], state.result().scale_factor)
