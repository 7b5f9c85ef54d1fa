"""A teacher's lesson plan, built step by step and carried by a link or a file (attnviz.classroom.lesson_plan): the
order of the steps, the words they keep and every refusal, in the words the lesson bar shows. The app's own run of a
plan is tests/app/test_lesson_plans.py; these are the fast layer `make mutate AREA=class` runs."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from attnviz.classroom import share
from attnviz.classroom.lesson_plan import (
    MAX_LESSON_FILE_BYTES,
    MAX_LESSON_LINK,
    MAX_LESSON_NOTE,
    MAX_LESSON_QUESTION,
    MAX_LESSON_STEPS,
    MAX_LESSON_TITLE,
    LessonPlan,
    Step,
    add_step,
    edit_step,
    from_json,
    from_link,
    move_step,
    remove_step,
    retitled,
    to_json,
    to_link,
)
from attnviz.core.errors import AttnvizInputError
from attnviz.core.playground_state import set_sentence
from attnviz.lessons.playground import OPENING

LINKS = [
    share.encode(OPENING),
    share.encode(replace(OPENING, causal=True), "step_by_step", {"stage": "mask"}),
    share.encode(OPENING, "geometry"),
    share.encode(replace(OPENING, focus=1)),
]
DAMAGED_LINK = "This lesson link is damaged or incomplete: ask for it again."
NOT_JSON = "This file is not a lesson saved by attnviz (it is not JSON)."
NOT_OURS = "This file is not a lesson saved by attnviz (format attnviz-lesson, version 1)."


def plan_of(*notes: str) -> LessonPlan:
    plan = LessonPlan("Four steps")
    for link, note in zip(LINKS, notes, strict=False):
        plan = add_step(plan, Step(link, note))
    return plan


def notes(plan: LessonPlan) -> list[str]:
    return [step.note for step in plan.steps]


def refused(call, *args, **kwargs) -> str:
    with pytest.raises(AttnvizInputError) as error:
        call(*args, **kwargs)
    return str(error.value)


def test_steps_added_keep_their_order_words_trimmed_and_the_thirty_first_is_refused():
    plan = add_step(LessonPlan(), Step(LINKS[0], "  Look at row 4.  ", " Which word? "))
    assert plan.steps == (Step(LINKS[0], "Look at row 4.", "Which word?"),) and plan.title == "My lesson"
    for _ in range(MAX_LESSON_STEPS - 1):
        plan = add_step(plan, Step(LINKS[1]))
    assert len(plan.steps) == MAX_LESSON_STEPS == 30
    assert refused(add_step, plan, Step(LINKS[2])) == "A lesson has at most 30 steps: remove one before adding another."


def test_a_step_whose_link_does_not_open_is_refused_in_the_share_links_words():
    said = refused(add_step, LessonPlan(), Step("1.not-a-link"))
    assert said.startswith("This share link is damaged or incomplete")


def test_moving_a_step_up_or_down_stops_at_either_end():
    plan = plan_of("a", "b", "c", "d")
    assert notes(move_step(plan, 2, -1)) == ["a", "c", "b", "d"]
    assert notes(move_step(plan, 1, +1)) == ["a", "c", "b", "d"]
    assert notes(move_step(plan, 0, -1)) == ["a", "b", "c", "d"]  # the first cannot go higher
    assert notes(move_step(plan, 3, +1)) == ["a", "b", "c", "d"]  # the last cannot go lower
    assert notes(move_step(plan, 0, +3)) == ["b", "c", "d", "a"]
    assert notes(move_step(plan, 3, -3)) == ["d", "a", "b", "c"]
    assert move_step(plan, 1, 1).title == "Four steps"


def test_removing_a_step_keeps_the_others_in_order():
    plan = plan_of("a", "b", "c", "d")
    assert notes(remove_step(plan, 0)) == ["b", "c", "d"]
    assert notes(remove_step(plan, 2)) == ["a", "b", "d"]
    assert notes(remove_step(plan, 3)) == ["a", "b", "c"]
    assert remove_step(plan, 1).title == "Four steps"


def test_editing_a_step_changes_only_what_was_given_and_only_that_step():
    plan = add_step(plan_of("a", "b", "c"), Step(LINKS[3], "d", "Which?"))
    asked = edit_step(plan, 3, note="  new note ")
    assert asked.steps[3] == Step(LINKS[3], "new note", "Which?") and asked.steps[:3] == plan.steps[:3]
    reworded = edit_step(plan, 3, question=" Which key most? ")
    assert reworded.steps[3] == Step(LINKS[3], "d", "Which key most?")
    cleared = edit_step(plan, 1, note="", question="")
    assert cleared.steps[1] == Step(LINKS[1], "", "") and notes(cleared) == ["a", "", "c", "d"]
    assert edit_step(plan, 0).steps == plan.steps and edit_step(plan, 0).title == "Four steps"


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        ({"note": "n" * (MAX_LESSON_NOTE + 1)}, "A step's note is longer than 240 characters."),
        ({"question": "q" * (MAX_LESSON_QUESTION + 1)}, "A step's question is longer than 160 characters."),
        ({"note": 7}, "A step's note is not text."),
        ({"question": "\ud800"}, "A step's question is not valid text."),
    ],
)
def test_a_step_edited_past_its_limit_is_refused_and_the_plan_kept(edit, words):
    plan = plan_of("a")
    assert refused(edit_step, plan, 0, **edit) == words
    assert edit_step(plan, 0, note="n" * MAX_LESSON_NOTE, question="q" * MAX_LESSON_QUESTION).steps[0].note == (
        "n" * MAX_LESSON_NOTE
    )
    assert notes(plan) == ["a"]


def test_a_title_is_trimmed_an_empty_one_is_my_lesson_and_a_long_one_is_refused():
    plan = plan_of("a")
    assert retitled(plan, "  Masks  ") == replace(plan, title="Masks")
    assert retitled(plan, "   ").title == "My lesson"
    assert retitled(plan, "t" * MAX_LESSON_TITLE).title == "t" * MAX_LESSON_TITLE
    assert refused(retitled, plan, "t" * (MAX_LESSON_TITLE + 1)) == "The lesson's title is longer than 80 characters."
    assert refused(retitled, plan, None) == "The lesson's title is not text."


def test_a_plan_comes_back_whole_from_its_link_and_from_its_file():
    plan = retitled(plan_of("“not” and “amazing”", "b", "c"), "Attention — why?")
    plan = edit_step(plan, 0, question="Which word will “good” attend to most?")
    link = to_link(plan)
    assert link.startswith("L1.") and from_link(link) == plan and from_link(f"  {link}\n") == plan
    data = to_json(plan)
    assert from_json(data) == plan and from_json(b"\xef\xbb\xbf" + data) == plan  # with a byte-order mark too
    document = json.loads(data)
    assert list(document) == ["format", "version", "title", "steps"]
    assert (document["format"], document["version"], document["title"]) == ("attnviz-lesson", 1, "Attention — why?")
    assert document["steps"][0] == {"link": LINKS[0], "note": "“not” and “amazing”", "question": plan.steps[0].question}
    assert "“good”" in data.decode("utf-8") and "\n " in data.decode("utf-8")  # readable in an editor, as written


def test_a_plan_too_long_for_a_link_says_to_download_it_instead():
    draw = random.Random(56)  # words that do not compress: thirty steps of them pass a link's 60,000 characters

    def words(count: int) -> str:
        return "".join(chr(draw.randrange(0x4E00, 0xA000)) for _ in range(count))

    def setup() -> str:  # each step a sentence of its own: 100 words of four characters
        return share.encode(set_sentence(OPENING, " ".join(words(4) for _ in range(100)))[0])

    steps = (Step(setup(), words(MAX_LESSON_NOTE), words(MAX_LESSON_QUESTION)) for _ in range(MAX_LESSON_STEPS))
    plan = LessonPlan(words(MAX_LESSON_TITLE), tuple(steps))
    said = refused(to_link, plan)
    assert said.startswith("This lesson is too long for one link (") and said.endswith(
        " characters; the limit is 60,000). Download it as a file instead."
    )
    assert from_json(to_json(plan)) == plan  # the file carries it
    shorter = replace(plan, steps=plan.steps[:20])
    assert from_link(to_link(shorter)) == shorter


@pytest.mark.parametrize(
    "link",
    [None, 42, "", "L1.", "L2.abc", "L1.abc!", "L1.eNo", "x" + "L1.abc", "L1." + "A" * MAX_LESSON_LINK,
     "L1." + share.pack("not a lesson")[:-2]],
)  # fmt: skip
def test_a_damaged_lesson_link_is_refused_in_one_sentence(link):
    assert refused(from_link, link) == DAMAGED_LINK


@pytest.mark.parametrize(
    ("wire", "words"),
    [
        ("a list", "This lesson is damaged: it has no list of steps."),
        ({"title": "T"}, "This lesson is damaged: it has no list of steps."),
        ({"title": "T", "steps": {}}, "This lesson is damaged: it has no list of steps."),
        ({"title": "T", "steps": [], "extra": 1}, "This lesson is damaged: it has no list of steps."),
        ({"steps": [{"link": LINKS[0]}] * 31}, "This lesson has more than 30 steps, so it was not opened."),
        ({"steps": [{"link": LINKS[0]}, "step"]}, "Step 2 of this lesson is damaged."),
        ({"steps": [{"link": LINKS[0], "picture": 1}]}, "Step 1 of this lesson is damaged."),
        ({"steps": [{"link": LINKS[0]}, {"link": LINKS[1]}, {"link": "1.x"}]},
         "Step 3 of this lesson can't be opened: This share link is damaged or incomplete, perhaps cut off when it "
         "was copied. Copy the whole link again, or ask for a new one."),
        ({"steps": [{"link": LINKS[0], "note": "n" * 601}]},
         "Step 1 of this lesson can't be opened: A step's note is longer than 240 characters."),
        ({"title": 5, "steps": []}, "The lesson's title is not text."),
    ],
)  # fmt: skip
def test_a_damaged_plan_says_which_step_in_a_link_and_in_a_file(wire, words):
    assert refused(from_link, "L1." + share.pack(wire)) == words
    if isinstance(wire, dict):
        document = {"format": "attnviz-lesson", "version": 1} | wire
        assert refused(from_json, json.dumps(document).encode()) == words


def test_a_plan_read_keeps_its_title_its_steps_and_their_missing_words_empty():
    wire = {"steps": [{"link": LINKS[1]}, {"link": LINKS[0], "note": " n ", "question": "q"}]}
    plan = from_link("L1." + share.pack(wire))
    assert plan == LessonPlan("My lesson", (Step(LINKS[1]), Step(LINKS[0], "n", "q")))
    assert from_link("L1." + share.pack(wire | {"title": " Masks "})).title == "Masks"
    assert from_link("L1." + share.pack({"steps": []})) == LessonPlan()


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"not json", NOT_JSON),
        (b"\xff\xfe{}", NOT_JSON),
        (b"[" * 50_000 + b"]" * 50_000, NOT_JSON),  # deep nesting: not a lesson, not a crash
        (b"[]", NOT_OURS),
        (json.dumps({"format": "attnviz-lesson", "steps": []}).encode(), NOT_OURS),
        (json.dumps({"format": "attnviz-lesson", "version": 2, "steps": []}).encode(), NOT_OURS),
        (json.dumps({"format": "other", "version": 1, "steps": []}).encode(), NOT_OURS),
    ],
)
def test_a_file_that_is_not_a_lesson_is_refused_in_words(data, words):
    assert refused(from_json, data) == words


def test_the_largest_file_a_lesson_may_be_opens():
    document = {"format": "attnviz-lesson", "version": 1, "title": "Big", "steps": []}
    data = json.dumps(document).encode()
    padded = data[:-1] + b" " * (MAX_LESSON_FILE_BYTES - len(data)) + b"}"
    assert len(padded) == MAX_LESSON_FILE_BYTES and from_json(padded).title == "Big"
    assert refused(from_json, padded + b" ") == "This file is far larger than any lesson, so it was not opened."


def test_a_link_pasted_with_blank_space_around_it_opens_up_to_the_links_limit():
    link = to_link(plan_of("a", "b"))
    padded = link + "\n" * (MAX_LESSON_LINK - len(link))  # pasted with blank lines after it: 60,000 characters
    assert len(padded) == MAX_LESSON_LINK and from_link(padded) == plan_of("a", "b")
    assert refused(from_link, padded + " ") == DAMAGED_LINK


def test_the_file_is_laid_out_one_space_a_level_with_its_words_as_typed():
    plan = LessonPlan("Ça", (Step(LINKS[0], "“not”"),))
    assert to_json(plan).decode("utf-8") == (
        '{\n "format": "attnviz-lesson",\n "version": 1,\n "title": "Ça",\n "steps": [\n  {\n'
        f'   "link": "{LINKS[0]}",\n   "note": "“not”",\n   "question": ""\n  }}\n ]\n}}'
    )
