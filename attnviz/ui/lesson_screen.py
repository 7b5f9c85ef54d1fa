"""A presented lesson on the projector's one screen: its bar stays at the top at one height, the class's answers sit
over the controls rather than under the bar, and each step opens scrolled to what its note talks about."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

# What a step's note talks about, by page: the thing a clicker (which moves the lesson, not the page) must find on
# screen. The Playground's notes read the weights (and the lens, presenter mode's focus row: both, or the views would
# scroll off under the bar); Step by step's the chosen row, large, and the formula; Geometry's the arrows; Multi-head's
# the heads; Why we scale's the spread of the scores; the Real model's the head's map and its check beside it, or what
# taking a token away did (drawn once its run is done: the page's growth brings it on screen).
SUBJECTS = {  # CSS selectors, the first found wins; all a selector finds are shown together
    "playground": (".attnviz-views, .attnviz-lens:not([hidden])", '.attnviz-view[data-view="weights"]'),
    "step_by_step": (".attnviz-lens:not([hidden]), .st-key-stage_formula",),
    "geometry": (".st-key-geometry_arrows",),
    "multi_head": (".st-key-mh-heads",),
    "why_scale": (".st-key-why_variance",),
    "real_model": (".st-key-rm_change", ".st-key-rm_explain"),  # what a token taken away did, else the head's check
    "watch_it_learn": (".st-key-induction-train",),  # the induction experiment's Train, with its choice of layers
}
# The bar shows the step's words whole (a clicker cannot scroll it) and stays at the top as the page scrolls
# to a step's subject; the class's answers cover the Playground's controls, which the question does not need (its
# Answer sets them), so the views and the lens stay in sight.
LESSON_CSS = """
.st-key-lesson-subject { display: none; } /* a script, nothing to see */
[data-testid="stLayoutWrapper"]:has(> .st-key-lesson_bar) { position: sticky; top: 3.4rem; z-index: 999990; }
.st-key-lesson_bar { background: var(--attnviz-page-bg, Canvas); }
.st-key-lesson_bar [data-testid="stColumn"]:first-child [data-testid="stMarkdownContainer"]:not(.st-key-lesson_tally *) {
  font-size: 0.85rem; line-height: 1.35; } /* whole: the bar grows to the step's words (their limits: core/limits.py) */
.st-key-lesson_tally { position: fixed; left: 0.5rem; top: 9rem; width: 25vw; max-height: calc(100vh - 9.5rem);
  overflow-y: auto; z-index: 999980; padding: 0.4rem 0.6rem; border-radius: 0.5rem; font-size: 1rem;
  background: var(--attnviz-page-bg, Canvas); border: 1px solid rgba(128, 128, 128, 0.55);
  box-shadow: 0 0.2rem 0.8rem rgba(0, 0, 0, 0.25); }
/* The QR code and the code side by side, the address under them: words at 16 px at least, the code at 40 px, for the
   back row. */
.st-key-lesson_tally [data-testid="stHorizontalBlock"] { flex-wrap: nowrap; gap: 0.5rem; }
.st-key-lesson_tally [data-testid="stColumn"] { min-width: 0 !important; }
.st-key-lesson_tally p, .st-key-lesson_tally code { font-size: 1rem; line-height: 1.35; }
.st-key-lesson_tally [data-testid="stVerticalBlock"] { gap: 0.3rem; }
.st-key-lesson_tally [data-testid="stCode"] pre { padding: 0.2rem 0.5rem; }
.st-key-lesson_tally [data-testid="stCode"] code { font-size: 0.8rem; }
.st-key-lesson_code strong { display: block; font-size: 2.5rem; line-height: 1.1; white-space: nowrap; }
/* A phone: the note on its line, the four buttons in one row under it (stacked, they took 374 of 844 px), and the
   bar alone holds the top: the Playground's controls scroll with the page. */
@media (max-width: 640px) {
  .st-key-lesson_bar > [data-testid="stLayoutWrapper"] > [data-testid="stHorizontalBlock"] { display: grid;
    grid-template-columns: repeat(3, auto) 1fr; gap: 0.3rem; }
  .st-key-lesson_bar > [data-testid="stLayoutWrapper"] > [data-testid="stHorizontalBlock"] > [data-testid="stColumn"] {
    min-width: 0 !important; width: auto !important; }
  .st-key-lesson_bar > [data-testid="stLayoutWrapper"] > [data-testid="stHorizontalBlock"] > [data-testid="stColumn"]:first-child {
    grid-column: 1 / -1; }
  .st-key-lesson_bar button { padding: 0.2rem 0.4rem; min-height: 2.2rem; gap: 0.25rem; }
  .st-key-lesson_bar button p { font-size: 0.875rem; }
  .st-key-lesson-ask button span:has(> [data-testid="stIconMaterial"]) { display: none; } /* its words, whole, in the row's room */
  .attnviz-rail { position: static !important; }
}
"""
_SUBJECT = st.components.v2.component(
    "attnviz_lesson_subject", js=(Path(__file__).parent / "lesson_subject.js").read_text(encoding="utf-8")
)


def show_subject(page: str, arrival: int) -> None:
    """Scrolls ``page`` to what the step's note talks about, once an ``arrival`` (a count of the steps shown), below
    the bar."""
    subject = {"selectors": list(SUBJECTS.get(page, ())), "arrival": arrival}
    _SUBJECT(key="lesson.subject", data=subject)
