"""Lesson plans through the app: built from the Share box of any page, reordered and annotated, carried by one link
and reopened from it, presented step by step (the question first, its answer after), and a class question answered
by several students at once, tallied on the teacher's screen."""

import re
import time
from dataclasses import replace

import pytest

from attnviz.classroom import lesson_plan as plans
from attnviz.classroom.rate import Bucket
from attnviz.classroom.share import decode, encode
from attnviz.core.errors import AttnvizInputError
from attnviz.lessons.playground import OPENING
from attnviz.lessons.predictions import KINDS
from attnviz.ui.class_join import CLASS, Joined
from attnviz.ui.class_question import ASKING
from attnviz.ui.class_tally import shared_tally
from attnviz.ui.lesson_plan import LESSON
from attnviz.ui.state import setting_key
from bench.attack import HOSTILE_NOTE, HOSTILE_TITLE, hostile_lesson
from bench.harness.triggers import trigger_state
from tests.app.test_playground import guess, send_browser_voter
from tests.app.test_text import gfm_autolinks, spoken
from tests.support.apptest import (
    answer_said,
    as_read,
    button,
    chart,
    chart_keys,
    open_app,
    playground,
    texts,
    use_control,
    views,
    views_data,
)


def add_this_setup(at):
    return at.button(key="share.add_to_lesson").click().run()


def test_a_lesson_is_built_from_two_pages_reordered_annotated_and_carried_by_one_link():
    at = open_app()
    add_this_setup(at)  # the Playground's first screen
    at.switch_page("pages/step_by_step.py").run()
    at.radio(key=setting_key("step_by_step", "stage")).set_value("mask").run()
    add_this_setup(at)
    plan = at.session_state[LESSON].plan
    assert [step.view.page for step in plan.steps] == ["playground", "step_by_step"]
    assert dict(plan.steps[1].view.settings)["stage"] == "mask"

    at.switch_page("pages/lesson_plans.py").run()
    at.button(key="step.Down.0").click().run()  # the Playground's step goes second
    plan = at.session_state[LESSON].plan
    assert [step.view.page for step in plan.steps] == ["step_by_step", "playground"]
    at.text_area(key=f"step.note.1.{hash(plan.steps[1])}").set_value("Row 4: “good” reads “not”.").run()
    at.text_input(key=f"step.q.1.{hash(at.session_state[LESSON].plan.steps[1])}").set_value("Which word?").run()
    plan = at.session_state[LESSON].plan
    assert (plan.steps[1].note, plan.steps[1].question) == ("Row 4: “good” reads “not”.", "Which word?")

    link = plans.to_link(plan)
    assert plans.from_link(link) == plan
    reopened = open_app(lesson=link)  # a fresh browser with the lesson's link
    assert reopened.session_state[LESSON].plan == plan
    assert plans.from_json(plans.to_json(plan)) == plan


def test_add_to_my_lesson_says_so_on_the_page_it_was_pressed_on_and_nowhere_later():
    """Off the Playground it said nothing, and its message then appeared on the projector at the lesson's step 1."""
    at = open_app()
    at.switch_page("pages/why_scale.py").run()
    add_this_setup(at)
    assert [as_read(toast.value) for toast in at.toast] == ["Added as step 1 of your lesson (see Lesson plans)."]
    at.switch_page("pages/playground.py").run()
    assert "Added as step" not in texts([*at.toast, *at.success, *at.warning, *at.caption])


def test_a_lesson_file_saved_with_a_byte_order_mark_opens():
    """Windows Notepad saves UTF-8 with a byte-order mark; the lesson in it is the same lesson."""
    plan = next(iter(plans.READY.values()))
    saved = plans.to_json(plan)
    assert plans.from_json(b"\xef\xbb\xbf" + (saved if isinstance(saved, bytes) else saved.encode())) == plan


def test_a_broken_lesson_link_says_so_and_keeps_the_defaults():
    at = open_app(lesson="L1.not-a-lesson")
    assert "This lesson link is damaged or incomplete" in texts(at.error)
    assert LESSON not in at.session_state and playground(at) == OPENING


def present_ready(title: str):
    at = open_app("lesson_plans")
    at.button(key=f"ready.present.{list(plans.READY).index(title)}").click().run()
    run = at.session_state[LESSON].run
    return at.switch_page(f"pages/{run[0].steps[run[1]].view.page}.py").run()


def follow(at):
    """After Back or Next: AppTest stays where it is told, so it is sent to the step's page as the browser is."""
    plan, index, _ = at.session_state[LESSON].run
    if index == len(plan.steps):  # the end screen stays on the page the lesson ended on
        return at.run()
    return at.switch_page(f"pages/{plan.steps[index].view.page}.py").run()


def test_a_lesson_is_presented_question_first_then_its_answer_then_the_next_step():
    at = present_ready("Why the mask and the scale exist")
    assert at.session_state["presenter"] is True
    assert "step 1 of 5" in texts(at.markdown) and "**Question:** If the causal mask were switched on" in texts(at.markdown)
    assert views(at)["weights"]["cover"] and not playground(at).causal  # asked: covered, before the switch
    at.button(key="lesson.next").click().run()  # "Answer"
    follow(at)
    assert "cover" not in views(at)["weights"] and playground(at).causal  # the answer: the mask is on
    assert "the causal mask sets their weights to 0" in texts(at.markdown)
    at.button(key="lesson.next").click().run()
    follow(at)
    assert at.session_state[setting_key("step_by_step", "stage")] == "mask" and "step 2 of 5" in texts(at.markdown)
    at.button(key="lesson.back").click().run()  # back to step 1's answer
    follow(at)
    assert at.session_state[LESSON].run[1:] == (0, True)
    at.button(key="lesson.stop").click().run()
    assert at.session_state[LESSON].run is None and "step 1 of 5" not in texts(at.markdown)


def test_a_class_answers_a_question_and_the_teacher_sees_the_tally():
    teacher = present_ready("Attention in 15 minutes")  # step 1 asks which word “good” attends to most
    teacher.button(key="lesson.ask").click().run()
    code = teacher.session_state[ASKING].code
    (shown,) = [c.value for c in teacher.code if "?join=" in c.value]  # what students open: the code alone
    assert shown == f"?join={code}"  # AppTest has no browser address to put before it
    asked = decode(shared_tally().counts(code, now=time.time()).setup).state
    assert asked == playground(teacher) and asked.predict == "most"  # it opens asking, as the teacher's screen does
    answers = (3, 3, 10)  # two say “not”, one says “amazing”
    for key in answers:
        student = open_app(join=code.lower())  # typed as they read it
        assert playground(student) == asked and student.text_input(key="class.join").value == code  # as the teacher's
        guess(student, 4, key)
        assert not student.exception and answer_said(student).startswith(f"Counted for the class question {code}")
    counts = shared_tally().counts(code, now=time.time())
    assert counts.voters == 3 and counts.counts[3] == 2 and counts.counts[10] == 1
    teacher.run()
    bars = chart(teacher, "lesson.tally")["data"][0]
    assert list(bars["y"])[:4] == ["0: The", "1: movie", "2: was", "3: not"] and list(bars["x"])[3] == 2
    assert "3 answered" in chart(teacher, "lesson.tally")["layout"]["title"]["text"]


def test_a_wrong_class_code_is_said_and_nothing_is_counted():
    student = open_app()
    use_control(student, "predict", "most")
    student.text_input(key="class.join").input("ZZZZZZ").run()
    assert "No open question has the code ZZZZZZ" in texts(student.warning)
    assert button  # the page still works: a prediction is simply not counted
    guess(student, 4, 3)
    assert not student.exception


# Plotly's HTML subset, $…$ (LaTeX) and direction overrides: none may reach a chart's text.
PLOTLY_MARKUP = re.compile(r"<\s*/?\s*(a|span|br|b|i|em|sub|sup|s|u)\b|\$|[\u202a-\u202e\u2066-\u2069]", re.IGNORECASE)


def present_hostile_lesson():
    at = open_app("lesson_plans", lesson=hostile_lesson())
    assert any("evil" in m.value for m in at.markdown)  # the step's sentence, in the list of steps
    assert [m.value for m in at.markdown if gfm_autolinks(m.value)] == []
    at.button(key="plan.present").click().run()
    return follow(at)


def lesson_words(at) -> list[str]:
    words = [m.value for m in at.markdown if "step 1 of 1" in m.value]
    assert len(words) == 1, texts(at.markdown)
    return words


def test_a_hostile_lesson_shows_no_link_and_no_markup_in_the_bar():
    at = present_hostile_lesson()
    (asked,) = lesson_words(at)
    assert "evil" in asked and gfm_autolinks(asked) == [] and "<" not in asked.replace("\\<", "")
    assert [m.value for m in at.markdown if gfm_autolinks(m.value)] == []  # nor anywhere else on the page
    at.button(key="lesson.next").click().run()  # the answer, with the note
    (answered,) = lesson_words(follow(at))
    assert "answers" in answered and gfm_autolinks(answered) == []
    assert f"**{HOSTILE_TITLE}**" in spoken(answered) and HOSTILE_NOTE in spoken(answered)  # read aloud as written


def test_a_hostile_question_is_plain_text_in_the_class_chart():
    at = present_hostile_lesson()
    at.button(key="lesson.ask").click().run()
    figure = chart(at, "lesson.tally")
    title = figure["layout"]["title"]["text"]
    assert title == "0 answered"  # the question is said in the bar, whole (lesson_words)
    assert all(PLOTLY_MARKUP.search(label) is None for label in figure["data"][0]["y"])


def student_in(teacher) -> tuple[object, str]:
    """A student who opened the short address on the teacher's screen."""
    code = teacher.session_state[ASKING].code
    return open_app(join=code), code


def test_the_class_bars_stay_through_answer_with_the_right_answer_marked_and_go_with_next():
    teacher = present_ready("Attention in 15 minutes")  # step 1: which word will “good” attend to most? (“not”)
    teacher.button(key="lesson.ask").click().run()
    for key in (3, 10):
        student, code = student_in(teacher)
        guess(student, 4, key)
    teacher.button(key="lesson.next").click().run()  # Answer: the question closes, its bars stay
    bars = chart(follow(teacher), "lesson.tally")
    assert list(bars["data"][0]["y"])[3] == "✓ 3: not" and "✓" not in "".join(bars["data"][0]["y"][4:])
    assert list(bars["data"][0]["x"]) == [0, 0, 0, 1] + [0] * 6 + [1, 0]
    assert bars["layout"]["title"]["text"] == "2 answered"
    assert "Right answer: **3: not**" in texts(teacher.markdown).replace("\\", "")  # shown literally
    with pytest.raises(AttnvizInputError, match="has closed"):
        shared_tally().answer(code, "late", 0, now=time.time())
    teacher.button(key="lesson.next").click().run()  # Next: another step, the bars go
    assert "lesson.tally" not in chart_keys(follow(teacher))


def send_lesson_key(at, move: str):
    """A key pressed while a lesson is presented, as the page's script sends it: the trigger "move"."""
    (keys,) = [c for c in at.get("bidi_component") if c.proto.component_name == "attnviz_lesson_keys"]
    states = at._tree.get_widget_states()
    states.widgets.append(trigger_state(keys.proto.id, "move", move))
    return at._run(states)


def test_a_key_asks_the_class_and_shows_its_code_large():
    teacher = present_ready("Attention in 15 minutes")
    send_lesson_key(teacher, "ask")
    code = teacher.session_state[ASKING].code
    send_lesson_key(teacher, "qr")
    assert [c.value for c in teacher.code if c.value.endswith(f"?join={code}")]


def test_the_teacher_sees_how_many_answered_and_a_vote_after_the_step_moved_on_is_refused():
    teacher = present_ready("Attention in 15 minutes")
    teacher.button(key="lesson.ask").click().run()
    student, code = student_in(teacher)
    guess(student, 4, 3)
    teacher.run()
    assert f"Class code **{code}**" in texts(teacher.markdown)
    assert chart(teacher, "lesson.tally")["layout"]["title"]["text"] == "1 answered"  # students, not answers
    teacher.button(key="lesson.next").click().run()  # "Answer": the step moves on, its question closes
    assert teacher.session_state[ASKING].code is None
    guess(student, 4, 10)  # a late change of mind
    assert f"not counted for the class: The question {code} has closed" in spoken(answer_said(student))
    with pytest.raises(AttnvizInputError, match="has closed"):
        shared_tally().counts(code, now=time.time())


@pytest.mark.parametrize("move", ["lesson.back", "lesson.stop"])
def test_back_and_stop_close_the_class_question_too(move):
    step = plans.Step(encode(OPENING, "playground"), question="Which key?")
    teacher = open_app("lesson_plans", lesson=plans.to_link(plans.LessonPlan("Two questions", (step, step))))
    follow(teacher.button(key="plan.present").click().run())
    follow(teacher.button(key="lesson.next").click().run())  # step 1's answer
    follow(teacher.button(key="lesson.next").click().run())  # step 2's question: Back can go back
    teacher.button(key="lesson.ask").click().run()
    code = teacher.session_state[ASKING].code
    teacher.button(key=move).click().run()
    with pytest.raises(AttnvizInputError, match="has closed"):
        shared_tally().answer(code, "late", 0, now=time.time())


def spent(at, kind: str):
    """The session's bucket for ``kind`` emptied until an hour from now, as a loop of answers or guesses leaves it."""
    joined = at.session_state[CLASS] if CLASS in at.session_state else Joined()
    at.session_state[CLASS] = replace(joined, rates={kind: Bucket(5, 0.5, tokens=0, at=time.time() + 3600)})
    return at


def test_code_guesses_and_answers_past_the_session_s_rate_are_refused_in_plain_words():
    teacher = present_ready("Attention in 15 minutes")
    teacher.button(key="lesson.ask").click().run()
    guesser = spent(open_app(), "code")
    use_control(guesser, "predict", "most")
    guesser.text_input(key="class.join").input(teacher.session_state[ASKING].code).run()
    assert "Too many codes tried at once" in texts(guesser.warning)
    assert guesser.session_state[CLASS].code is None  # the right code, but not even looked up
    student, code = student_in(teacher)
    guess(spent(student, "answer"), 4, 3)
    assert "too many answers at once" in answer_said(student)
    assert shared_tally().counts(code, now=time.time()).voters == 0


def test_reloads_of_one_browser_count_once_and_a_crafted_id_is_the_session_s_own():
    teacher = present_ready("Attention in 15 minutes")
    teacher.button(key="lesson.ask").click().run()
    for reload in range(4):  # one browser reloading: a new session each time, the same localStorage
        student, code = student_in(teacher)
        send_browser_voter(student, "0123456789abcdef" * 2)
        guess(student, 4, 3 if reload < 3 else 10)  # the last answer counts
    for crafted in ("x" * 5000, {"id": 1}, ["0123456789abcdef" * 2], "0123456789ABCDEF" * 2):
        student, code = student_in(teacher)
        send_browser_voter(student, crafted)
        guess(student, 4, 3)
        assert not student.exception
    counts = shared_tally().counts(code, now=time.time())
    assert counts.voters == 1 + 4 and counts.counts[10] == 1 and counts.counts[3] == 4


def test_a_lesson_link_opens_on_lesson_plans_ready_to_present():
    link = plans.to_link(plans.READY["Why the mask and the scale exist"])
    at = open_app(lesson=link)  # the app's address with ?lesson=…, as a teacher pastes it
    assert at.session_state[LESSON].plan == plans.READY["Why the mask and the scale exist"]
    assert "The lesson from the link is open below: Present starts it." in texts(at.success).replace("\\", "")
    assert at.button(key="plan.present").label == "Present" and "lesson" not in at.query_params
    follow(at.button(key="plan.present").click().run())
    assert at.session_state[LESSON].run[1:] == (0, False)


def test_after_the_last_step_the_lesson_ends_on_an_end_screen_and_back_returns():
    plan = plans.READY["Why the mask and the scale exist"]
    at = present_ready(plan.title)
    screens = sum(2 if step.question else 1 for step in plan.steps)
    for _ in range(screens):  # Next through every question and answer, and once past the last
        follow(at.button(key="lesson.next").click().run())
    assert at.session_state[LESSON].run[1] == len(plan.steps)
    assert f"the end: all {len(plan.steps)} steps shown" in texts(at.markdown) and "lesson.next" not in [
        b.key for b in at.button
    ]
    follow(at.button(key="lesson.back").click().run())  # the last step again, as Next left it
    assert at.session_state[LESSON].run[1:] == (len(plan.steps) - 1, bool(plan.steps[-1].question))
    at.button(key="lesson.next").click().run()
    at.button(key="lesson.stop").click().run()
    assert at.session_state[LESSON].run is None


def test_a_teachers_own_question_covers_the_views_in_their_words_with_the_cover_they_chose():
    """"Which keys can “amazing” still see?" was covered by "which key will “amazing” attend to most?", and
    the lens (the focus row, large) showed the −∞ that answers it. The editor's cover choice decides the question's
    kind; the cover says the teacher's words; the lens waits for the answer."""
    setup = replace(OPENING, focus=10)
    step = plans.Step(encode(setup), question="Which keys can “amazing” still see?")
    at = open_app("lesson_plans", lesson=plans.to_link(plans.LessonPlan("Own", (step,))))
    (choice,) = [box for box in at.selectbox if box.label == "Cover while it asks"]
    assert choice.options == ["The setup's own question (else: which key most?)", "No cover: the views stay open",
                              *[KINDS[kind] for kind in KINDS if kind]]  # fmt: skip
    choice.set_value("zeroed").run()
    assert at.session_state[LESSON].plan.steps[0].cover == "zeroed"
    follow(at.button(key="plan.present").click().run())
    weights = views(at)["weights"]
    assert weights["cover"] == "Which keys can “amazing” still see? Click each key (again to take it back), then Check."
    assert views_data(at)["lens"] is None and at.session_state["presenter"] is True  # no −∞ row before the answer
    follow(at.button(key="lesson.next").click().run())  # Answer: the mask on, the views and the lens open
    assert "cover" not in views(at)["weights"] and views_data(at)["lens"] is not None and playground(at).causal
    none = plans.edit_step(at.session_state[LESSON].plan, 0, cover="none")
    plain = open_app("lesson_plans", lesson=plans.to_link(none))
    follow(plain.button(key="plan.present").click().run())
    assert "cover" not in views(plain)["weights"]  # no cover: the question is in the bar, the views stay open


def test_a_cover_no_question_of_predict_mode_asks_is_refused():
    with pytest.raises(AttnvizInputError, match="cover is not one of the questions"):
        plans.edit_step(plans.READY["Attention in 15 minutes"], 0, cover="which word")
