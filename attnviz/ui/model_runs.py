"""How a page gets a real model's run without holding the server: the run happens in attnviz.models.background, and
the page shows what it is waiting for, refreshing itself, until the run is there."""

from __future__ import annotations

import streamlit as st

from attnviz.lessons.real_model import progress_text
from attnviz.models import ModelRun, background
from attnviz.ui.lessons import explained_errors

FIRST_WAIT_S = 0.4  # a cached or short run shows at once, without a flash of "waiting"
POLL_S = 0.5


def model_run(model: str, sentence: str) -> ModelRun:
    """The run of ``sentence`` through ``model``. While it is being made, the page says what is happening and stops
    here; it reruns by itself once the run is ready. Bad input and a missing model show their message and stop."""
    job = background.submit(model, sentence)
    if not job.wait(FIRST_WAIT_S):
        _progress(job)
        st.stop()
    with explained_errors():
        return job.result()


@st.fragment(run_every=POLL_S)
def _progress(job: background.Job) -> None:
    """Redrawn every POLL_S seconds on its own (the rest of the page waits); the whole page reruns when done."""
    if job.done:
        st.rerun()
    job.touch()  # still wanted: the worker skips jobs nobody asks for
    st.info(progress_text(job.model, job.stage, job.seconds(), background.ahead_of(job)), icon=":material/hourglass:")
