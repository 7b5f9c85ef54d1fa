"""The example notebook a teacher opens in Colab runs from top to bottom in a real kernel (its install cell aside)
and says what it promises: the causal row, the refused temperature."""

from __future__ import annotations

import os

import nbclient
import nbformat

from attnviz.notebook import Playground
from tests.support.live import REPO

EXAMPLE = REPO / "examples" / "attention_in_a_notebook.ipynb"


def test_the_example_notebook_runs_and_says_what_it_promises(tmp_path, monkeypatch):
    notebook = nbformat.read(EXAMPLE, as_version=4)
    notebook.cells = [cell for cell in notebook.cells if "%pip install" not in cell.source]  # attnviz is here already
    # The kernel imports attnviz from this checkout; the test's own environment is as it was afterwards.
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    client = nbclient.NotebookClient(notebook, timeout=120, allow_errors=True, resources={"metadata": {"path": tmp_path}})
    client.execute()  # every cell runs, a cell that raises included: its error is an output, listed below
    outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
    errors = [f"{output.ename}: {output.evalue}" for output in outputs if output.output_type == "error"]
    assert errors == []  # no cell raised
    texts = [output.get("text", "") + output.get("data", {}).get("text/plain", "") for output in outputs]
    widgets = [output for output in outputs if "application/vnd.jupyter.widget-view+json" in output.get("data", {})]
    assert len(widgets) == 2  # the Playground and show()'s views
    assert repr(Playground(causal=True).result.weights.round(2)[4]) in texts  # the kernel's causal row, as here
    assert "the temperature must be from 0.1 to 5, not -1.\n" in texts  # printed by the cell that catches it
