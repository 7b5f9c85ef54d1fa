"""A choice no select box offers, as only a crafted message sends it: its shape is a select box's, so the edge lets it
through, and the field's own check refuses it where the value is read before the box is drawn again (Streamlit then
draws it with an option it offers), in one plain line, the last choice kept and no traceback: the Playground's fields
in their callback (attnviz.playground.fields), a guided page's setting as it is bound (state.page_setting)."""

from __future__ import annotations

from streamlit.proto.WidgetStates_pb2 import WidgetState

from attnviz.ui.edge import REFUSED_MESSAGE
from tests.support.apptest import as_read, control_key, open_app, playground, setting_key, texts


def send_option(at, widget, text: str):
    """The rerun a browser sends with ``text`` as ``widget``'s value (a select box's is its option's text)."""
    states = at._tree.get_widget_states()
    others = [state for state in states.widgets if state.id != widget.proto.id]
    del states.widgets[:]
    states.widgets.extend([*others, WidgetState(id=widget.proto.id, string_value=text)])
    return at._run(states)


def test_an_example_the_box_does_not_offer_is_refused_by_the_fields_check_and_the_state_kept():
    at = open_app()
    before = playground(at)
    send_option(at, at.selectbox(key=control_key("example")), "no such example")
    assert not at.exception and playground(at) == before
    said = as_read(texts(at.warning))
    assert said == (
        "The example must be one of random, words, movie_negation, pronoun_it, cat_sat, notebook_causal, "
        "identical_keys, causal_movie, not 'no such example'. The previous example is kept."
    )
    assert REFUSED_MESSAGE not in said  # refused once, by the field, not by the edge too
    assert at.selectbox(key=control_key("example")).value == before.example  # the box shows the state again


def test_a_query_the_box_does_not_offer_is_refused_where_the_setting_is_read_and_the_last_choice_kept():
    at = open_app("step_by_step")
    key = setting_key("step_by_step", "query")
    at.selectbox(key=key).set_value(1).run()
    assert at.session_state[key] == 1 and playground(at).focus != 1  # the student's choice, not the default
    send_option(at, at.selectbox(key=key), "99")
    assert not at.exception and at.session_state[key] == 1 and at.selectbox(key=key).value == 1
    assert as_read(texts(at.warning)) == "“99” is not one of the choices offered, so it was ignored."
    at.selectbox(key=key).set_value(2).run()  # and the box goes on working
    assert at.session_state[key] == 2 and "is not one of the choices" not in texts(at.warning)
