"""Help a student can read on a phone or a projector: no control's help hides behind a hover (Streamlit's help icon
opens on hover only; a tap does not open it). Help is a line in sight, or the views' own (i) buttons.

Every page as it opens, and the controls only some states draw: a student's class code box (the Playground in predict
mode, joined to a class question) and a lesson's bar (Back, Next, Stop, Ask the class) while a teacher presents."""

import pytest

from attnviz.pages import PAGES
from attnviz.ui.class_question import ASKING
from tests.app.test_lesson_plans import present_ready
from tests.support.apptest import open_app

# Where a hover is enough: the presenter switch says what it does in its label.
HOVER_ONLY_ALLOWED = {"Presenter mode"}
KINDS = ("toggle", "checkbox", "selectbox", "multiselect", "select_slider", "slider", "number_input", "text_input",
         "text_area", "button", "radio", "color_picker", "date_input", "time_input")  # fmt: skip


def behind_a_hover(at) -> list[str]:
    """The labels of the controls drawn now whose help only a hover shows; and the page drew controls at all."""
    assert not at.exception, [e.value for e in at.exception]
    controls = [widget for kind in KINDS for widget in at.get(kind)]
    assert controls  # a page that failed to draw would have no help to hide
    return [w.label for w in controls if getattr(w, "help", "") and w.label not in HOVER_ONLY_ALLOWED]


@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_no_control_keeps_its_help_behind_a_hover(page):
    assert behind_a_hover(open_app().switch_page(page.file).run()) == []


def test_nor_does_a_lesson_bar_or_a_students_class_code_box():
    teacher = present_ready("Attention in 15 minutes")  # step 1 asks the class on the Playground
    assert teacher.button(key="lesson.next").label == "Answer"  # the bar is drawn
    assert behind_a_hover(teacher) == []
    teacher.button(key="lesson.ask").click().run()
    student = open_app(join=teacher.session_state[ASKING].code)
    assert student.text_input(key="class.join").value  # the code box is drawn, the code in it
    assert behind_a_hover(student) == []
    assert "Your prediction is added to the class's bars, without your name." in [c.value for c in student.caption]
