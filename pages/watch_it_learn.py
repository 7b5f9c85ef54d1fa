"""Watch it learn: train the reference text's tiny transformer and watch where [CLS]'s attention goes, by label.

The run trains in the server's worker process (attnviz.train.background), never in this script: a fragment reads
its latest progress twice a second, so the page (and every other student's) stays answerable while it learns.
"""

import streamlit as st

from attnviz import AttnvizInputError
from attnviz.core.limits import MAX_EPOCHS, MAX_SAMPLES, MAX_SEED, MIN_SAMPLES
from attnviz.figures.training import cls_rows_option, curves_option
from attnviz.lessons import training as words
from attnviz.train import TrainConfig, background
from attnviz.train.config import LARGEST_TOKEN, SMALLEST_TOKEN
from attnviz.ui import induction, state
from attnviz.ui.classroom import share_link_box
from attnviz.ui.playground_import import open_in_playground
from attnviz.ui.presenter import chart_font_size
from attnviz.ui.routes import through_the_router, training_owner
from attnviz.ui.text import literal
from attnviz.ui.training_run import keep_runs, runs, watched

through_the_router()  # a fresh server's first visit to this address: through app.py

PAGE = "watch_it_learn"
POLL_S = 0.5  # the live view reads the worker's progress this often
CHART_HEIGHT = 300
background.warm_up()  # the worker spawns while the student reads, not when Train is pressed

st.title("Watch attention learn")
if induction.chosen(PAGE):  # the experiment chooser; the second, induction heads, is attnviz.ui.induction's
    induction.show()  # with its share link
    st.stop()
st.caption(words.TASK_TEXT)


def settings() -> None:
    """The run's settings, two to a row; they keep their values while the student visits other pages."""

    def bound(name: str, **options) -> dict:
        return state.page_setting(PAGE, name, getattr(words.PAGE_DEFAULTS, name), **options)

    left, right = st.columns(2)
    left.number_input("Samples", MIN_SAMPLES, MAX_SAMPLES, step=500, **bound("samples"))
    right.number_input("Epochs", 1, MAX_EPOCHS, **bound("epochs"))
    rates = words.LEARNING_RATES
    left.selectbox("Learning rate", rates, format_func="{:g}".format, **bound("learning_rate", options=rates))
    right.number_input("Seed", 0, MAX_SEED, **bound("seed"))
    left.selectbox("Target position", words.POSITIONS, **bound("target_position", options=words.POSITIONS))
    right.number_input("Target value", SMALLEST_TOKEN, LARGEST_TOKEN, **bound("target_value"))
    st.toggle("Balanced sampling", **bound("balanced"))
    st.caption(words.SETTINGS_HELP)  # in sight, no hover


def chosen_config() -> TrainConfig:
    """The settings as they are now (also in a button's callback, where a just-typed number is already in)."""
    chosen = {name: state.setting_value(PAGE, name, getattr(words.PAGE_DEFAULTS, name)) for name in words.SETTINGS}
    return TrainConfig(**chosen)


def start_run() -> None:
    try:
        keep_runs(run=background.start(chosen_config(), training_owner()))
    except AttnvizInputError as error:
        state.say(str(error))


def charts(history, total_steps: int, cls_rows, target: int, *, at_step: int | None = None) -> None:
    font = chart_font_size()
    curves, rows = st.columns([1.2, 1], gap="small")
    option = curves_option(history, total_steps, at_step=at_step, font_size=font)
    curves.echarts_chart(option, key="chart.curves", height=CHART_HEIGHT)
    option = cls_rows_option(cls_rows, target, words.POSITION_LABELS, title=words.ROWS_TITLE, font_size=font)
    rows.echarts_chart(option, key="chart.cls_row", height=CHART_HEIGHT)


def last_snapshot(result) -> None:
    state.set_setting(PAGE, "snapshot", result.snapshots[-1].step)  # the scrubber starts at the end


@st.fragment(run_every=POLL_S if runs().run is not None else None)
def live_view() -> None:
    """While a run trains or waits: its progress, a Stop button and the charts, redrawn from the worker's latest."""
    run, progress = watched("run", "result", words.progress_text, on_result=last_snapshot)
    cls_rows = progress.cls_rows if progress else words.starting_rows(run.config)
    charts(progress.history if progress else (), run.config.total_steps, cls_rows, run.config.target_position)


def result_view(result, config: TrainConfig) -> None:
    """After a run: scrub through its snapshots, its held-out numbers, the lesson, and its head in the Playground."""
    steps = [snapshot.step for snapshot in result.snapshots]
    chosen = state.page_setting(PAGE, "snapshot", steps[-1], options=steps)
    step = st.select_slider("Scrub through training (step)", steps, format_func="{:,}".format, **chosen)
    index = steps.index(step)
    target = result.config.target_position
    charts(result.history, result.config.total_steps, result.snapshots[index].cls_rows, target, at_step=step)
    st.caption(literal(words.snapshot_text(result, index)))
    for column, metric in zip(st.columns(4), words.final_metrics(result), strict=True):
        column.metric(metric.label, metric.value, help=metric.help)
    st.caption(literal(words.verdict_text(result)))
    if note := words.stale_note(result, config):
        st.warning(literal(note), icon=":material/update:")
    lesson, playground = st.columns([2.6, 1], vertical_alignment="center")
    lesson.success(literal(words.attention_lesson(result)), icon=":material/school:")
    positive = playground.toggle("A positive sample", **state.page_setting(PAGE, "positive_sample", True))
    playground.caption(words.sample_help(result.config))
    if playground.button("Open in Playground", icon=":material/open_in_new:", width="stretch"):
        tokens = result.example(positive)
        title = words.sample_title(result.config, tokens)
        open_in_playground(words.sample_labels(tokens), *result.qkv(tokens), causal=False, title=title, focus=0)


rail, main = st.columns([1.15, 3.2], gap="medium")
with rail:
    settings()
    config = chosen_config()
    problem = words.config_problem(config)
    busy = runs().run is not None
    blocked = busy or problem is not None
    st.button("Train", type="primary", icon=":material/play_arrow:", disabled=blocked, on_click=start_run,
              width="stretch")  # fmt: skip
    if problem:
        st.error(literal(problem), icon=":material/back_hand:")
    for message in state.take_messages():
        st.warning(literal(message), icon=":material/info:")
with main:
    if busy:
        live_view()
    elif (result := runs().result) is not None:
        result_view(result, config)
    elif problem is None:
        st.info(words.IDLE_TEXT, icon=":material/play_arrow:")
        charts((), config.total_steps, words.starting_rows(config), config.target_position)
share_link_box(PAGE)
