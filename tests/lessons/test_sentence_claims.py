"""The rest of the sentence functions, each checked over generated states against the numbers and cells it
talks about, worked out here from the state (never from the sentence's own code). The registry
(tests/lessons/sentence_registry.py) counts the functions each test ``covers``."""

from __future__ import annotations

import math
import re
from dataclasses import fields, replace

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attnviz.core.limits import MAX_DIM, MAX_LESSON_DK, MAX_ROW_TOKENS, MIN_ROW_TOKENS
from attnviz.core.numbers import MINUS, latex_number
from attnviz.core.playground_state import PlaygroundState, example_options, set_dim, set_sentence
from attnviz.core.presets import PRESETS
from attnviz.figures.stages import stage_views
from attnviz.lessons import (
    challenges,
    costs,
    explanations,
    geometry,
    multi_head,
    predictions,
    real_model,
    row_arithmetic,
    scaling,
    stages,
    step_words,
)
from attnviz.lessons import playground as words
from attnviz.lessons import stage_formulas as formulas
from attnviz.lessons.examples import EXAMPLES
from attnviz.lessons.predictions import KINDS, PlaygroundQuestion
from attnviz.lessons.questions import ChoiceQuestion, RowQuestion, stage_question, stage_target
from attnviz.models import head_statistics
from attnviz.models.explain import EmbeddingChange, NextTokenChange
from attnviz.models.runs import NextTokens
from tests.lessons.sentence_registry import covers
from tests.lessons.test_sentence_properties import WORDS_POOL, states

MANY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def edited_states(draw, predict: str = "") -> PlaygroundState:
    """A state with typed cells (any matrix, up to 4) and d_k from 1 to the Playground's largest."""
    state = draw(states(predict=predict))
    state = set_dim(state, draw(st.integers(1, MAX_DIM)), which="d_k")
    cells = draw(st.lists(st.tuples(st.sampled_from("QKV"), st.integers(0, state.n - 1), st.integers(0, 3),
                                    st.floats(-50, 50)), max_size=4))  # fmt: skip
    width = {"Q": state.d_k, "K": state.d_k, "V": state.d_v}
    edits = {(m, r, c): v for m, r, c, v in cells if c < width[m]}
    return replace(state, edits=tuple(sorted(edits.items())))


def read(text: str) -> float:
    return float(text.replace(MINUS, "-"))


# ----------------------------------------------------------------------------- the Playground's lines


@MANY
@covers(words.dropped_line)
@given(edited_states(), st.lists(st.sampled_from(WORDS_POOL), min_size=1, max_size=9), st.integers(1, 4))
def test_what_a_move_drops_is_named_exactly(before, sentence, d_k):
    for after in (set_sentence(before, " ".join(["cat", *sentence]))[0], set_dim(before, d_k, which="d_k")):
        said = words.dropped_line(before, after) or ""
        gone_cells = {cell for cell, _ in before.edits} - {cell for cell, _ in after.edits}
        gone_keys = [j for j in before.blocked_keys if j not in after.blocked_keys]
        focus_gone = before.focus >= after.n
        assert bool(said) == bool(gone_cells or gone_keys or focus_gone), said
        if not said:
            continue
        named = re.findall(r"([QKV])\[(\d+): .*?, dimension (\d+)\]", said)  # Q[10: amazing, dimension 2]
        shown = {(m, int(r), int(c) - 1) for m, r, c in named}
        assert shown <= gone_cells and (len(shown) == len(gone_cells) or "…" in said), said
        for m, r, c in shown:  # the token named is the row's own, before the move
            assert f"{m}[{r}: {before.tokens[r]}, dimension {c + 1}]" in said
        if gone_cells:
            assert re.search(rf"\b{len(gone_cells)} typed cells?\b", said), said
        assert ("the focus on" in said) == focus_gone
        one = (bool(gone_cells) + bool(gone_keys) + focus_gone) == 1 and len(gone_cells) <= 1 and len(gone_keys) <= 1
        assert said.endswith("Undo brings it back." if one else "Undo brings them back."), said


FIELD_CHANGES = {
    "sentence": st.just("A cat sat."),
    "seed": st.integers(0, 999),
    "d_k": st.integers(1, 8),
    "causal": st.booleans(),
    "scale": st.booleans(),
    "temperature": st.sampled_from([0.5, 1.0, 2.0]),
    "predict": st.sampled_from(list(KINDS)),
    "focus": st.integers(0, 2),
}


@MANY
@covers(words.undone_line)
@given(states(), st.dictionaries(st.sampled_from(sorted(FIELD_CHANGES)), st.none(), max_size=4), st.data())
def test_undo_says_exactly_what_came_back(back, changed, data):
    undone = replace(back, **{f: data.draw(FIELD_CHANGES[f]) for f in changed})
    if undone.focus >= undone.n or back.focus >= back.n:
        return
    said = words.undone_line(undone, back)
    differ = {f.name for f in fields(PlaygroundState) if getattr(undone, f.name) != getattr(back, f.name)}
    assert (said == "Undone: nothing had changed.") == (not differ), said
    assert ("the causal mask is" in said) == ("causal" in differ) and ("scaling is" in said) == ("scale" in differ)
    assert ("τ is" in said) == ("temperature" in differ) and ("focus token again" in said) == ("focus" in differ)
    if "predict" in differ:
        if undone.predict and back.predict:  # the mode on throughout: the question came back
            assert f"the question “{KINDS[back.predict]}” is back" in said and "predict mode" not in said
        else:
            assert f"predict mode is {'on' if back.predict else 'off'} again" in said
    else:
        assert "predict mode" not in said and "the question" not in said


@MANY
@covers(words.fully_masked_message, words.source_line, words.example_title)
@given(edited_states())
def test_the_fully_masked_rows_named_are_the_rows_with_every_key_blocked(state):
    dead = np.flatnonzero(state.result().fully_masked)
    said = words.fully_masked_message(state)
    assert (said is None) == (len(dead) == 0)
    if said:
        named = [int(j) for j in re.findall(r"” \((\d+)\)", said)]
        assert named == dead[:10].tolist() and ("…" in said) == (len(dead) > 10), said
    typed = state.example in PRESETS and state.tokens != PRESETS[state.example].tokens
    for key in example_options(state):  # only the option in use names the student's sentence, when it is theirs
        said = words.example_title(state, key)
        assert said.startswith("Your sentence, with the vectors of: ") == (typed and key == state.example), said
        assert said.endswith(EXAMPLES[key][0] if key in EXAMPLES else "(seed)"), said
    own = "the same word, the same vectors" in words.source_line(state)
    assert own == (state.example == "words")


# ----------------------------------------------------------------------------- predict mode's words


def weights_shown(state: PlaygroundState) -> set[str]:
    """Every weight of the focus row as view 3 would print it: none of them may show on a cover."""
    return {f"{w:.2f}" for w in state.result().weights[state.focus] if w > 0}


@MANY
@covers(
    predictions.prompt, predictions.choices, predictions.cover_asking, PlaygroundQuestion.cover
)
@given(edited_states(predict="most") | edited_states(predict="sharper") | edited_states(predict="zeroed"), st.data())
def test_a_cover_asks_and_gives_no_answer_away(state, data):
    picks = tuple(sorted(data.draw(st.sets(st.integers(0, state.n - 1), max_size=3))))
    question = PlaygroundQuestion(state, picks)
    said = [question.cover(), predictions.prompt(state), *predictions.choices(state, picks)]
    said.append(predictions.cover_asking(state, "Which one?"))
    token = state.tokens[state.focus]
    assert all(f"“{token}”" in line for line in said[:2]), said
    numbers = set(re.findall(r"\d+\.\d+", " ".join(said)))
    root = math.sqrt(state.d_k)
    allowed = {f"{root:.2f}"} if state.predict == "sharper" else set()  # the divisor the question is about
    assert numbers <= allowed, (numbers, said)  # no weight, no score: nothing a reader could answer from
    if state.predict == "sharper":
        assert f"switched {'off' if state.scale else 'on'}" in said[0]
        assert f"÷ √d_k = ÷ {root:.2f}" in said[0] or (root.is_integer() and f"÷ {int(root)})" in said[0])
    if state.predict == "zeroed":
        assert f"switched {'off' if state.causal else 'on'}" in said[0]
        assert said[2].startswith("Check: ") and all(f"({j})" in said[2] for j in picks[:6]), said[2]
    assert said[-1].startswith("Which one? ") and "“" not in said[-1]


@MANY
@covers(RowQuestion.cover)
@given(edited_states())
def test_a_stages_question_names_its_row_and_no_value(state):
    for stage in stages.walkthrough(state).stages:
        title = stage.panels[stage_target(stage)].title
        asked = stage_question("step_by_step", stage, state.focus).cover()
        assert asked == f"Predict first: which cell of row {state.labels[state.focus]} will be the largest in “{title}”? Click it."


# ----------------------------------------------------------------------------- Step by step


@MANY
@covers(
    step_words.scale_caption,
    step_words.mask_caption,
    step_words.setup_words,
    step_words.introduction,
    step_words.stage_heading,
    step_words.stage_reading,
)
@given(edited_states())
def test_step_by_steps_captions_count_the_cells_the_pictures_show_changed(state):
    by_key = {stage.key: stage for stage in stages.walkthrough(state).stages}
    before, after = stage_views(by_key["scale"])
    differ = sum(read(a) != read(b) for a, b in zip(before["text"], after["text"], strict=True))  # as shown
    total = state.n * state.n
    caption = by_key["scale"].caption
    if math.isclose(state.result().scale_factor, 1.0, rel_tol=1e-12):
        assert caption.startswith("No cell changed: dividing by 1")
    elif differ == total:
        assert caption.startswith("Every cell changed")
    elif differ == 0:
        assert caption.startswith("No cell's digits changed")
    else:
        assert caption.startswith(f"{differ} of {total} cells changed"), caption
    blocked = int(state.result().blocked.sum())
    mask = by_key["mask"].caption
    assert mask.startswith("No cell changed" if not blocked else "Every cell" if blocked == total else f"{blocked} cells")
    walk = stages.walkthrough(state).stages
    for at, stage in enumerate(walk):
        assert step_words.stage_heading(at, len(walk), stage.title) == f"Stage {at + 1} of {len(walk)}. {stage.title}"
        assert step_words.stage_reading(stage.caption, "notes").startswith(stage.caption + " Outlined: ")
    said = step_words.introduction(state, "quoted")
    assert f"({state.n} tokens, d_k = {state.d_k}, " in said and f"scaling {'on' if state.scale else 'off'}" in said
    keys = re.search(r"keys? ([\d, ]+) blocked", said)
    assert (tuple(int(j) for j in keys[1].split(", ")) if keys else ()) == state.blocked_keys, said
    assert ("causal mask" in said and "no causal mask" not in said) == state.causal


def last_number(latex: str) -> str:
    return re.split(r" = ", latex.replace(r" \end{aligned}", ""))[-1].split(r" \quad")[0]


@MANY
@covers(
    formulas.project_formula,
    formulas.scores_formula,
    formulas.scale_formula,
    formulas.mask_formula,
    formulas.softmax_formula,
    formulas.output_formula,
)
@given(edited_states(), st.integers(1, 6), st.data())
def test_each_stages_formula_ends_on_the_cell_it_works_out(state, d_model, data):
    walk = stages.walkthrough(state, from_embeddings=True, d_model=d_model)
    i = state.focus
    for stage in walk.stages:
        matrix = stage.worked_out.matrix  # what the page offers to work out (Q's columns at the projection stage)
        j = data.draw(st.integers(0, matrix.shape[1] - 1))
        latex = stage.formula(i, j)
        if stage.key == "mask" and walk.result.blocked[i, j]:
            assert r"-\infty" in latex and (("causal" in latex) == (state.causal and j > i)), latex
            continue
        if stage.key == "softmax" and walk.result.blocked[i, j]:
            assert latex.endswith("= 0") or latex.startswith(f"w_{{{i},{j}}} = 0 "), latex
            continue
        assert last_number(latex) == latex_number(matrix[i, j], bracket=False), (stage.key, latex)


# ----------------------------------------------------------------------------- the Playground's focus table


@MANY
@covers(
    row_arithmetic.divisor_text,
    row_arithmetic.row_summary,
    row_arithmetic.formula_latex,
    row_arithmetic.mask_explanation,
)
@given(edited_states())
def test_the_focus_tables_words_are_its_rows_numbers(state):
    result, i = state.result(), state.focus
    divisor = row_arithmetic.divisor_text(result, state.d_k, state.scale, state.temperature)
    assert divisor == "1" or divisor.endswith(row_arithmetic.number(result.scale_factor))
    assert ("√" in divisor) == state.scale and ("τ" in divisor) == (state.temperature != 1)
    summary = row_arithmetic.row_summary(result, i)
    if result.fully_masked[i]:
        assert summary.startswith("Every key is blocked")
    else:
        allowed = ~result.blocked[i]
        peak = result.scaled[i][allowed].max()
        assert f"largest s in this row is {row_arithmetic.number(peak)}." in summary
        total = np.exp(result.scaled[i][allowed] - peak).sum()
        assert f"sums to {row_arithmetic.number(total)}," in summary
    masked = state.causal or bool(state.blocked_keys)
    latex = row_arithmetic.formula_latex(
        causal=state.causal, scale=state.scale, temperature=state.temperature, has_blocked_keys=bool(state.blocked_keys)
    )
    assert ("+ M" in latex) == masked and (r"\sqrt{d_k}" in latex) == state.scale
    explained = row_arithmetic.mask_explanation(causal=state.causal, has_blocked_keys=bool(state.blocked_keys))
    assert ("causal mask" in explained) == state.causal and ("blocked keys" in explained) == bool(state.blocked_keys)


# ----------------------------------------------------------------------------- Why we scale


@MANY
@covers(
    scaling.one_hot_text,
    scaling.row_text,
    scaling.rows_caption,
    scaling.variance_readings,
    scaling.scale_explanation,
)
@given(
    st.integers(1, MAX_LESSON_DK),
    st.integers(MIN_ROW_TOKENS, MAX_ROW_TOKENS),
    st.integers(0, 99),
    st.booleans(),
    st.sampled_from([0.1, 0.5, 1.0, 2.0, 5.0]),
)
def test_why_we_scale_says_what_its_numbers_are(d_k, n_tokens, seed, scale, temperature):
    curve = scaling.score_variance((1, d_k), n_pairs=200, seed=seed)
    (_, raw), (_, scaled) = scaling.variance_readings(curve, d_k)
    assert (raw == scaled) == (round(float(curve.raw[-1]), 3) == round(float(curve.raw[-1]) / d_k, 3))
    assert decimals(raw) == decimals(scaled)  # one precision: at d_k = 1 the two read the same
    row = scaling.one_row(d_k, n_tokens=n_tokens, seed=seed)
    said = scaling.row_text(row, d_k)
    assert f"**{row.raw_weights.max():.3f}**" in said and f"**{row.scaled_weights.max():.3f}**" in said
    assert ("Slide d_k up" in said) == (d_k < MAX_LESSON_DK)
    caption = scaling.rows_caption(n_tokens)
    assert ("both" in caption) == (n_tokens == 2) and (f"all {n_tokens}" in caption) == (n_tokens > 2)
    counts = [int(re.sub(r"\D", "", c)) for c in re.findall(r"\*\*(\d+) of", scaling.one_hot_text(d_k, n_tokens=n_tokens, seed=seed))]
    Q, K, V = scaling.random_qkv(n_tokens, d_k, 1, seed)
    for count, scaled_ in zip(counts, (False, True), strict=True):
        weights = scaling.attention(Q, K, V, scale=scaled_).weights
        assert count == int((weights.max(axis=1) >= 0.99).sum())
    divisor = (math.sqrt(d_k) if scale else 1.0) * temperature
    explained = scaling.scale_explanation(scale=scale, d_k=d_k, temperature=temperature)
    if math.isclose(divisor, 1.0, rel_tol=1e-12):
        assert "unchanged" in explained
    else:
        assert ("less extreme" in explained) == (divisor > 1) and ("sharper" in explained) == (divisor < 1)


def decimals(text: str) -> int:
    return len(text.partition(".")[2])


# ----------------------------------------------------------------------------- Geometry


@MANY
@covers(geometry.pronoun_self_text)
@given(
    st.tuples(st.integers(-5, 5), st.integers(-5, 5)),
    st.lists(st.tuples(st.integers(-5, 5), st.integers(-5, 5)), min_size=3, max_size=3),
    st.booleans(),
)
def test_it_would_score_against_itself_what_the_live_query_gives(query, keys, keep_animal):
    keys = [geometry.PRONOUN_KEYS[0], *keys[1:]] if keep_animal else keys
    query, keys = tuple(map(float, query)), [tuple(map(float, k)) for k in keys]
    said = geometry.pronoun_self_text(query, keys)
    own = np.dot(query, PRESETS["pronoun_it"].K[3])
    assert f"it would score {geometry.format_number(own)} against itself" in said, said
    twins = [name for name, k in zip(geometry.PRONOUN_KEY_LABELS, keys, strict=True) if k == tuple(PRESETS["pronoun_it"].K[3])]
    assert (f"tie with “{twins[0]}”" in said) if twins else ("tie with “" not in said), said
    if not twins:
        best = max(np.dot(query, k) for k in keys)
        assert ("outscore every key here" in said) == (own > best) and ("tie with the best" in said) == (own == best)


# ----------------------------------------------------------------------------- a real model's head


@st.composite
def attention_maps(draw):
    n = draw(st.integers(2, 7))
    scores = np.array(draw(st.lists(st.lists(st.floats(-4, 4), min_size=n, max_size=n), min_size=n, max_size=n)))
    if draw(st.booleans()):
        scores = np.where(np.tril(np.ones_like(scores)) > 0, scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    sinks = tuple(sorted(draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=2))))
    return weights / weights.sum(axis=1, keepdims=True), sinks


@MANY
@covers(
    explanations.sinks_line,
    explanations.sinks_verdict,
    explanations.row_line,
    explanations.take_away_caption,
    real_model.label_counts,
    real_model.layer_table,
)
@given(attention_maps(), attention_maps(), st.data())
def test_a_heads_words_are_its_maps_numbers_as_shown(first, second, data):
    (raw, sinks), (other, _) = first, second
    n = len(raw)
    other = other[:n, :n] / other[:n, :n].sum(axis=1, keepdims=True) if len(other) >= n else raw[::-1, ::-1]
    matrices = {"raw": raw, "value": other}
    shared = explanations.sink_shares(matrices, sinks)
    rows = [i for i in range(n) if i not in sinks] or list(range(n))
    for view, matrix in matrices.items():  # the rows the head's summary counts, the sinks' own aside
        assert math.isclose(shared[view], matrix[rows][:, list(sinks)].sum(axis=1).mean(), abs_tol=1e-12)
    line = explanations.sinks_line(shared, "s")
    assert [f"{100 * shared[v]:.1f}%" for v in matrices] == re.findall(r"\d+\.\d%", line)
    verdict = explanations.sinks_verdict(shared)
    same = f"{100 * shared['raw']:.1f}" == f"{100 * shared['value']:.1f}"
    assert ("as much as they take" in verdict) == same
    query = data.draw(st.integers(0, n - 1))
    tokens = [f"t{j}" for j in range(n)]
    drawn = data.draw(st.sampled_from(list(matrices)))  # the map on screen: the only view whose number is said
    said = explanations.row_line(matrices, tokens, query, drawn)
    for view, part in zip(matrices, said.split(": ", 1)[1].split("; "), strict=True):
        shown = [f"{w:.2f}" for w in matrices[view][query]]
        best = max(shown, key=float)
        tied = [f"“t{j}”" for j, text in enumerate(shown) if text == best]
        if view != drawn:  # a view not drawn: its keys named, no number the page cannot show
            assert not re.search(r"\d\.\d", part) and best not in part, part
        else:
            assert best in part and (("each" in part) == (1 < len(tied) <= 3)), (part, shown)
        if len(tied) <= 3:
            assert all(name in part for name in tied) and part.count("“") == len(tied), part
    assert "whole sentence" in explanations.take_away_caption(data.draw(st.booleans()))
    stats = head_statistics(np.stack([raw, raw.T / raw.T.sum(axis=1, keepdims=True)])[None], sinks)
    labels = real_model.shown_labels(stats)
    counted = real_model.label_counts(labels)
    assert sum(int(c) for c in re.findall(r"(\d+) (?:look|park|spread)", counted)) == labels.size, counted
    columns, table = real_model.layer_table(stats, 0)
    for row in table:
        shares = [int(cell.rstrip("%")) for cell in row[1:-1]]
        assert sum(shares) == 100
        verdict_at = dict(zip(columns[1:-1], shares, strict=True))
        if row[-1] == "parks its attention on the sinks":
            assert verdict_at["To the sinks"] >= 50
        if row[-1] == "spreads its attention":
            assert max(verdict_at[c] for c in verdict_at if c != "Elsewhere") < 50, row


# ----------------------------------------------------------------------------- a guided page's guess before the move


@MANY
@covers(ChoiceQuestion.cover, ChoiceQuestion.reveal)
@given(st.integers(0, 999), st.integers(MIN_ROW_TOKENS, 24), st.integers(1, 4), st.integers(1, 6), st.booleans())
def test_a_guess_before_the_move_is_judged_by_the_pages_own_numbers(seed, n_tokens, heads, d_head, causal):
    dims = (1, 8, 64)
    curve, curves = scaling.score_variance(dims, n_pairs=300, seed=seed), scaling.saturation(dims, n_tokens=n_tokens, seed=seed)
    spread = scaling.spread_question(curve, curves)
    grows, heavier = curve.raw[-1] > 2 * curve.raw[0], curves.max_raw[-1] > curves.max_raw[0]
    assert spread.choices[spread.right].startswith("Both stay" if not grows else "Scores spread out")
    assert ("nears 1" in spread.choices[spread.right]) == (grows and heavier)
    setup = multi_head.Setup(heads * d_head, heads, seed, causal)
    X = multi_head.embeddings(n_tokens, setup)
    tie = multi_head.tie_question(X, setup)
    tied = multi_head.run(X, replace(setup, tie_qk=True))
    assert tie.right == 0 and all(np.allclose(h.scores, h.scores.T) for h in tied.result.heads)
    for question in (spread, tie):
        assert question.cover().startswith("Predict first: ") and not re.search(r"\d\.\d", question.cover())
        for guess in range(len(question.choices)):
            said = question.reveal(guess)
            assert said.startswith(("Right: " if guess == question.right else "Not this time: ") + "you predicted “")
    numbers = re.findall(r"\d+\.\d{3}", spread.why)  # the curves' own ends, to the metrics' digits
    assert numbers == [f"{v:.3f}" for v in (curve.raw[0], curve.raw[-1], curves.max_raw[0], curves.max_raw[-1])]
    assert f"{tied.largest_asymmetry:.4g}".replace("-", "−") in tie.why or tied.largest_asymmetry == 0


# ----------------------------------------------------------------------------- Multi-head's costs and heads


@MANY
@covers(
    costs.parameters_text,
    costs.flops_caption,
    costs.crossover_text,
    multi_head.heads_heading,
    multi_head.heads_text,
    multi_head.tie_text,
    multi_head.sizes_caption,
    multi_head.x_drawn_caption,
    multi_head.heads_drawn_caption,
)
@given(st.sampled_from([1, 2, 4, 8]), st.integers(1, 4), st.integers(1, 64), st.integers(0, 99), st.booleans(), st.booleans())
def test_multi_heads_sentences_say_its_numbers(heads, d_head, n, seed, causal, tie):
    d = heads * d_head
    said = costs.parameters_text(costs.parameters(d, heads))
    total = 4 * d * d  # W_Q, W_K, W_V and W_O, d × d each, worked out here
    assert f"Total **{total:,}**" in said and f"3·{d}·{d_head} = {3 * d * d_head:,} weights" in said
    assert (f"{heads} heads make" in said) == (heads > 1) and (f"{heads} head makes" in said) == (heads == 1)
    assert f"n²·h = {n * n * heads:,} numbers" in costs.flops_caption(n, costs.flops(n, d, heads))
    crossing = 8 * d * d / (4 * d + 5 * heads)
    text = costs.crossover_text(d, heads)
    assert f"= {costs.format_number(crossing, digits=3)} the n² part" in text and f"= {2 * d};" in text
    above = math.floor(crossing) + 1  # past it, the n² part is the larger: the sentence's claim, from the FLOPs
    work = costs.flops(above, d, heads)
    assert work.scores + work.softmax + work.weighted_sum > work.projections + work.output
    setup = multi_head.Setup(d, heads, seed, causal, tie)
    assert multi_head.heads_heading(setup) == f"2. {heads} head{'s' if heads > 1 else ''}, each d_head = {d_head} wide"
    assert f"{d} / {heads} = {d_head} is the width" in multi_head.heads_text(setup)
    assert f"divisors of d_model = {d} only" in multi_head.sizes_caption(d)
    assert f"X has {n}×{d} = {n * d} numbers" in multi_head.x_drawn_caption(n, d)
    assert f"the first {multi_head.MAX_HEADS_DRAWN} of {heads} heads" in multi_head.heads_drawn_caption(heads)
    layer = multi_head.run(multi_head.embeddings(min(n, 12), setup), setup)
    tied = multi_head.tie_text(layer)
    if tie:
        assert "symmetric: the largest |S − Sᵀ|" in tied and layer.largest_asymmetry < 1e-9
    else:
        shown = f"{layer.asymmetries[0]:.2f}"  # head 1's, as the chart beside draws its scores
        assert f"the largest |S − Sᵀ| is {shown}" in tied, tied


# ----------------------------------------------------------------------------- Geometry's sentences


@MANY
@covers(
    geometry.angle_text,
    geometry.magnitude_sentences,
    geometry.blend_picture_text,
    geometry.weights_text,
    geometry.context_text,
)
@given(st.lists(st.tuples(st.integers(-6, 6), st.integers(-6, 6)), min_size=7, max_size=7))
def test_geometrys_sentences_say_the_arrows_numbers(points):
    query, keys, values = points[0], points[1:4], points[4:7]
    result = geometry.attend_2d(query, keys, values)
    names = ["a", "b", "c"]
    for c in result.comparisons:
        said = geometry.angle_text(c)
        assert ("undefined" in said) == (c.angle_deg is None)
    for sentence in geometry.magnitude_sentences(result, names):
        far, near = re.findall(r"\*\*“(\w)”\*\*", sentence)
        i, j = names.index(far), names.index(near)
        a, b = result.comparisons[i], result.comparisons[j]
        assert a.angle_deg > b.angle_deg and a.dot > b.dot and a.key_length > b.key_length, sentence
    wins = {(w.longer, w.aligned) for w in geometry.magnitude_wins(result.query, result.keys)}
    assert len(geometry.magnitude_sentences(result, names)) == len(wins)
    picture = geometry.blend_picture_text(result, names)
    for name, v in zip(names, result.values, strict=True):
        assert (f"“{name}”: [0, 0]" in picture) == (not v.any())
    weights = geometry.weights_text(result, names)
    assert [f"{w:.4f}" for w in result.weights] == re.findall(r"\*\*(\d\.\d{4})\*\*", weights)
    assert weights.endswith(f"(sum {result.weights.sum():.4f})")
    context = geometry.context_text(result)
    shown = [f"{x:.4f}".replace("-", "−") for x in result.context]
    assert context.endswith(f"= **[{shown[0]}, {shown[1]}]**".replace("−0.0000", "0.0000")), context


# ----------------------------------------------------------------------------- a real model's other words


def top_tokens(draw, vocabulary: int) -> NextTokens:
    ids = draw(st.lists(st.integers(0, vocabulary - 1), min_size=3, max_size=3, unique=True))
    raw = np.array(sorted(draw(st.lists(st.floats(0.01, 1), min_size=4, max_size=4)), reverse=True))
    shares = raw / raw.sum()
    return NextTokens([f"w{i}" for i in ids], np.array(ids), shares[:3], float(shares[3]), 1.0)


@MANY
@covers(
    explanations.change_text,
    real_model.overview_caption,
    real_model.sink_words,
    real_model.sinks_said,
    real_model.next_token_rows,
    scaling.divisor_words,
)
@given(st.data(), st.integers(2, 40), st.integers(1, 40), st.booleans())
def test_a_real_models_other_words_say_its_numbers(data, n, side, decoder):
    tokens = [f"t{j}" for j in range(n)]
    before, after = top_tokens(data.draw, 6), top_tokens(data.draw, 6)
    removed = data.draw(st.integers(0, n - 1))
    if decoder:
        change = NextTokenChange(removed, before, after, data.draw(st.floats(0, 1)))
        said = explanations.change_text(change, tokens)
        first, then = f"“{before.tokens[0]}”", f"“{after.tokens[0]}”"
        moved = int(before.ids[0]) != int(after.ids[0])
        assert (f"changes from {first} ({100 * before.probabilities[0]:.1f}%) to {then}" in said) == moved, said
        assert (f"stays {first}" in said) == (not moved) and f"{change.total_variation:.3f}" in said
    else:
        at, size = data.draw(st.integers(0, n - 1)), data.draw(st.floats(0.1, 10))
        change = EmbeddingChange(removed, data.draw(st.floats(-1, 1)), data.draw(st.floats(0, size)), at, size)
        said = explanations.change_text(change, tokens)
        assert f"cosine {change.cosine:.3f}" in said and f"token {at} (“t{at}”)'s: by {change.largest:.2f}" in said
        assert f"({100 * change.largest / change.size:.1f}%)" in said
    assert said.startswith(f"Without “t{removed}” (token {removed})")
    side = min(side, n)
    caption = real_model.overview_caption(data.draw(st.booleans()), side, n)
    assert (f"({side} groups)" in caption) == (side < n) and (f"With {n} tokens" in caption) == (side < n)
    sinks = tuple(sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=2))))
    named = real_model.sink_words(tokens, sinks)
    assert named == ("the first token (“t0”)" if sinks == (0,) else " and ".join(f"t{i}" for i in sinks))
    hidden = data.draw(st.booleans())
    assert real_model.sinks_said(hidden, named).startswith("Sinks hidden" if hidden else "Sinks shown")
    labels, probabilities = real_model.next_token_rows(before.tokens, before.probabilities, before.other)
    assert len(set(labels)) == len(labels) and math.isclose(sum(probabilities), 1.0)
    d_k, tau, scale = data.draw(st.integers(1, 512)), data.draw(st.sampled_from([0.1, 0.5, 1.0, 2.0])), decoder
    divisor = (math.sqrt(d_k) if scale else 1.0) * tau
    words = scaling.divisor_words(scale=scale, d_k=d_k, temperature=tau)
    assert words.endswith(scaling.format_number(divisor)) or words.startswith(f"τ = {scaling.format_number(divisor)}")


@MANY
@covers(
    real_model.run_caption,
    real_model.sinks_caption,
    real_model.open_caption,
    real_model.lines_caption,
    real_model.overview_words,
)
@given(attention_maps(), st.integers(1, 40), st.integers(1, 40), st.integers(1, 128), st.integers(1, 64), st.booleans())
def test_the_real_model_pages_captions_say_its_sizes(first, layers, heads, n, d_head, across):
    said = real_model.run_caption("M", "a decoder", layers, heads, n)
    assert said.startswith(f"M is a decoder: {layers} layers × {heads} heads, {n} tokens here (the limit is ")
    assert real_model.OPEN_TEXT in said
    assert real_model.sinks_caption("[CLS]").startswith("Many heads park most of their attention on [CLS] when")
    assert f"Q, K and V ({n} × {d_head} each)" in real_model.open_caption(n, d_head)
    assert real_model.lines_caption("none faint").endswith("a line's opacity its weight (none faint).")
    raw, sinks = first
    stats = head_statistics(raw[None, None], sinks)
    side = min(n, 16)
    words_ = real_model.overview_words(across, side, n, stats)
    assert words_.startswith(real_model.overview_caption(across, side, n))
    assert words_.endswith(real_model.label_counts(real_model.shown_labels(stats)))


@MANY
@covers(
    geometry.worked_text,
    geometry.values_text,
    multi_head.intro_text,
    scaling.softmax_text,
    challenges.progress_words,
    challenges.goal_line,
    words.first_words,
    words.matrix_heading,
)
@given(edited_states(), st.integers(MIN_ROW_TOKENS, MAX_ROW_TOKENS), st.integers(0, 30), st.booleans())
def test_the_words_moved_out_of_the_pages_say_their_numbers(state, n_tokens, solved, done):
    row = geometry.refresher_rows()[-1]  # the worked example: [2, 3]·[5, −1]
    worked = geometry.worked_text(row)
    assert f"= {geometry.format_number(np.dot(row.a, row.b), digits=6)}. Mind the sign" in worked
    assert worked.endswith(f"would give {geometry.format_number(np.dot(np.abs(row.a), np.abs(row.b)), digits=6)}.")
    result = geometry.attend_2d((1, 2), [(1, 0), (0, 1), (1, 1)], [(1, 0), (0, 1), (0, 0)])
    assert geometry.blend_picture_text(result, ["a", "b", "c"]) in geometry.values_text(result, ["a", "b", "c"])
    n = state.n
    assert f"({n} token{'s' if n != 1 else ''}); the numbers" in multi_head.intro_text(n)
    assert scaling.uniform_text(n_tokens) in scaling.softmax_text(n_tokens)
    assert challenges.progress_words(solved) == f"**{solved} of {len(challenges.CHALLENGES)} solved.**"
    assert challenges.goal_line("Goal.", done).endswith(" *(solved)*") == done
    assert words.first_words(state).endswith(words.source_line(state))
    for matrix in "QKV":
        assert words.matrix_heading(matrix).startswith(f"**{matrix}**: ")
        assert words.matrix_heading(matrix, read=True).endswith(", one row a token")
