"""Help a student can read on a phone or a projector: no control's help hides behind a hover (Streamlit's help icon
opens on hover only; a tap does not open it). Help is a line in sight, or the views' own (i) buttons."""

from attnviz.pages import PAGES
from tests.support.apptest import open_app

# Where a hover is enough: the presenter switch says what it does in its label; a metric's help defines its word,
# and the line under the metrics says what the numbers mean.
HOVER_ONLY_ALLOWED = {"Presenter mode"}


def test_no_control_keeps_its_help_behind_a_hover():
    at = open_app()
    for page in PAGES:
        at.switch_page(page.file).run()
        hidden = [
            widget.label
            for kind in ("toggle", "checkbox", "selectbox", "slider", "number_input", "text_input", "button", "radio")
            for widget in at.get(kind)
            if getattr(widget, "help", "") and widget.label not in HOVER_ONLY_ALLOWED
        ]
        assert hidden == [], page.name
