"""Playground: type a sentence, set Q, K and V, and watch every matrix of self-attention update.

One screen holds the controls (left) and the four views they change (right); the tables sit in tabs below.
"""

from contextlib import nullcontext
from functools import partial

import streamlit as st

from attnviz.core.limits import MAX_DIM, MAX_SEED
from attnviz.core.playground_state import example_options
from attnviz.lessons.playground import example_title, first_words
from attnviz.playground.tables import least_height, tables_data
from attnviz.playground.views import playground_data
from attnviz.ui import playground_host as host
from attnviz.ui import state
from attnviz.ui.attention_grid import show_views
from attnviz.ui.challenges import bar_outdated, tried_on
from attnviz.ui.class_join import class_answer_line, in_a_class, join_box
from attnviz.ui.classroom import export_buttons, keep_address, share_box
from attnviz.ui.lesson_plan import asking_words
from attnviz.ui.lesson_plan import running as lesson_running
from attnviz.ui.presenter import chart_font_size, presenting
from attnviz.ui.routes import pass_the_run_gate, through_the_router
from attnviz.ui.text import literal, token_chips, unseen_heading
from attnviz.ui.up_close import one_token_up_close

through_the_router()  # a fresh server's first visit to this address: through app.py

PAGE = "playground"

# ----------------------------------------------------------------------------- sentence and example
if lesson_running():  # a lesson sets the page up: its bar takes the heading row's room (the h1 stays, for readers)
    unseen_heading("Attention playground")
else:
    heading, sentence, example, share = st.columns([1.45, 1.8, 1.45, 0.7], vertical_alignment="bottom")
    heading.title("Attention playground")
    sentence.text_input("Sentence", **host.playground_control("sentence"))
    example.selectbox(
        "Example",
        example_options(host.playground()),
        format_func=partial(example_title, host.playground()),
        **host.example_control(),
    )
    with share:
        share_box(PAGE)  # shows the address, which the views' runs keep equal to the share link
warnings, confirmations = state.take_messages(), state.take_confirmations()
introduced = not (presenting() or tried_on(PAGE))  # else the teacher or the challenge's bar introduces it
# What the last move said takes the introduction's room (as tall, at least), so the views and tables never move.
with st.container(key="playground_said") if introduced else nullcontext():
    if introduced and not (warnings or confirmations):
        st.caption(first_words(host.playground()))  # and what a typed sentence does
    for message in warnings:
        st.warning(literal(message), icon=":material/warning:")
    if confirmations:  # on a phone, at the foot of the screen: where the student is (attnviz/ui/text.py)
        with st.container(key="playground_confirmed"):
            for message in confirmations:
                st.success(literal(message), icon=":material/check_circle:")


# ----------------------------------------------------------------------------- controls beside the four views
TABS = ["Q, K and V", "One token up close", "Download"]
FOLLOWS_THE_VIEWS = TABS[1:]  # tabs whose contents change with a toggle or a new focus (Q, K and V do not)


@st.fragment
def attention_views() -> None:
    """A fragment: a toggle reruns only the controls and the views (one element), never the tables. A change the
    rest of the page shows (new vectors, a message, an open tab that follows the views) reruns the whole page."""
    pass_the_run_gate("fragment")
    now = host.current()
    playground = now.state
    if now.needs_full_run(open_tab_follows_views=state.open_tab(PAGE, TABS[0]) in FOLLOWS_THE_VIEWS) or bar_outdated(
        PAGE
    ):
        st.rerun()
    answered = class_answer_line() if playground.predict else None  # sent, if it can be: said under the weights
    data = playground_data(  # the controls of attnviz.playground.controls in a rail, beside the four views
        playground,
        now.previous,
        now.asked(),
        font_size=chart_font_size(),
        height=180 if not presenting() else 120,  # the least: the screen's height decides (grid.css)
        can_undo=now.can_undo,
        picks=now.current_picks(),
        lens=presenting(),  # the focus row again, large, for the back of the room
        answer_line=(answered.text, answered.tone) if answered else None,
        question=asking_words(),  # a lesson's own question, on the cover
    )
    in_class = playground.predict and in_a_class()  # a student's box goes above the views, seen first on a phone
    if in_class:
        join_box()
    show_views(key=state.VIEWS, data=data, on_event=host.on_views_event)  # a control's change or a click: one handler
    if problem := keep_address(PAGE):  # the address is the share link, current after every toggle
        st.caption(problem)
    if playground.predict and not (in_class or lesson_running()):  # a teacher presenting asks, and answers nothing
        join_box()  # a class question's code: the prediction is counted on the teacher's screen


host.note_full_run()
attention_views()

# ----------------------------------------------------------------------------- vectors, one token, downloads
playground = host.playground()
# Only the open tab runs: a toggle or a cell edit does not rebuild the tables behind the other two.
vectors, up_close, downloads = st.tabs(TABS, **state.lazy_tabs(PAGE))
with vectors:
    if vectors.open:
        token_chips(playground.tokens)
        d_k, d_v, seed, again = st.columns([2, 2, 1, 1], vertical_alignment="bottom")
        d_k.slider("d_k (size of queries and keys)", 1, MAX_DIM, **host.playground_control("d_k"))
        d_v.slider("d_v (size of values)", 1, MAX_DIM, **host.playground_control("d_v"))
        seed.number_input("Seed", 0, MAX_SEED, step=1, **host.playground_control("seed"))
        again.button("Randomise", icon=":material/casino:", width="stretch", on_click=host.randomise_again)
        now = host.current()  # a cell typed into a table is a move of the one handler; a refusal is said at them
        tables = tables_data(playground, edited=now.last_edit, warning=now.said.at_tables or "",
                             font_size=chart_font_size(), height=least_height(len(playground.labels)))  # fmt: skip
        show_views(key=state.TABLES, data=tables, on_event=host.on_views_event)  # the views' one handler
with up_close:
    if up_close.open:
        one_token_up_close(playground, asking=bool(playground.predict) and host.current().asked() is None)
with downloads:
    if downloads.open:
        export_buttons()
