"""Lesson plans a teacher runs: an ordered list of steps, each a share link (any page in any setup) with a short note
and, optionally, a question asked before the step's answer is shown. A plan travels as one link (``?lesson=L1.…``)
or as a small JSON file, and both are checked as strictly as a share link: every step's link must open.

Three ready plans ship with the app (``READY``), built from the app's own setups, so their links never go stale.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace

from attnviz.classroom import share
from attnviz.core.errors import AttnvizInputError
from attnviz.core.limits import (
    MAX_LESSON_FILE_BYTES,
    MAX_LESSON_LINK,
    MAX_LESSON_NOTE,
    MAX_LESSON_QUESTION,
    MAX_LESSON_STEPS,
    MAX_LESSON_TITLE,
)
from attnviz.core.playground_state import PlaygroundState, load_example
from attnviz.lessons.playground import OPENING
from attnviz.lessons.predictions import KINDS
from attnviz.playground import fields as check

PARAM = "lesson"  # the query parameter: ?lesson=L1.<payload>
FORMAT, VERSION = "attnviz-lesson", 1
_LINK = re.compile(r"L1\.([A-Za-z0-9_-]+)")
COVERS = ("", "none", *(kind for kind in KINDS if kind))  # a step's choices of cover (Step.cover)


@dataclass(frozen=True)
class Step:
    link: str  # a share-link value (attnviz.classroom.share): the page and its setup
    note: str = ""  # what to say or look at, shown with the answer
    question: str = ""  # asked first; on the Playground its views stay covered until the answer is shown
    cover: str = ""  # on the Playground, what covers the views while it asks: a prediction question
    # (attnviz.lessons.predictions.KINDS), "none", or "" for the setup's own question, else "which key most"

    @property
    def view(self) -> share.SharedView:
        return share.decode(self.link)


@dataclass(frozen=True)
class LessonPlan:
    title: str = "My lesson"
    steps: tuple[Step, ...] = ()


# ----------------------------------------------------------------------------- building


def add_step(plan: LessonPlan, step: Step) -> LessonPlan:
    if len(plan.steps) >= MAX_LESSON_STEPS:
        raise AttnvizInputError(f"A lesson has at most {MAX_LESSON_STEPS} steps: remove one before adding another.")
    return replace(plan, steps=(*plan.steps, _checked_step(step)))


def move_step(plan: LessonPlan, index: int, by: int) -> LessonPlan:
    """Step ``index`` moved ``by`` places (−1 up, +1 down), kept inside the list."""
    steps, to = list(plan.steps), max(0, min(len(plan.steps) - 1, index + by))
    steps.insert(to, steps.pop(index))
    return replace(plan, steps=tuple(steps))


def remove_step(plan: LessonPlan, index: int) -> LessonPlan:
    return replace(plan, steps=plan.steps[:index] + plan.steps[index + 1 :])


def edit_step(
    plan: LessonPlan, index: int, *, note: str | None = None, question: str | None = None, cover: str | None = None
) -> LessonPlan:
    old = plan.steps[index]
    new = _checked_step(
        replace(
            old,
            note=old.note if note is None else note,
            question=old.question if question is None else question,
            cover=old.cover if cover is None else cover,
        )
    )
    return replace(plan, steps=(*plan.steps[:index], new, *plan.steps[index + 1 :]))


def retitled(plan: LessonPlan, title: str) -> LessonPlan:
    return replace(plan, title=_text(title, "The lesson's title", MAX_LESSON_TITLE) or "My lesson")


# ----------------------------------------------------------------------------- as a link, as a file


def to_link(plan: LessonPlan) -> str:
    link = "L1." + share.pack(_to_wire(plan))
    if len(link) > MAX_LESSON_LINK:
        raise AttnvizInputError(
            f"This lesson is too long for one link ({len(link):,} characters; the limit is {MAX_LESSON_LINK:,}). "
            "Download it as a file instead."
        )
    return link


def from_link(link) -> LessonPlan:
    if not isinstance(link, str) or len(link) > MAX_LESSON_LINK or not (match := _LINK.fullmatch(link.strip())):
        raise AttnvizInputError("This lesson link is damaged or incomplete: ask for it again.")
    try:
        wire = json.loads(share.unpack(match[1]))
    except (ValueError, RecursionError):
        raise AttnvizInputError("This lesson link is damaged or incomplete: ask for it again.") from None
    return _from_wire(wire)


def to_json(plan: LessonPlan) -> bytes:
    return json.dumps({"format": FORMAT, "version": VERSION} | _to_wire(plan), ensure_ascii=False, indent=1).encode()


def from_json(data: bytes) -> LessonPlan:
    if len(data) > MAX_LESSON_FILE_BYTES:
        raise AttnvizInputError("This file is far larger than any lesson, so it was not opened.")
    try:
        document = json.loads(data.decode("utf-8-sig"))  # with or without a byte-order mark (Windows Notepad's)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise AttnvizInputError("This file is not a lesson saved by attnviz (it is not JSON).") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT or document.get("version") != VERSION:
        raise AttnvizInputError("This file is not a lesson saved by attnviz (format attnviz-lesson, version 1).")
    return _from_wire({key: value for key, value in document.items() if key not in ("format", "version")})


def _to_wire(plan: LessonPlan) -> dict:
    return {
        "title": plan.title,
        "steps": [
            {"link": s.link, "note": s.note, "question": s.question} | ({"cover": s.cover} if s.cover else {})
            for s in plan.steps
        ],
    }


def _from_wire(wire) -> LessonPlan:
    if not isinstance(wire, dict) or set(wire) - {"title", "steps"} or not isinstance(wire.get("steps"), list):
        raise AttnvizInputError("This lesson is damaged: it has no list of steps.")
    if len(wire["steps"]) > MAX_LESSON_STEPS:
        raise AttnvizInputError(f"This lesson has more than {MAX_LESSON_STEPS} steps, so it was not opened.")
    steps = []
    for number, item in enumerate(wire["steps"], start=1):
        if not isinstance(item, dict) or set(item) - {"link", "note", "question", "cover"}:
            raise AttnvizInputError(f"Step {number} of this lesson is damaged.")
        try:
            words = (item.get("note", ""), item.get("question", ""), item.get("cover", ""))
            steps.append(_checked_step(Step(item.get("link"), *words)))
        except AttnvizInputError as error:
            raise AttnvizInputError(f"Step {number} of this lesson can't be opened: {error}") from None
    return LessonPlan(_text(wire.get("title", "My lesson"), "The lesson's title", MAX_LESSON_TITLE), tuple(steps))


def _checked_step(step: Step) -> Step:
    share.decode(step.link)  # the step's own link must open, with all its checks
    if step.cover not in COVERS:
        raise AttnvizInputError("A step's cover is not one of the questions predict mode asks.")
    return Step(
        step.link,
        _text(step.note, "A step's note", MAX_LESSON_NOTE),
        _text(step.question, "A step's question", MAX_LESSON_QUESTION),
        step.cover,
    )


def _text(value, what: str, limit: int) -> str:
    text = check.text(value, what).strip()
    if len(text) > limit:
        raise AttnvizInputError(f"{what} is longer than {limit} characters.")
    return text


# ----------------------------------------------------------------------------- the plans that ship with the app
# They are built once, when the module is imported, before mutmut switches a mutant on: no test could run their
# mutants (tests/classroom/test_ready_lessons.py pins their numbers). mutmut 3.8's do_not_mutate_patterns only skips
# the lines they match (here the def lines), so the pragmas below keep every line of the builders out.
# pragma: no mutate start


def _step(state: PlaygroundState, page: str = "playground", settings: dict | None = None, **words) -> Step:
    return Step(share.encode(state, page, settings), **words)


def _fifteen_minutes() -> LessonPlan:
    pronoun = load_example(PlaygroundState(), "pronoun_it")
    return LessonPlan(
        "Attention in 15 minutes",
        (
            _step(
                OPENING,
                note="Every token asks (Q), offers (K) and passes on (V). Row 4 of the weights: “good” reads "
                "“not” (0.67) and “amazing” (0.33), so its output carries the negation.",
                question="Which word will “good” attend to most?",
            ),
            _step(
                OPENING, "step_by_step", {"stage": "scores"}, note="A score is one dot product: query row · key row."
            ),
            _step(OPENING, "geometry", note="A dot product is large when the arrows point the same way and are long."),
            _step(
                replace(pronoun, focus=3),
                note="The pronoun example: “it” puts 0.87 of its weight on “animal”.",
                question="Which word will “it” attend to most?",
            ),
            _step(
                OPENING,
                "step_by_step",
                {"stage": "softmax"},
                note="Softmax turns each row of scores into weights "
                "that are positive and sum to 1; the order of the scores is kept.",
            ),
            _step(
                OPENING,
                "multi_head",
                note="Real layers make Q, K and V from embeddings and run several heads side by side.",
            ),
            _step(
                OPENING,
                "watch_it_learn",
                {"experiment": "Induction heads"},
                note="Two layers learn to copy: press Train and watch the repeated half's loss drop when a last-layer "
                "head starts looking one past the earlier copy (the phase change). Then switch that head off.",
                question="Can one attention layer learn to copy the repeated half? Two?",
            ),
        ),
    )


def _mask_and_scale() -> LessonPlan:
    return LessonPlan(
        "Why the mask and the scale exist",
        (
            _step(
                replace(OPENING, predict="zeroed"),
                note="A decoder writes one token at a time, so a token may not "
                "look at the ones after it: the causal mask sets their weights to 0.",
                question="If the causal mask were switched on, which of “good”'s keys would it set to 0?",
            ),
            _step(
                replace(OPENING, causal=True),
                "step_by_step",
                {"stage": "mask"},
                note="Masking happens on the scores: −∞ there, so exp(−∞) = 0 in the softmax.",
            ),
            _step(
                replace(OPENING, predict="sharper"),
                note="Without ÷ √d_k the scores spread further apart, so the softmax gets sharper.",
                question="Switch scaling off: will “good”'s row get sharper or flatter?",
            ),
            _step(
                OPENING,
                "why_scale",
                {"d_k": 512},
                note="At d_k = 512, unscaled scores have a spread of about "
                "√512 ≈ 23: most rows are one-hot, and their gradients vanish.",
            ),
            _step(
                OPENING, "why_scale", {"d_k": 4}, note="At d_k = 4 the spread is about 2: scaling matters much less."
            ),
        ),
    )


def _explanation() -> LessonPlan:
    """The Real model's check of a head, on SmolLM2 and MiniLM; its numbers are pinned by tests/classroom."""
    capital = {"model": "SmolLM2-135M", "sentence": "The capital of France is", "layer": 29, "head": 1, "query": 4}
    animal = {"model": "all-MiniLM-L6-v2", "sentence": "The animal didn't cross the street because it was too tired."}
    animal |= {"layer": 1, "head": 0, "query": 10}
    steps = (  # (setup, view, token taken away, note, question); a question holds back the removal and the view
        (capital, "raw", 4, "No: layer 30, head 2 puts 0.62 of “ is”'s attention on “ is” itself, yet without “ is” "
         "the next word stays “ Paris” (77.3% → 61.5%; total variation 0.169). The largest weight did not pick the "
         "token that decides.", "Will taking away the token this head attends to most change the next word?"),
        (capital, "raw", 3, "Yes: without “ France”, “ Paris” (77.3%) gives way to a space (7.4%; total variation "
         "0.846), though no head of the last layer looked at it most. Attention is not by itself an explanation.",
         "No head of the last layer attends to “ France” most. Will taking it away change the next word?"),
        (animal, "value", "none", "Layer 2, head 1 gives [CLS] and [SEP] 68.9% of its weight, but they hand on 15.0% "
         "of what arrives: their value vectors are short. A weight is what is taken, not what arrives.",
         "This head parks most of its weight on [CLS] and [SEP]. How much of what arrives comes from them?"),
        (animal, "rollout", "none", "Rolled out, every head and the residual mix through the layers: after layer 2 the "
         "sinks' share is 37.2%. A single head's map is one step of that mixing.", ""),
    )  # fmt: skip
    return LessonPlan(
        "Is attention an explanation?",
        tuple(
            _step(OPENING, "real_model", setup | {"view": view, "removed": removed}, note=note, question=question)
            for setup, view, removed, note, question in steps
        ),
    )


# pragma: no mutate end
READY = {plan.title: plan for plan in (_fifteen_minutes(), _mask_and_scale(), _explanation())}
