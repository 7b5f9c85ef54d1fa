"""Real model: every attention head of a pretrained encoder and decoder, computed by attnviz.attention, one head
up close, and any head handed to the Playground."""

from functools import partial

import numpy as np
import streamlit as st

from attnviz.core.limits import MAX_TEMPERATURE, MIN_TEMPERATURE
from attnviz.figures import real_model as figs
from attnviz.lessons import real_model as words
from attnviz.ui import predict, state
from attnviz.ui.attention_grid import clicked_cell, show_matrices
from attnviz.ui.charts import clicked_item, show_chart
from attnviz.ui.explain import explain_views, take_away
from attnviz.ui.model_runs import model_choice, model_run, overview_for_readers, shown_run, sinks_status
from attnviz.ui.playground_host import predicts as playground_predicts
from attnviz.ui.playground_import import open_in_playground
from attnviz.ui.presenter import chart_font_size, presenting
from attnviz.ui.routes import through_the_router
from attnviz.ui.text import literal

through_the_router()  # a fresh server's first visit to this address: through app.py

PAGE = "real_model"
SENTENCE = "The animal didn't cross the street because it was too tired."
font = chart_font_size()

heading, sentence_box, model_box, open_box = st.columns([1, 2.4, 1.2, 1.2], vertical_alignment="bottom")
heading.title("A real model")
sentence = sentence_box.text_input("Sentence", **state.page_setting(PAGE, "sentence", SENTENCE))
model = model_choice(PAGE, model_box, open_box)  # the shipped two, or a model opened by its hub id or folder
run = model_run(model, sentence)
tokens, n = run.tokens, len(run.tokens)
sinks = words.sink_words(tokens, run.sinks)
st.caption(words.run_caption(words.model_label(model), words.kind(run.causal, run.family), run.n_layers, run.n_heads, n))


def choose(key: str, maps=None) -> None:
    """A click chooses what a picture shows: a head on the overview (``maps``), the query on the head's map or lines."""
    chosen = None
    if key == "rm.lines":  # ECharts: (series, item); its first series holds the queries
        item = clicked_item(key)
        chosen = {"query": item[1]} if item and item[0] == 0 else None
    elif (cell := clicked_cell(key)) is not None:
        chosen = {"query": cell[1]} if maps is None else cell[2] is not None and maps.head_at(cell[1], cell[2])
    for name, value in (chosen or {}).items():
        if name != "query" or value < n:  # a query past the sentence: only a crafted message names one
            state.set_setting(PAGE, name, value)


# ----------------------------------------------------------------------------- every head, and the chosen one
overview_column, rail = st.columns([2.6, 1], gap="medium")
with rail:
    hide = st.toggle("Hide the attention sinks", **state.page_setting(PAGE, "hide_sinks", False))
    st.caption(words.sinks_caption(literal(sinks)))  # help in sight, not behind a hover: a phone, a projector
    shown = shown_run(run, hide=hide)
    attention, stats = shown.attention, shown.stats  # (layers, heads, n, n), and each head's measured label
    layer_box, head_box = st.columns(2)
    layer = layer_box.selectbox(
        "Layer", range(run.n_layers), format_func=lambda i: str(i + 1),
        **state.page_setting(PAGE, "layer", 0, options=range(run.n_layers)),
    )  # fmt: skip
    head = head_box.selectbox(
        "Head", range(run.n_heads), format_func=lambda i: str(i + 1),
        **state.page_setting(PAGE, "head", 0, options=range(run.n_heads)),
    )  # fmt: skip
    st.markdown(words.head_summary(stats, layer, head, literal(sinks)))
    if st.button("Open in Playground", icon=":material/open_in_new:", type="primary", width="stretch"):
        qkv = (run.q[layer, head], run.k[layer, head], run.v[layer, head])  # (n, d_head) each
        title = f"{words.model_label(model)}, {words.head_name(layer, head).lower()}"
        tokens_shown = [words.visible_token(token) for token in tokens]
        open_in_playground(tokens_shown, *qkv, causal=run.causal, title=title, sentence=run.sentence)
    st.caption(words.open_caption(n, run.q.shape[-1]))
sinks_status(hide, sinks)  # said when the switch changes

# ----------------------------------------------------------------------------- one head up close, and its check
weights, name = attention[layer, head], words.head_name(layer, head)  # (n, n)
st.subheader("Is this attention an explanation?")
square, check = st.columns([1, 1.2], gap="medium")  # the head's map, and its checks beside it
picker, lines = st.columns([1, 2.4], gap="medium")
with picker:
    query = st.selectbox(
        "Query token (orange lines)",
        range(n),
        format_func=lambda i: f"{i}: {words.visible_token(tokens[i])}",
        **state.page_setting(PAGE, "query", words.last_word(tokens, run.sinks), options=range(n)),
    )
    st.caption(words.lines_caption(figs.lines_not_drawn(weights, query)))
with square:
    up_close = figs.head_map(weights, tokens, causal=run.causal, query=query, title=f"{name}: weights", font_size=font)
    maps, asked, asking = [up_close], [], False  # asking: the views beside it and the lines, the same weights, wait
    if playground_predicts():  # the Playground's predict mode: which key the query attends to most, asked first
        hidden = np.triu(np.ones((n, n), bool), 1) if run.causal else None
        maps, asked, asking = predict.ask_rows(PAGE, maps, [(weights, hidden)], query)  # says what an answer reveals
    show_matrices(maps, key="rm.head", height=figs.head_map_height(n, presenting=presenting()), font_size=font,
                  on_cell=partial(choose, "rm.head"), on_guess=partial(predict.guess, "rm.head", asked),
                  enter="Enter makes its row the query.")  # fmt: skip
with check:
    explain_views(run, layer, head, query, font, asking=asking)
with overview_column:  # filled last: while the head up close asks, its small map waits too
    overview, height = figs.overview(shown.maps, chosen=(layer, head), font_size=font, asking=asking)
    show_matrices(
        [overview],
        key="rm.overview",
        height=height,
        font_size=font,
        on_cell=partial(choose, "rm.overview", shown.maps),
        enter="Enter chooses this head.",
    )
    st.caption(words.overview_words(shown.maps.layers_across, shown.maps.side, n, stats))
    overview_for_readers(stats)
with lines:
    if asking:
        st.caption(words.LINES_WAIT)
    else:
        st.echarts_chart(figs.line_view(weights, tokens, focus=query, title=f"{name}: who looks at whom", font_size=font),
                         key="rm.lines", height=60 + 17 * n, on_select=partial(choose, "rm.lines"))  # fmt: skip

# ----------------------------------------------------------------------------- the decoder's next token
if run.causal:
    st.subheader("What comes next")
    slider, bars = st.columns([1, 2.4], gap="medium")
    temperature = slider.slider(
        "Temperature τ", MIN_TEMPERATURE, MAX_TEMPERATURE, step=0.05, **state.page_setting(PAGE, "temperature", 1.0)
    )
    slider.markdown(words.NEXT_TOKEN_TEXT)
    predicted = run.next_token(temperature)
    labels, probabilities = words.next_token_rows(predicted.tokens, predicted.probabilities, predicted.other)
    show_chart(figs.next_token_bars(labels, probabilities, temperature=temperature), key="rm_next", container=bars)

with check:
    take_away(run)  # last: a token taken away may make the page wait for its run
