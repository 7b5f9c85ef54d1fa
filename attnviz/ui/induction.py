"""Watch it learn's second experiment in Streamlit: train one or two attention-only layers on repeated random
sequences in the training worker, watch the phase change live, then read the heads, predict, knock them out, and
try to fool the model.

The run trains in the worker (attnviz.train.background), counted against the same limits as the first experiment's:
the session's one run, whichever experiment it belongs to."""

from __future__ import annotations

from contextlib import nullcontext
from functools import partial

import numpy as np
import streamlit as st

from attnviz import AttnvizInputError
from attnviz.core.limits import MAX_SEED
from attnviz.figures.induction import losses_option, prefix_scores_option
from attnviz.figures.real_model import head_map, head_map_height
from attnviz.lessons import induction as words
from attnviz.train import background
from attnviz.train.induction import InductionConfig
from attnviz.ui import predict, state
from attnviz.ui.attention_grid import share_the_instrument, show_matrices
from attnviz.ui.classroom import share_link_box
from attnviz.ui.playground_import import open_in_playground
from attnviz.ui.presenter import chart_font_size
from attnviz.ui.routes import training_owner
from attnviz.ui.text import literal
from attnviz.ui.training_run import keep_runs, runs, watched

PAGE = "watch_it_learn"
POLL_S = 0.5
CHART_HEIGHT = 300
STEP_CHOICES = (1000, 2000, 3000, 4000)
DRAWN_SEED = 55  # the fresh sequence drawn after training: r as long as it gets, never trained on
DEFAULTS = InductionConfig()


def chosen(page: str) -> bool:
    """The page's experiment chooser: True when the student has chosen this one."""
    experiments = words.EXPERIMENTS
    bound = state.page_setting(page, "experiment", experiments[0], options=experiments)
    # Radio buttons, not a segmented control: its chosen segment's text (the primary colour on a tint of it) fell
    # under 4.5 : 1 in the dark theme (axe-core, tests/e2e/test_accessibility.py).
    return st.radio("Experiment", experiments, horizontal=True, **bound) == experiments[1]


def _bound(name: str, default, **options) -> dict:
    return state.page_setting(PAGE, f"induction_{name}", default, **options)


def _value(name: str, default):
    return state.setting_value(PAGE, f"induction_{name}", default)


def settings() -> None:
    st.radio("Layers", (1, 2), horizontal=True, **_bound("layers", DEFAULTS.layers, options=(1, 2)))
    left, right = st.columns(2)
    left.selectbox(
        "Steps", STEP_CHOICES, format_func="{:,}".format, **_bound("steps", DEFAULTS.steps, options=STEP_CHOICES)
    )
    right.number_input("Seed", 0, MAX_SEED, **_bound("seed", DEFAULTS.seed))
    st.caption(words.SETTINGS_HELP)


def chosen_config() -> InductionConfig:
    layers = _value("layers", DEFAULTS.layers) or DEFAULTS.layers  # a segmented control can be emptied
    return InductionConfig(layers=layers, steps=_value("steps", DEFAULTS.steps), seed=_value("seed", DEFAULTS.seed))


def start_run() -> None:
    try:
        keep_runs(induction_run=background.start(chosen_config(), training_owner()))
    except AttnvizInputError as error:
        state.say(str(error))


def charts(history, total_steps: int) -> None:
    """The two halves' losses and every head's prefix-matching score, the phase change marked on both."""
    font = chart_font_size()
    at = words.phase_step([e["step"] for e in history], [e["prefix"] for e in history]) if history else None
    losses, scores = st.columns(2, gap="small")
    losses.echarts_chart(
        losses_option(history, total_steps, at, font_size=font), key="chart.induction_loss", height=CHART_HEIGHT
    )
    option = prefix_scores_option(history, total_steps, at, words.PHASE_SCORE, font_size=font)
    scores.echarts_chart(option, key="chart.induction_prefix", height=CHART_HEIGHT)


@st.fragment(run_every=POLL_S)
def live_view() -> None:
    """While a run trains or waits: its progress, Stop, and the two charts from the worker's latest progress."""
    run, progress = watched("induction_run", "induction_result", words.progress_text, stop_key="induction.stop")
    charts(progress.history if progress else (), run.config.steps)


def maps(result, heads: list[int], tokens, labels: list[str], query: int, font: int) -> None:
    """The last layer's head on a fresh [r; r], asked first, and the first layer's head it reads from (``heads``:
    the head drawn of each layer)."""
    share_the_instrument()  # the router sends it only to pages that always draw views; this one draws them here
    attention = result.attention(tokens)  # (L, H, n, n)
    last, head = result.config.layers - 1, heads[-1]
    n = len(tokens)
    height = head_map_height(n, presenting=False)  # as tall on a projector: the class reads its cells
    title = f"{words.head_name(last, head).capitalize()}: weights"
    view = head_map(attention[last, head], labels, causal=True, query=query, title=title, font_size=font)
    future = np.triu(np.ones((n, n), bool), 1)
    shown, asked, asking = predict.ask_rows(PAGE, [view], [(attention[last, head], future)], query)
    columns = st.columns(result.config.layers, gap="small")
    with columns[-1]:
        show_matrices(shown, key="induction.last", height=height, font_size=font,
                      on_guess=partial(predict.guess, "induction.last", asked))  # fmt: skip
    if result.config.layers == 2:
        first = heads[0]
        title = f"{words.head_name(0, first).capitalize()}: weights"
        with columns[0]:
            show_matrices([head_map(attention[0, first], labels, causal=True, query=query, title=title, font_size=font)],
                          key="induction.first", height=height, font_size=font)  # fmt: skip
    if not asking:  # the sentence gives the answer away
        predicted = result.next_token(tokens)[query]
        said = words.example_text(tokens, query, len(tokens) // 2, attention[last, head, query], predicted)
        st.markdown(literal(said))
    st.caption(words.MAPS_HELP)


def knockouts(result) -> None:
    """A switch a head: its output zeroed, and the copy accuracy measured with and without."""
    config = result.config
    pairs = [(layer, head) for layer in range(config.layers) for head in range(config.heads)]
    columns = st.columns(len(pairs))
    knocked = [
        pair for pair, column in zip(pairs, columns, strict=True)
        if column.toggle(f"Switch off {words.head_name(*pair)}", key=f"induction.off.{pair[0]}.{pair[1]}")
    ]  # fmt: skip
    st.info(
        literal(words.knockout_text(knocked, result.copy_accuracy(), result.copy_accuracy(knocked))),
        icon=":material/power_off:",
    )


def challenge(result) -> None:
    """Make a sequence the trained model copies wrongly, checked from its own predictions."""
    typed = st.text_input(
        words.CHALLENGE_LABEL.format(top=result.vocab_size - 1, longest=result.seq_len), key="induction.challenge"
    )
    if not typed:
        st.caption(words.CHALLENGE_HINT)
        return
    try:
        r = words.parse_tokens(typed, result.vocab_size, result.seq_len)
    except AttnvizInputError as error:
        st.error(literal(str(error)), icon=":material/back_hand:")
        return
    tokens = np.array(r + r)
    solved, text = words.challenge_text(tokens, result.next_token(tokens))
    (st.success if solved else st.info)(literal(text), icon=":material/flag:")


def result_view(result) -> None:
    """After a run: the charts, what happened in words, the heads on a fresh sequence, knock-outs and the challenge."""
    font = chart_font_size()
    charts(result.history, result.config.steps)
    st.caption(literal(words.phase_text(result.log_steps, result.first_half_loss, result.repeated_half_loss,
                                        result.prefix_matching, result.vocab_size)))  # fmt: skip
    if note := words.stale_note(result.config, chosen_config()):
        st.warning(literal(note), icon=":material/update:")
    prefix, previous, duplicate = result.head_scores()
    heads = words.drawn_heads(prefix, previous, duplicate)
    st.success(literal(words.circuit_text(result.config.layers, result.copy_accuracy(), prefix, previous, duplicate)),
               icon=":material/school:")  # fmt: skip
    tokens = result.fresh(1, DRAWN_SEED, length=result.seq_len).tokens[0]  # (2T,)
    labels = [str(token) for token in tokens]
    T = result.seq_len
    ask, playground = st.columns([2, 1], vertical_alignment="bottom")
    query = ask.selectbox(words.QUERY_LABEL, range(T, 2 * T - 1), format_func=lambda i: f"{i}: {labels[i]}",
                          **_bound("query", 2 * T - 2, options=range(T, 2 * T - 1)))  # fmt: skip
    layer = playground.selectbox("Layer for the Playground", range(result.config.layers), format_func=lambda i: str(i + 1),
                                 index=result.config.layers - 1, key="induction.playground_layer")  # fmt: skip
    if playground.button("Open in Playground", icon=":material/open_in_new:", width="stretch", key="induction.open"):
        title = f"Induction experiment, {words.head_name(layer, heads[layer])}, on a fresh [r; r]"
        open_in_playground(labels, *result.qkv(tokens, layer, heads[layer]), causal=True, title=title, focus=query)
    maps(result, heads, tokens, labels, query, font)
    knockouts(result)
    challenge(result)


def show() -> None:
    """The experiment: settings and Train on the left, the run or its result on the right."""
    st.caption(words.TASK_TEXT)  # first, above the settings on a phone too
    rail, main = st.columns([1.15, 3.2], gap="medium")
    with rail:
        busy = runs().induction_run is not None
        with st.expander("Settings of the next run") if busy else nullcontext():  # folded: a phone sees the charts
            settings()
        st.button("Train", type="primary", icon=":material/play_arrow:", disabled=busy, on_click=start_run,
                  width="stretch", key="induction.train")  # fmt: skip
        for message in state.take_messages():
            st.warning(literal(message), icon=":material/info:")
    with main:
        if busy:
            live_view()
        elif (result := runs().induction_result) is not None:
            result_view(result)
        else:
            st.info(words.IDLE_TEXT, icon=":material/play_arrow:")
            charts((), chosen_config().steps)
    share_link_box(PAGE)
