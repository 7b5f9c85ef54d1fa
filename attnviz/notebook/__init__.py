"""attnviz in a notebook (Jupyter, Colab, VS Code, marimo): the Playground's views as an anywidget, never Streamlit.

    from attnviz.notebook import Playground
    w = Playground(causal=True)   # the rail of controls beside the four views; w.state, w.result
    w.temperature = 0.5           # redraws; a bad value raises AttnvizInputError and is said in the widget

``show(Q, K, V)`` draws the four views of any matrices, ``show_head(run, layer, head)`` a real model's head and
``show_model(name_or_folder, sentence, layer, head)`` a head of a model opened by name, hub id or folder.
Installed with ``pip install "attnviz[notebook]"``.
"""

from attnviz.notebook.playground import FIELDS, Playground
from attnviz.notebook.views import Views, show, show_head, show_model

__all__ = ["FIELDS", "Playground", "Views", "show", "show_head", "show_model"]
