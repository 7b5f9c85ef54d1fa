"""View-only widgets: the four views (raw scores, scaled and masked scores, weights, outputs) of any Q, K and V, or
of one head of a real model's run (attnviz.models). A click on a cell or a row label outlines its row; nothing else
changes."""

from __future__ import annotations

from dataclasses import replace

from attnviz.component.data import component_data
from attnviz.core.errors import AttnvizInputError
from attnviz.core.playground_state import PlaygroundState, import_head
from attnviz.lessons.real_model import head_name, visible_token
from attnviz.notebook.host import FONT_SIZE, HEIGHT, GridWidget
from attnviz.playground.controls import set_field
from attnviz.playground.views import READING, playground_views


class Views(GridWidget):
    """The four views of one PlaygroundState, without the controls. ``.state``, ``.result``."""

    def __init__(self, state: PlaygroundState) -> None:
        super().__init__()
        self._state = state
        self._redraw()

    def _handle(self, event: dict) -> None:
        cell = event.get("cell")
        if not isinstance(cell, dict):  # a view-only widget takes a click's row and nothing else
            return
        try:
            self._state, _ = set_field(self._state, "focus", cell.get("row"))
        except AttnvizInputError:
            return  # a row from before: nothing to move
        self._redraw()

    def _redraw(self) -> None:
        views = playground_views(self._state, font_size=FONT_SIZE)
        caption = f"{self._state.imported.title}: a click on a cell or a row label outlines its row." + READING
        self._draw(
            component_data(
                views,
                caption=caption,
                height=HEIGHT,
                font_size=FONT_SIZE,
                columns=[1, 1],
                enter="Enter outlines its row.",
            )
        )


def show(Q, K, V, tokens=None, causal: bool = False, scale: bool = True, *, title: str = "Your Q, K and V") -> Views:
    """The four views of ``Q`` (n, d_k), ``K`` (n, d_k) and ``V`` (n, d_v), computed by attnviz.attention (the
    numbers held as float32, as the app holds an imported head), with the causal mask and 1/√d_k scaling as asked.
    ``tokens`` label the rows (by default 0 … n − 1). Up to 128 tokens and 64 dimensions; AttnvizInputError if the
    matrices don't fit."""
    n = len(Q)
    tokens = [str(i) for i in range(n)] if tokens is None else [str(token) for token in tokens]
    state = import_head(PlaygroundState(focus=0), tokens, Q, K, V, causal=bool(causal), title=title)
    return Views(replace(state, scale=bool(scale)))


def show_head(run, layer: int, head: int) -> Views:
    """Head ``head`` of layer ``layer`` of a real model's run (attnviz.models): its own Q, K and V and tokens, with the
    model's mask, so its weights are ``run.attention[layer, head]``."""
    if not (0 <= layer < run.n_layers and 0 <= head < run.n_heads):
        raise AttnvizInputError(
            f"{run.model} has layers 0 to {run.n_layers - 1} and heads 0 to {run.n_heads - 1}, not layer {layer}, "
            f"head {head}."
        )
    return show(
        run.q[layer, head],
        run.k[layer, head],
        run.v[layer, head],
        [visible_token(token) for token in run.tokens],
        causal=run.causal,
        title=f"{run.model}, {head_name(layer, head).lower()}",
    )


def show_model(name_or_folder: str, sentence: str = "The animal didn't cross the street because it was too tired.",
               layer: int = 0, head: int = 0) -> Views:  # fmt: skip
    """A model's head on ``sentence``: the shipped two by name, or any BERT, GPT-2, Llama or Qwen2 model by its Hugging
    Face hub id or a local folder (attnviz.models.load_model); AttnvizInputError in one line if it can't be opened."""
    from attnviz.models import load_model  # the real models' libraries load with the first model, not with this module

    return show_head(load_model(name_or_folder).run(sentence), layer, head)
