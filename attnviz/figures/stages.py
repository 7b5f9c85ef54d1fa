"""Step by step's pictures: a stage's panels side by side as cell models (attnviz.figures.matrix_view), drawn by the
same component as the Playground's views, on the same scales: scores blue–red on one signed-log scale fixed by the
largest |raw score|, weights 0 to 1, masked cells grey ("−∞" as a score, "0" as a weight). The cells a stage changed
are boxed in orange, and the cells the chosen formula reads are outlined dark. Back, Next and another chosen cell
repaint the same canvases in place.
"""

from __future__ import annotations

from attnviz.core.numbers import format_number
from attnviz.figures.colours import reach_of
from attnviz.figures.lens import row_lens
from attnviz.figures.matrix_view import Scale, covered, matrix_view
from attnviz.lessons.questions import stage_target
from attnviz.lessons.stages import Panel, Stage

_VALUE_NAME = {"scores": "score", "weights": "weight", "values": "value"}


def scale_of(panel: Panel) -> Scale:
    return Scale("weights") if panel.kind == "weights" else Scale("signed", reach_of(panel.reach_of), panel.decimals)


def picked_region(panel: Panel, query: int, column: int) -> tuple[int, int, int, int] | None:
    """The region (first row, first column, rows, columns) of ``panel`` that the formula for (query, column) of the
    stage's result reads, or None."""
    rows, cols = panel.matrix.shape
    return {
        "cell": (query, column, 1, 1),
        "row": (query, 0, 1, cols),
        "key_row": (column, 0, 1, cols),  # K's row j: the key of the chosen column
        "column": (0, column, rows, 1),
    }.get(panel.picks)


def chosen_by_click(panel: Panel, row: int, col: int | None) -> dict[str, int]:
    """What a click on (row, col) of ``panel`` chooses: the query and/or the column whose formula reads that cell."""
    match panel.picks:
        case "cell":
            return {"query": row} | ({} if col is None else {"column": col})
        case "row":
            return {"query": row}
        case "key_row":
            return {"column": row}
        case "column":
            return {} if col is None else {"column": col}
    return {}


def panel_widths(stage: Stage) -> list[int]:
    """Width units of the panels' cells side by side: by number of columns (a square score matrix gets more room than a
    narrow Q), within 3 to 12. The row labels the panels share, the first's, take their own width (``labels_first``)."""
    return [min(max(p.matrix.shape[1], 3), 12) for p in stage.panels]


def stage_views(
    stage: Stage, chosen: tuple[int, int] | None = None, *, font_size: int = 13, cover: str | None = None
) -> list[dict]:
    """The view of each panel of ``stage``; ``chosen`` (query, column) outlines the cells its formula reads. The
    panels share their rows: only the first labels them. With ``cover`` (predict mode), every panel but the stage's
    inputs is covered with those words until the student predicts."""
    views = []
    for k, panel in enumerate(stage.panels):
        # While covered, only the query's row is outlined: a chosen column (a cell, K's row, V's column) may be
        # the answer, and an outline on it would say so.
        region = None if chosen is None or (cover and panel.picks != "row") else picked_region(panel, *chosen)
        views.append(
            covered(
                matrix_view(
                    panel.matrix,
                    panel.row_labels,
                    panel.col_labels,
                    scale=scale_of(panel),
                    blocked=panel.blocked,
                    name=f"{stage.key}-{k}",
                    title=panel.title,
                    value_name=_VALUE_NAME[panel.kind],
                    font_size=font_size,
                    changed=panel.changed,
                    boxes=[region] if region else [],
                    row_ticks=None if k == 0 else [""] * len(panel.row_labels),
                    # a covered result knows the row it asks about: its question sits in the other half of the view
                    focus=chosen[0] if cover and chosen is not None and not panel.is_input else None,
                ),
                None if panel.is_input else cover,
            )
        )
    return views


def stage_lens(stage: Stage, views: list[dict], chosen: tuple[int, int]) -> dict:
    """Presenter mode's lens (attnviz.figures.lens) on ``views`` (``stage_views``): the chosen row of what the stage's
    formula works out, the chosen cell outlined; while that is covered (predict mode), the row of the stage's first
    input, which gives nothing away."""
    query, column = chosen
    target = views[stage_target(stage)]
    if target.get("cover"):
        return row_lens(views[0], query, then="Its result is covered until you predict.")
    return row_lens(target, query, chosen=column, then="The formula below works the outlined cell out.")


def stage_notes(stage: Stage, views: list[dict]) -> str:
    """How to read the colours of this stage's pictures (``views``, from ``stage_views``)."""
    notes = []
    scores = [p for p in stage.panels if p.kind == "scores"]
    if scores:
        reach = format_number(reach_of(scores[0].reach_of))
        notes.append(
            f"Scores: blue below 0, red above, one scale for every score picture (full colour at ±{reach}, the largest "
            "raw score; log-compressed, so one big score does not wash out the rest)."
        )
    if any(p.kind == "weights" for p in stage.panels):
        notes.append("Weights: 0 (dark) to 1 (yellow).")
    if any(view["changed"] for view in views):
        notes.append("Boxed in orange: the cells this stage changed.")
    partly = [p.changed is not None and 0 < p.changed.sum() < p.changed.size for p in stage.panels]
    if any(part and not view["changed"] for part, view in zip(partly, views, strict=True)):
        notes.append("Where too many cells changed to box them, the changed ones are the grey, masked cells.")
    return " ".join(notes)
