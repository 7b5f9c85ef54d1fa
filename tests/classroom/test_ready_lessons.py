"""The ready lessons' notes quote weights: each number is the core's, for the step's own setup."""

import re

import numpy as np

from attnviz.classroom.lesson_plan import READY
from attnviz.core.numbers import format_fixed


def weight_said(step, key: str) -> str:
    state = step.view.state
    row = state.result().weights[state.focus]  # (n,)
    return format_fixed(float(row[state.tokens.index(key)]))


def test_the_notes_weights_are_what_the_core_computes_for_their_steps():
    first, _, _, pronoun, *_ = READY["Attention in 15 minutes"].steps
    assert [weight_said(first, "not"), weight_said(first, "amazing")] == ["0.67", "0.33"]
    assert "(0.67)" in first.note and "(0.33)" in first.note
    assert weight_said(pronoun, "animal") == "0.87" and "0.87" in pronoun.note
    wide, narrow = READY["Why the mask and the scale exist"].steps[3:5]
    spread = {step: np.sqrt(dict(step.view.settings)["d_k"]) for step in (wide, narrow)}  # the scores' spread, √d_k
    assert f"√512 ≈ {round(spread[wide])}" in wide.note and f"about {spread[narrow]:g}" in narrow.note


def test_a_note_names_a_row_by_the_label_the_views_draw_on_it():
    """Step 1 said "Row 3 of the weights" of “good”, whose row the views label "4: good"."""
    first = READY["Attention in 15 minutes"].steps[0]
    state = first.view.state
    said = re.search(r"Row (\d+) of the weights: “(\w+)”", first.note)
    assert said and state.labels[int(said[1])] == f"{said[1]}: {said[2]}" == state.labels[state.focus]


def test_is_attention_an_explanation_quotes_the_models_numbers(encoder, decoder):
    """Each number in the lesson's notes, from the step's own run, with numpy written out here."""
    asked, ignored, sinks, rolled = READY["Is attention an explanation?"].steps
    settings = dict(asked.view.settings)
    run = decoder.run(settings["sentence"])
    row = run.attention[settings["layer"], settings["head"], settings["query"]]

    def top(logits):
        p = np.exp(logits.astype(float) - logits.max())
        p /= p.sum()
        return p, run_text(p.argmax()), f"{100 * p.max():.1f}%"

    def run_text(token_id):
        return decoder.token_text(int(token_id))

    p, first, share = top(run.last_logits)
    assert row.argmax() == 4 and f"puts {row.max():.2f} of “ is”'s attention on “ is”" in asked.note
    assert first == " Paris" and f"“ Paris” ({share}" in asked.note
    for step, gone in ((asked, 4), (ignored, 3)):  # each question's answer: the token taken away
        assert dict(step.view.settings)["removed"] == gone
        q, after, after_share = top(decoder.run(settings["sentence"], gone).last_logits)
        assert f"total variation {0.5 * np.abs(p - q).sum():.3f}" in step.note
        assert (after == first) == (gone == 4)  # “ is” taken away keeps the top word; “ France” changes it
        assert after_share in step.note
    last = run.attention[-1, :, -1].argmax(axis=-1)  # (heads,): the key each last-layer head attends to most
    assert 3 not in last
    settings = dict(sinks.view.settings)
    run = encoder.run(settings["sentence"])
    layer, head = settings["layer"], settings["head"]
    weighted = run.attention[layer, head] * run.value_norms[layer, head]
    raw_share = run.attention[layer, head][:, list(run.sinks)].sum(-1).mean()
    value_share = (weighted[:, list(run.sinks)].sum(-1) / weighted.sum(-1)).mean()
    assert f"{100 * raw_share:.1f}% of its weight" in sinks.note and f"{100 * value_share:.1f}% of what" in sinks.note
    n = len(run.tokens)
    so_far = np.eye(n)
    for step in run.attention[: layer + 1]:
        so_far = (0.5 * step.mean(axis=0) + 0.5 * np.eye(n)) @ so_far
    assert (
        f"after layer {layer + 1} the sinks' share is {100 * so_far[:, list(run.sinks)].sum(-1).mean():.1f}%"
        in rolled.note
    )
