"""The line under the weights a student answers on (attnviz.classroom.join.answer_line), over generated states: it
names the joined code and the answer kept, says "Counted" only for an answer the tally took, and is silent only where
there is no class to speak of."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from attnviz.classroom.join import answer_line
from attnviz.lessons import predictions
from attnviz.lessons.playground import OPENING

QUESTIONS = ("most", "sharper", "zeroed")
codes = st.one_of(st.none(), st.text("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", min_size=6, max_size=6))


@st.composite
def kept_answers(draw):
    """None, or (the state the prediction was made on, its option)."""
    if draw(st.booleans()):
        return None
    asked = replace(OPENING, predict=draw(st.sampled_from(QUESTIONS)), focus=draw(st.integers(0, 11)))
    return asked, draw(st.integers(0, len(predictions.options(asked)) - 1))


@st.composite
def situations(draw):
    code, kept = draw(codes), draw(kept_answers())
    sent = None
    if draw(st.booleans()):  # something was sent: this answer, or an older one; counted, refused, or to be sent again
        what = kept if kept is not None and draw(st.booleans()) else draw(kept_answers())
        problem = draw(st.sampled_from([None, "Your answer was not counted for the class: The question has closed."]))
        sent = (draw(st.sampled_from([code, "ZZZ234"])), what, problem, problem is not None and draw(st.booleans()))
    return {
        "code": code,
        "refused": draw(st.booleans()),
        "kept": kept,
        "answers_asked": kept is not None and draw(st.booleans()),
        "on_asked": draw(st.booleans()),
        "heard": draw(st.booleans()),
        "sent": sent,
    }


@settings(max_examples=400, deadline=None)
@given(situations())
def test_the_line_says_counted_only_for_the_answer_the_tally_took_and_names_it(situation):
    line = answer_line(**situation)
    code, kept, sent = situation["code"], situation["kept"], situation["sent"]
    outside = situation["refused"] or code is None
    if line is None:
        assert outside and kept is None  # silent only without a class, and with nothing kept
        return
    assert line.tone in ("ok", "warn", "info")
    counted = (
        not outside
        and situation["on_asked"]
        and situation["answers_asked"]
        and situation["heard"]
        and sent is not None
        and sent[:2] == (code, kept)
        and sent[2] is None
    )
    assert line.text.startswith("Counted") == counted == (line.tone == "ok")
    if counted:
        option = predictions.options(kept[0])[kept[1]]
        assert line.text == f"Counted for the class question {code}: {option}. A new answer here replaces it."
    elif outside:
        assert line.text == "Your answer is kept: it is sent once the right code is typed." and line.tone == "warn"
    else:
        assert code in line.text or line.text == sent[2]  # the question it is about, or why the tally refused it
    if not outside and not situation["on_asked"]:
        assert line.text.startswith("Not counted") and line.tone == "warn"
