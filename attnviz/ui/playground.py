"""Streamlit controls and views of the Playground. Widgets write through callbacks into one PlaygroundState."""

from __future__ import annotations

import html
from dataclasses import replace

import pandas as pd
import streamlit as st

from attnviz import PRESETS
from attnviz.errors import AttnvizInputError
from attnviz.explain import formula_latex, mask_explanation, number, row_arithmetic, vector_text, weighted_sum_terms
from attnviz.figures import TEXT_LIMIT, matrix_heatmap, weights_bar
from attnviz.playground import (
    MATRICES,
    MAX_DIM,
    MAX_SEED,
    MAX_TEMPERATURE,
    MAX_TOKENS,
    MIN_TEMPERATURE,
    RANDOM,
    VALUE_LIMIT,
    PlaygroundState,
    apply_edits,
    fully_masked_message,
    load_example,
    randomise,
    set_dims,
    set_sentence,
)
from attnviz.tokenize import tokenize
from attnviz.ui.charts import show_chart
from attnviz.ui.classroom import export_buttons, share_link_box
from attnviz.ui.presenter import NORMAL_FONT, presenting
from attnviz.ui.state import get_state, set_state
from attnviz.ui.tables import number_editor
from attnviz.ui.text import literal

_MESSAGES = "pg_messages"  # plain-words messages from the last move, shown once
_EDITOR_VERSION = "pg_editor_version"  # bumped whenever table data is replaced, so stale edits never land


# ----------------------------------------------------------------------------- state plumbing


_WIDGET_FIELDS = (
    "sentence",
    "example",
    "seed",
    "d_k",
    "d_v",
    "causal",
    "scale",
    "temperature",
    "blocked_keys",
    "focus",
)


def _widget_key(field: str) -> str:
    return f"pg_{field}"


def _widget_values(state: PlaygroundState) -> dict:
    """Each widget's value for ``state``: the widget for field ``f`` has the key ``pg_f``."""
    values = {_widget_key(field): getattr(state, field) for field in _WIDGET_FIELDS}
    values[_widget_key("blocked_keys")] = list(state.blocked_keys)  # a multiselect holds a list
    return values


def bind_widgets() -> PlaygroundState:
    """Gives every widget its value from the state, unless the widget already holds one this session."""
    state = get_state()
    for key, value in _widget_values(state).items():
        if key not in st.session_state:
            st.session_state[key] = value
    st.session_state.setdefault(_EDITOR_VERSION, 0)
    return state


def _replace_state(state: PlaygroundState, *messages: str) -> None:
    """A move that replaces data (example, seed, sentence, sizes): every widget and table follows it."""
    set_state(state)
    for key, value in _widget_values(state).items():
        st.session_state[key] = value
    st.session_state[_EDITOR_VERSION] = st.session_state.get(_EDITOR_VERSION, 0) + 1
    _say(*messages)


def _say(*messages: str | None) -> None:
    st.session_state[_MESSAGES] = [m for m in messages if m]


def show_messages() -> None:
    for message in st.session_state.pop(_MESSAGES, []):
        st.warning(message, icon=":material/warning:")


def _on_sentence() -> None:
    new, message = set_sentence(get_state(), st.session_state["pg_sentence"])
    _replace_state(new, message)


def _on_example() -> None:
    _replace_state(load_example(get_state(), st.session_state["pg_example"]))


def _on_randomise() -> None:
    _replace_state(randomise(get_state(), st.session_state["pg_seed"]))


def _on_dims() -> None:
    state = get_state()
    try:
        _replace_state(set_dims(state, st.session_state["pg_d_k"], st.session_state["pg_d_v"]))
    except AttnvizInputError as error:
        _replace_state(state, str(error))  # puts the sliders back where the state is


def _on_setting(field: str, convert=lambda v: v) -> None:
    set_state(replace(get_state(), **{field: convert(st.session_state[_widget_key(field)])}))


# ----------------------------------------------------------------------------- controls


def sentence_and_example() -> None:
    state = get_state()
    left, right = st.columns([3, 2])
    left.text_input(
        "Sentence",
        key="pg_sentence",
        on_change=_on_sentence,
        help=f"Words and punctuation become tokens. Up to {MAX_TOKENS} tokens are used.",
    )
    options = [RANDOM, *PRESETS]
    right.selectbox(
        "Example",
        options,
        key="pg_example",
        on_change=_on_example,
        format_func=lambda key: "Random vectors (from the seed)" if key == RANDOM else PRESETS[key].title,
    )
    if state.example in PRESETS:
        preset = PRESETS[state.example]
        changed = (
            state.tokens != preset.tokens
            or state.edits
            or (state.d_k, state.d_v) != (preset.Q.shape[1], preset.V.shape[1])
        )
        right.caption(
            preset.description
            + (" You have changed the example since loading it, so its numbers may no longer hold." if changed else "")
        )
    total = len(tokenize(state.sentence))
    if total > MAX_TOKENS:
        st.info(
            f"The sentence has {total} tokens; only the first {MAX_TOKENS} are used.", icon=":material/content_cut:"
        )


def token_chips(state: PlaygroundState) -> None:
    """Tokens as chips with their positions. Text is escaped: HTML typed in the sentence shows as text."""
    chips = "".join(
        f'<span class="attnviz-chip"><small>{i}</small>&nbsp;{html.escape(token)}</span>'
        for i, token in enumerate(state.tokens)
    )
    st.markdown(f'<div class="attnviz-chips" dir="auto">{chips}</div>', unsafe_allow_html=True)


def sizes_and_seed() -> None:
    d_k, d_v, seed, button = st.columns([2, 2, 1, 1], vertical_alignment="bottom")
    d_k.slider("d_k (query and key length)", 1, MAX_DIM, key="pg_d_k", on_change=_on_dims)
    d_v.slider("d_v (value length)", 1, MAX_DIM, key="pg_d_v", on_change=_on_dims)
    seed.number_input("Seed", min_value=0, max_value=MAX_SEED, step=1, key="pg_seed")
    button.button(
        "Randomise",
        icon=":material/casino:",
        on_click=_on_randomise,
        width="stretch",
        help="New random Q, K and V from the seed",
    )


def _editor_key(matrix: str) -> str:
    return f"pg_editor_{matrix}_{st.session_state.get(_EDITOR_VERSION, 0)}"


def _column_names(matrix: str, width: int) -> list[str]:
    return [f"{matrix.lower()}{j + 1}" for j in range(width)]


def _by_position(matrix: str, edited_rows: dict) -> dict:
    """The editor reports {row: {column name: value}}; the state wants {row: {column index: value}}."""
    column_of = {name: j for j, name in enumerate(_column_names(matrix, MAX_DIM))}
    return {
        int(row): {column_of[name]: value for name, value in cells.items() if name in column_of}
        for row, cells in edited_rows.items()
        if str(row).isdigit()
    }


def absorb_table_edits() -> PlaygroundState:
    """Merges the tables' pending edits into the state before anything is drawn. Bad cells keep their old value."""
    state = get_state()
    problems = []
    for matrix in MATRICES:
        pending = st.session_state.get(_editor_key(matrix))
        if pending and pending.get("edited_rows"):
            state, found = apply_edits(state, matrix, _by_position(matrix, pending["edited_rows"]))
            problems += found
    set_state(state)
    if problems:
        st.session_state[_EDITOR_VERSION] += 1  # redraw the tables from the state, without the rejected cells
        for problem in problems:
            st.warning(literal(problem), icon=":material/warning:")
    return state


def vector_tables(state: PlaygroundState) -> None:
    Q, K, V = state.matrices()
    columns = st.columns(3)
    for column, name, values, meaning in zip(
        columns,
        MATRICES,
        (Q, K, V),
        ("what each token looks for", "what each token offers", "what it passes on"),
        strict=True,
    ):
        column.markdown(f"**{name}** — {meaning}")
        with column:
            number_editor(
                values,
                state.labels,
                _column_names(name, values.shape[1]),
                key=_editor_key(name),
                height=min(38 + 35 * state.n, 420),
            )
    st.caption(f"Type any number from −{VALUE_LIMIT:g} to {VALUE_LIMIT:g}, such as 0.5, -2 or 1e-3.")


def attention_settings() -> None:
    state = get_state()
    causal, scale, temperature, blocked = st.columns([1, 1, 1.3, 2.2], vertical_alignment="center")
    causal.checkbox(
        "Causal mask",
        key="pg_causal",
        on_change=_on_setting,
        args=("causal",),
        help="Each token may attend only to itself and earlier tokens (a decoder).",
    )
    scale.checkbox(
        "Scale by 1/√d_k",
        key="pg_scale",
        on_change=_on_setting,
        args=("scale",),
        help="Divide the scores by √d_k so their spread does not grow with the vector length.",
    )
    temperature.slider(
        "Temperature τ",
        MIN_TEMPERATURE,
        MAX_TEMPERATURE,
        step=0.05,
        key="pg_temperature",
        on_change=_on_setting,
        args=("temperature", float),
        help="Scores are divided by τ: below 1 sharpens the softmax, above 1 flattens it.",
    )
    blocked.multiselect(
        "Block keys (padding mask)",
        list(range(state.n)),
        key="pg_blocked_keys",
        on_change=_on_setting,
        args=("blocked_keys", lambda keys: tuple(sorted(keys))),
        format_func=lambda j: state.labels[j],
        placeholder="No key blocked",
        help="No query may attend to a blocked key, as with padding tokens.",
    )


# ----------------------------------------------------------------------------- views


def formula(state: PlaygroundState) -> None:
    st.latex(
        formula_latex(
            causal=state.causal,
            scale=state.scale,
            temperature=state.temperature,
            has_blocked_keys=bool(state.blocked_keys),
        )
    )
    st.caption(mask_explanation(causal=state.causal, has_blocked_keys=bool(state.blocked_keys)))


def heatmaps(state: PlaygroundState, *, font_size: int = 13) -> None:
    result = state.result()
    labels = state.labels
    divisor = " ÷ ".join(
        part
        for part in ("√d_k" if state.scale else "", f"τ={number(state.temperature)}" if state.temperature != 1 else "")
        if part
    )
    scaled_title = (
        f"2. Scaled{' and masked' if result.blocked.any() else ''} scores: QKᵀ{' ÷ ' + divisor if divisor else ''}"
    )
    # Side by side on a laptop; one under another in presenter mode, where bigger numbers need the whole width.
    scores_slot, scaled_slot, weights_slot, output_slot = (
        [*st.columns(2), *st.columns(2)] if font_size == NORMAL_FONT else [st.container() for _ in range(4)]
    )
    # The slots fix where each chart sits; filling the weights first lets the browser redraw them first.
    show_chart(
        matrix_heatmap(
            result.weights,
            labels,
            labels,
            kind="weights",
            title="3. Attention weights: softmax of each row",
            font_size=font_size,
        ),
        key="weights",
        container=weights_slot,
    )
    show_chart(
        matrix_heatmap(
            result.masked,
            labels,
            labels,
            kind="scores",
            title=scaled_title,
            blocked=result.blocked,
            font_size=font_size,
        ),
        key="scaled",
        container=scaled_slot,
    )
    show_chart(
        matrix_heatmap(
            result.output,
            labels,
            [f"d{j + 1}" for j in range(state.d_v)],
            kind="values",
            title="4. Output: weights · V",
            x_title="dimension",
            font_size=font_size,
        ),
        key="output",
        container=output_slot,
    )
    show_chart(
        matrix_heatmap(result.scores, labels, labels, kind="scores", title="1. Raw scores QKᵀ", font_size=font_size),
        key="scores",
        container=scores_slot,
    )
    st.caption(
        f"With more than {TEXT_LIMIT} tokens the numbers are left out of the cells; hover over a cell to read it."
        if state.n > TEXT_LIMIT
        else "Hover over a cell to read it in words."
    )  # always drawn, so the elements after it keep their places (and their charts) when n crosses the limit


def focus_token(state: PlaygroundState, *, font_size: int = 13) -> None:
    picker, chart = st.columns([1, 3])
    picker.selectbox(
        "Focus token (query)",
        list(range(state.n)),
        key="pg_focus",
        format_func=lambda i: state.labels[i],
        on_change=_on_setting,
        args=("focus", int),
    )
    state = get_state()
    i = min(state.focus, state.n - 1)
    token = literal(state.tokens[i])
    result = state.result()
    Q, K, V = state.matrices()
    picker.caption(f"Query vector q = {vector_text(Q[i])}")
    show_chart(
        weights_bar(
            result.weights[i],
            state.labels,
            title=f"Where “{state.tokens[i]}” looks: its row of weights",
            blocked_row=result.blocked[i],
            font_size=font_size,
        ),
        key="focus",
        container=chart,
    )
    arithmetic = row_arithmetic(Q, K, result, state.labels, i)
    st.markdown(f"**From scores to weights for “{token}”**")
    st.dataframe(
        pd.DataFrame(
            {
                "key": [s.key for s in arithmetic.steps],
                "q·k": [s.product + (" = " if s.product else "") + number(s.score) for s in arithmetic.steps],
                f"s = q·k ÷ {number(arithmetic.divisor)}": [
                    "−∞ (masked)" if s.blocked else number(s.scaled) for s in arithmetic.steps
                ],
                "e^(s − max s)": [number(s.shifted_exp) for s in arithmetic.steps],
                "weight": [number(s.weight) for s in arithmetic.steps],
            }
        ),
        hide_index=True,
        height=min(38 + 35 * state.n, 400),
        width="stretch",
    )
    if result.fully_masked[i]:
        st.caption("Every key is blocked for this query, so all its weights are 0 and its output is zero.")
        return
    st.caption(
        f"The largest s in this row is {number(arithmetic.row_max)}. Subtracting it before taking e^s avoids overflow "
        f"and leaves every weight unchanged. The e^(s − max s) column sums to {number(arithmetic.exp_sum)}, "
        f"and each weight is its entry divided by that sum."
    )
    st.markdown(f"**The output of “{token}” is the values blended by these weights: Σⱼ wⱼ · vⱼ**")
    terms = weighted_sum_terms(result.weights[i], V, state.labels)
    st.dataframe(
        pd.DataFrame(
            {
                "key": [t.key for t in terms],
                "weight wⱼ": [number(t.weight) for t in terms],
                "value vⱼ": [vector_text(t.value) for t in terms],
                "wⱼ · vⱼ": [vector_text(t.contribution) for t in terms],
            }
        ),
        hide_index=True,
        height=min(38 + 35 * len(terms), 300),
        width="stretch",
    )
    st.markdown(f"Sum of the last column: **output = {vector_text(result.output[i])}**")


@st.fragment
def attention_section(*, font_size: int = 13) -> None:
    """Settings, formula, heatmaps and the focus token. A fragment: its controls rerun only this part of the page."""
    attention_settings()
    state = get_state()
    share, export = st.columns([1, 3])
    with share:
        share_link_box(state, "playground")  # inside the fragment, so a toggle updates the link too
    with export:
        if not presenting():  # a projector needs the matrices, not the download buttons
            export_buttons(state)
    formula(state)
    masked_rows_warning(state)
    heatmaps(state, font_size=font_size)
    st.subheader("One token up close")
    focus_token(state, font_size=font_size)


def masked_rows_warning(state: PlaygroundState) -> None:
    message = fully_masked_message(state)
    slot = st.container()  # drawn even when empty, so the charts after it keep their places
    if message:
        slot.warning(literal(message), icon=":material/block:")


STYLE = """
<style>
.attnviz-chips { display: flex; flex-wrap: wrap; gap: 0.3rem; margin: 0.2rem 0 0.6rem; }
.attnviz-chip { border: 1px solid rgba(128,128,128,0.45); border-radius: 1rem; padding: 0.05rem 0.55rem;
  font-size: 0.95rem; unicode-bidi: isolate; }
.attnviz-chip small { opacity: 0.6; }
</style>
"""


def page_style() -> None:
    st.markdown(STYLE, unsafe_allow_html=True)
