"""The words that tell a lesson's steps apart in the editor (attnviz.classroom.lesson_plan holds the steps)."""

from __future__ import annotations

from attnviz.core.playground_state import PlaygroundState
from attnviz.lessons import predictions
from attnviz.pages import page_named


def cover_label(cover: str) -> str:
    """A choice of the editor's "Cover while it asks" (attnviz.classroom.lesson_plan.COVERS)."""
    if cover == "none":
        return "No cover: the views stay open"
    return predictions.KINDS[cover] if cover else "The setup's own question (else: which key most?)"


def step_label(step) -> str:
    """What tells ``step`` (attnviz.classroom.lesson_plan.Step) apart in the editor: its page, its sentence
    (shortened), what its setup changes from the Playground's defaults, its prediction question and the page's own
    settings, e.g. "Playground · “The movie was …” · causal mask on, focus “4: good”"."""
    view, default = step.view, PlaygroundState()
    state = view.state
    said = []
    if state.causal:
        said.append("causal mask on")
    if not state.scale:
        said.append("no ÷ √d_k")
    if state.temperature != default.temperature:
        said.append(f"τ = {state.temperature:g}")
    if (state.d_k, state.d_v) != (default.d_k, default.d_v):
        said.append(f"d_k = {state.d_k}, d_v = {state.d_v}")
    if state.blocked_keys:
        said.append("keys blocked: " + ", ".join(f"“{state.labels[k]}”" for k in state.blocked_keys))
    if state.edits:
        said.append(f"{len(state.edits)} typed value{'s' if len(state.edits) != 1 else ''}")
    said.append(f"focus “{state.labels[state.focus]}”")  # by position: a word may come twice
    if state.predict:
        said.append(f"predict: {predictions.KINDS[state.predict].rstrip('?').lower()}")
    said += [f"{name} = {value}" for name, value in view.settings]
    sentence = state.sentence if len(state.sentence) <= 40 else state.sentence[:39].rstrip() + "…"
    return f"{page_named(view.page).title} · “{sentence}” · {', '.join(said)}"


def ready_line(title: str, steps: int) -> str:
    """A ready lesson in the list: its title and how many steps it has."""
    return f"**{title}**: {steps} step{'s' if steps != 1 else ''}"


def step_heading(index: int, label: str) -> str:
    """A step of the lesson being built, counted from 1; ``label`` as markdown shows it (escaped by the page)."""
    return f"**Step {index + 1}**: {label}"
