"""A Playground control's change is applied, refused with a message, or (a stale widget value) ignored: an error
inside the move is never mistaken for a stale value and dropped without a word.

Found under load ("typed a sentence, pressed Enter, and still saw the default sentence"): the server's code
changed under it (Streamlit re-imports edited modules; session state keeps objects of the old classes), so sessions
held a PlaygroundState from before it gained ``imported_tokens``; the new set_sentence's ``replace(state,
imported_tokens=None)`` raised TypeError, which the control's callback took for a stale widget value. Replaying that
change under 20 load-test students (bench.load's class scenario) dropped 15 sentence changes without a word.
"""

from streamlit.testing.v1 import AppTest


def test_an_error_inside_a_move_is_not_taken_for_a_stale_widget_value():
    def script():
        import dataclasses

        import streamlit as st

        from attnviz.playground import controls
        from attnviz.ui import playground_host, state

        def broken_move(current, value):
            raise TypeError("a bug inside the move")

        kept = controls.SETTINGS["sentence"]
        controls.SETTINGS["sentence"] = dataclasses.replace(kept, move=broken_move)
        try:
            st.session_state[state.control_key("sentence")] = "A new sentence"  # a valid value, as the widget sends it
            playground_host._on_control("sentence")  # the widget's on_change, as Streamlit calls it
        finally:
            controls.SETTINGS["sentence"] = kept

    at = AppTest.from_function(script).run()
    assert [error.message for error in at.exception] == ["a bug inside the move"]
