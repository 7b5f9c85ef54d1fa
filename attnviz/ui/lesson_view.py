"""What a lesson step's note talks about, brought on screen when the step arrives: the Real model page is many screens
long, and a projector shows one (issue 40)."""

from __future__ import annotations

import json

import streamlit as st

from attnviz.ui.lesson_plan import running

# Once a step: a rerun within the step (the teacher clicks a cell) leaves the page where the teacher scrolled it. It
# waits for the run to end, so that everything above the view has its height, then puts the view under the top bar.
_BRING_JS = """
export default function ({ data }) {
  const { step, selector } = JSON.parse(data);
  if (window.__attnvizLessonView === step) return;
  window.__attnvizLessonView = step;
  const app = document.querySelector('[data-testid="stApp"]');
  const giveUp = performance.now() + 300000; // a token taken away on a busy server may take a while
  const bring = () => {
    if (window.__attnvizLessonView !== step) return; // the next step has arrived meanwhile
    const view = document.querySelector(selector);
    if (!view || app?.getAttribute('data-test-script-state') === 'running') {
      if (performance.now() < giveUp) requestAnimationFrame(bring);
      return;
    }
    const bar = document.querySelector('[data-testid="stHeader"]');
    view.style.scrollMarginTop = `${bar ? bar.getBoundingClientRect().bottom : 0}px`;
    view.scrollIntoView({ block: 'start' });
  };
  requestAnimationFrame(bring);
}
"""
_BRING = st.components.v2.component("attnviz_lesson_view", js=_BRING_JS)


def bring_into_view(selector: str) -> None:
    """While a lesson is presented: when its step arrives, the element ``selector`` (what its note is about) is
    scrolled to the top of the screen."""
    if (run := running()) is None:
        return
    plan, index, answered = run
    step = f"{plan.title}\n{index}\n{answered}"
    _BRING(key="lesson_view", data=json.dumps({"step": step, "selector": selector}))
