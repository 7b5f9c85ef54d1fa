"""The worst moves of bench.worst: each page's heaviest moves at the limits its widgets and share links allow.

A move is made on an AppTest of the whole app: ``setup`` brings a fresh session to the limits and runs the page (not
timed), then the ``acts`` are made in turn, each one a sample (a toggle: on, off, on, ...); a move that leaves its page
(Challenges' *Try it* opens the challenge's page) has a ``before_each`` that goes back to it, not timed. Pages still
being built have a hook here.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from attnviz.core.limits import MAX_D_MODEL, MAX_DIM, MAX_LESSON_DK, MAX_TOKENS
from attnviz.core.playground_state import PlaygroundState
from attnviz.core.tokenize import tokenize
from attnviz.playground.session import Session
from attnviz.ui.state import control_key, setting_key
from attnviz.ui.training_run import RUNS
from bench.harness.apptest import button, use_control
from bench.product import FIRST_SCREEN_TOKENS

SAMPLES = 5
TIMEOUT_S = 120  # a move slower than this is reported as a failure, not waited for


def long_sentence(n: int = MAX_TOKENS) -> str:
    """``n`` tokens of ordinary English words (labels as long as a student's), cycling the Playground's sentence."""
    words = tokenize(PlaygroundState().sentence)
    sentence = " ".join(itertools.islice(itertools.cycle(words), n))
    assert len(tokenize(sentence)) == n
    return sentence


AT_LIMITS = PlaygroundState(sentence=long_sentence(), d_k=MAX_DIM, d_v=MAX_DIM, focus=0)


@dataclass(frozen=True)
class Move:
    page: str  # a name from attnviz.pages
    name: str  # what the student does
    limits: str  # the settings it is made at
    setup: Callable  # (at) -> None: brings a fresh session to the limits and runs the page (not timed)
    acts: tuple[Callable, ...]  # (at) -> None each: the moves, made in turn (a toggle: on, off, on, ...)
    floor: bool = False  # the lightest real move, that the others are compared with
    split_by: Callable | None = None  # (at) -> str: report the samples apart by this (Step by step: the stage)
    before_each: Callable | None = None  # (at) -> None: back to the page each act starts from (not timed)


def _playground_at_limits(at, **changes) -> None:
    at.session_state["playground"] = Session(state=replace(AT_LIMITS, **changes))
    at.run(timeout=TIMEOUT_S)


def _toggle(key: str) -> tuple[Callable, Callable]:
    return (lambda at: at.checkbox(key=key).check(), lambda at: at.checkbox(key=key).uncheck())


def _toggle_beside_views(field: str) -> tuple[Callable, Callable]:
    """A checkbox beside the Playground's views: its change is a trigger, which makes its own run."""
    return (lambda at: use_control(at, field, True), lambda at: use_control(at, field, False))


def _settings(page: str, **values) -> Callable:
    """Sets a guided page's settings; a value "max" is the largest its slider allows."""

    def setup(at) -> None:
        for name, value in values.items():
            key = setting_key(page, name)
            at.session_state[key] = at.slider(key=key).max if value == "max" else value
        at.run(timeout=TIMEOUT_S)

    return setup


def _then(*setups: Callable) -> Callable:
    def setup(at) -> None:
        for step in setups:
            step(at)

    return setup


def _new_sentences() -> tuple[Callable, Callable]:
    other = long_sentence(MAX_TOKENS + 1).split(" ", 1)[1]  # the same words, one position on: every label new
    return (
        lambda at: at.text_input(key=control_key("sentence")).input(other),
        lambda at: at.text_input(key=control_key("sentence")).input(AT_LIMITS.sentence),
    )


def _seed_changes(page: str) -> tuple[Callable, ...]:
    key = setting_key(page, "seed")
    return tuple((lambda at, s=seed: at.number_input(key=key).set_value(s)) for seed in range(1, 2 * SAMPLES + 3))


class StageWalk:
    """Step by step's walk: Next to the last stage, Back to the first, and again; each click enters a stage."""

    def __init__(self):
        self.forward = True

    def __call__(self, at) -> None:
        if button(at, "Next" if self.forward else "Back").disabled:
            self.forward = not self.forward
        button(at, "Next" if self.forward else "Back").click()


def _training_run(at):
    """Watch it learn's run in the worker, while it trains or waits (attnviz.ui.training_run)."""
    return at.session_state[RUNS].run if RUNS in at.session_state else None


def stage_entered(at) -> str:
    return at.session_state[setting_key("step_by_step", "stage")]


def moves() -> list[Move]:
    """Every page's heaviest moves at its limits (the hooks below add pages that are still being built)."""
    d = f"d_k = d_v = {MAX_DIM}"
    blocked = tuple(range(0, MAX_TOKENS, 3))
    return [
        Move(
            "playground",
            "tick Causal mask",
            f"the default {FIRST_SCREEN_TOKENS} tokens",
            lambda at: None,
            _toggle_beside_views("causal"),
            True,
        ),
        Move(
            "playground",
            "tick Causal mask",
            f"{MAX_TOKENS} tokens, {d}",
            _playground_at_limits,
            _toggle_beside_views("causal"),
        ),
        Move("playground", "type a new sentence", f"{MAX_TOKENS} tokens, {d}", _playground_at_limits, _new_sentences()),
        Move(
            "step_by_step",
            "Next / Back into each stage",
            f"{MAX_TOKENS} tokens, {d}, causal, every 3rd key blocked, from embeddings at the largest d_model",
            _then(
                lambda at: _playground_at_limits(at, causal=True, blocked_keys=blocked),
                _settings("step_by_step", from_embeddings=True),
                _settings("step_by_step", d_model="max"),
            ),
            (StageWalk(),),
            split_by=stage_entered,
        ),
        Move(
            "multi_head",
            "tick Causal mask",
            f"{MAX_TOKENS} tokens, d_model {MAX_D_MODEL}, {MAX_D_MODEL} heads",
            _then(
                _playground_at_limits,
                _settings("multi_head", d_model="max"),
                _settings("multi_head", heads=MAX_D_MODEL),
            ),
            _toggle(setting_key("multi_head", "causal")),
        ),
        Move(
            "why_scale",
            "change the seed",
            f"d_k {MAX_LESSON_DK}, the most tokens the slider allows",
            _settings("why_scale", d_k="max", tokens="max"),
            _seed_changes("why_scale"),
        ),
        Move(
            "geometry",
            "move the query",
            "any vectors (the page is 2-D)",
            lambda at: None,
            tuple(
                (lambda at, x=x: at.number_input(key=setting_key("geometry", "query_x")).set_value(x))
                for x in (1.5, -2.0)
            ),
        ),
        *real_model_moves(),
        *training_moves(),
        *classroom_moves(),
    ]


def classroom_moves() -> list[Move]:
    """The Challenges page's heaviest click (a challenge set up: its Playground state checked on the way) and the
    Lesson plans page at its most steps (each step's link decoded to name it), moving a step."""
    from attnviz.classroom import lesson_plan as plans
    from attnviz.ui.lesson_plan import LESSON, Lesson

    def longest_plan(at) -> None:
        ready = next(iter(plans.READY.values()))
        longest = plans.LessonPlan("Longest", (ready.steps * plans.MAX_LESSON_STEPS)[: plans.MAX_LESSON_STEPS])
        at.session_state[LESSON] = Lesson(longest)
        at.run(timeout=TIMEOUT_S)  # the page's step buttons are drawn from the plan

    def back_to_challenges(at) -> None:  # Try it went to the challenge's page
        at.switch_page("pages/challenges.py").run(timeout=TIMEOUT_S)

    return [
        Move(
            "challenges",
            "Try it: copy v₂",
            "the challenge with the most moves",
            lambda at: None,
            (lambda at: at.button(key="challenge.copy_v2").click(),),
            before_each=back_to_challenges,
        ),
        Move(
            "lesson_plans",
            "move a step down, and back",
            f"a lesson of {plans.MAX_LESSON_STEPS} steps",
            longest_plan,
            (lambda at: at.button(key="step.Down.0").click(), lambda at: at.button(key="step.Up.1").click()),
        ),
    ]


def real_model_moves() -> list[Move]:
    """The real-model page with the decoder, the slower model (30 layers × 9 heads), on a sentence at the
    models' token cap. The run itself is made on the page's background worker, beside the sessions (its time is
    bench/models.py's forward pass); ``setup`` waits for it. Each move then redraws every view: the 270-head overview,
    the head's map of the models' token cap squared, with its hovers, and its line view."""
    from attnviz.models import MAX_TOKENS as MODEL_TOKENS
    from bench.models import DECODER, sentence

    text = sentence(MODEL_TOKENS, seed=0)  # one decoder token a word, no special tokens

    def setup(at) -> None:
        at.text_input(key=setting_key("real_model", "sentence")).input(text)
        at.selectbox(key=setting_key("real_model", "model")).set_value(DECODER).run(timeout=TIMEOUT_S)
        for _ in range(TIMEOUT_S * 4):  # the page's waiting fragment reruns it until the run is there
            if not any(info.value.startswith(("Loading", "Running", "Waiting")) for info in at.info):
                break
            time.sleep(0.25)
            at.run(timeout=TIMEOUT_S)
        if at.exception or at.error or not any(f"{MODEL_TOKENS} tokens here" in c.value for c in at.caption):
            raise RuntimeError(f"the decoder's run did not arrive: {[e.value for e in at.error][:1]}")

    limits = f"{DECODER}, {MODEL_TOKENS} tokens"
    heads = tuple(
        (lambda at, layer=layer, head=head: _pick_head(at, layer, head)) for layer, head in ((9, 2), (20, 5), (29, 8))
    )
    return [
        Move("real_model", "pick a head", limits, setup, heads),
        Move("real_model", "flip the sink switch", limits, setup, _switch(setting_key("real_model", "hide_sinks"))),
    ]


def _pick_head(at, layer: int, head: int) -> None:
    at.selectbox(key=setting_key("real_model", "layer")).set_value(layer)
    at.selectbox(key=setting_key("real_model", "head")).set_value(head)


def _switch(key: str) -> tuple[Callable, Callable]:
    return (lambda at: at.toggle(key=key).set_value(True), lambda at: at.toggle(key=key).set_value(False))


def training_moves() -> list[Move]:
    """Watch it learn at the caps (attnviz.train.config): as many samples × the text's epochs as the cap
    on sample passes allows, in the text's batch size (bench.train.CAPPED_SAMPLES). The training runs in the server's worker process, beside the sessions; what a move costs
    the server is its script runs. The moves alternate: Train pressed, rerun as the live view's timer would until
    the first progress is drawn; then Stop, rerun until the result (101 snapshots, the held-out verdict) is drawn.
    Their wall time includes the wait for the worker; their script CPU does not."""
    from bench.train import CAPPED_EPOCHS, CAPPED_SAMPLES, TEXT_SETTING

    page = "watch_it_learn"

    def until(at, done) -> None:
        deadline = time.monotonic() + TIMEOUT_S
        while not done(at):
            if time.monotonic() > deadline or at.exception:
                raise RuntimeError(f"the run did not get there: {[e.message for e in at.exception][:1]}")
            time.sleep(0.05)
            at.run(timeout=TIMEOUT_S)

    def press_train(at) -> None:
        button(at, "Train").click().run(timeout=TIMEOUT_S)
        until(at, lambda at: bool(at.get("progress")))

    def press_stop(at) -> None:
        button(at, "Stop").click().run(timeout=TIMEOUT_S)
        until(at, lambda at: _training_run(at) is None)

    def made(at) -> str:
        return "Train, to the first progress" if _training_run(at) else "Stop, to the result"

    return [
        Move(
            page,
            "Train, then Stop",
            f"{CAPPED_SAMPLES:,} samples × {CAPPED_EPOCHS} epochs (the caps), the text's batch of "
            f"{TEXT_SETTING.batch_size}",
            _settings(page, samples=CAPPED_SAMPLES, epochs=CAPPED_EPOCHS),
            (press_train, press_stop),
            split_by=made,
        )
    ]


PENDING = {  # pages without a row yet, and the hook to fill in
}
