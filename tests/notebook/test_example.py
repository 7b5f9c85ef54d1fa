"""The example notebook a teacher opens in Colab runs from top to bottom in a real kernel (its install cell aside)
and says what it promises: the causal row, the refused temperature."""

from __future__ import annotations

import json
import os

import nbclient
import nbformat

from attnviz.notebook import Playground
from tests.support.live import REPO

EXAMPLE = REPO / "examples" / "attention_in_a_notebook.ipynb"


def test_the_example_notebook_runs_and_says_what_it_promises(tmp_path):
    notebook = nbformat.read(EXAMPLE, as_version=4)
    notebook.cells = [cell for cell in notebook.cells if "%pip install" not in cell.source]  # attnviz is here already
    env_path = os.environ.get("PYTHONPATH", "")
    os.environ["PYTHONPATH"] = f"{REPO}{os.pathsep}{env_path}" if env_path else str(REPO)
    try:
        client = nbclient.NotebookClient(notebook, timeout=120, resources={"metadata": {"path": tmp_path}})
        client.execute()
    finally:
        os.environ["PYTHONPATH"] = env_path
    outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
    texts = [output.get("text", "") + output.get("data", {}).get("text/plain", "") for output in outputs]
    widgets = [output for output in outputs if "application/vnd.jupyter.widget-view+json" in output.get("data", {})]
    assert len(widgets) == 2  # the Playground and show()'s views
    assert repr(Playground(causal=True).result.weights.round(2)[4]) in texts  # the kernel's causal row, as here
    assert any("the temperature must be from 0.1 to 5, not -1." in text for text in texts)
    assert json.dumps(texts).count("Error") == 0  # no cell raised
