"""A lesson step's cover (the prediction question that covers the Playground while the step asks): kept through an
edit, a link and a file, written only when set, and refused in words when it is not one predict mode asks. Also the
real model page's view and model settings in a share link, refused in words."""

from __future__ import annotations

import json

import pytest

from attnviz.classroom import share
from attnviz.classroom.lesson_plan import LessonPlan, Step, add_step, edit_step, from_json, from_link, to_json, to_link
from attnviz.core.errors import AttnvizInputError
from attnviz.lessons.playground import OPENING
from tests.classroom.test_share import BAD_SETTING, pack
from tests.classroom.test_share_imported import unpack

LINK = share.encode(OPENING)
NOT_A_COVER = "A step's cover is not one of the questions predict mode asks."


def test_a_steps_cover_is_kept_through_an_edit_a_link_and_a_file():
    plan = add_step(LessonPlan("Covers"), Step(LINK, "n", "Which?", "zeroed"))
    noted = edit_step(plan, 0, note="new")
    assert noted.steps[0].cover == "zeroed"
    recovered = edit_step(noted, 0, cover="sharper")
    assert recovered.steps[0] == Step(LINK, "new", "Which?", "sharper")
    assert from_link(to_link(recovered)) == recovered == from_json(to_json(recovered))
    assert json.loads(to_json(recovered))["steps"][0]["cover"] == "sharper"


def test_a_step_without_a_cover_writes_none_and_a_bad_cover_is_refused_in_words():
    plan = add_step(LessonPlan("Plain"), Step(LINK))
    assert "cover" not in json.loads(to_json(plan))["steps"][0]
    with pytest.raises(AttnvizInputError) as refused:
        add_step(plan, Step(LINK, cover="loudest"))
    assert str(refused.value) == NOT_A_COVER
    wire = {"steps": [{"link": LINK, "cover": "loudest"}]}
    with pytest.raises(AttnvizInputError) as refused:
        from_link("L1." + share.pack(wire))
    assert str(refused.value) == f"Step 1 of this lesson can't be opened: {NOT_A_COVER}"


def test_a_real_model_link_opens_a_shipped_model_or_a_hub_id_and_refuses_a_view_not_offered():
    for model in ("SmolLM2-135M", "all-MiniLM-L6-v2", "openai-community/gpt2"):
        view = share.decode(share.encode(OPENING, "real_model", {"model": model}))
        assert dict(view.settings)["model"] == model
    wire = unpack(share.encode(OPENING, "real_model", {"layer": 2}))
    for setting, words in (
        ({"view": "heat"}, "the view is not one of raw, value, rollout."),
        ({"model": "/home/me/model"}, "the model is not one of "),
    ):
        with pytest.raises(AttnvizInputError) as refused:
            share.decode(pack({**wire, "g": setting}))
        assert str(refused.value).startswith(f"{BAD_SETTING}: {words}")
