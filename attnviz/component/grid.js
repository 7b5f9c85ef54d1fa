// The views of a grid (.attnviz-views): one View (view.js) a view, kept across calls, each told its canvas's size by
// one ResizeObserver; an editable view shows the edits on their way to Python over its cells (edits.js).

import { unpacked } from './colour.js';
import { theme } from './dom.js';
import { overlaid } from './edits.js';
import { View } from './view.js';

// Per views grid: its View objects and the observer that hands each canvas its size. Kept here, not on the nodes.
const grids = new WeakMap();
const viewOfCanvas = new WeakMap();

function gridOf(root) {
  if (!grids.has(root)) {
    // Widths come from here, measured by the browser's own layout: reading them in the update would force a layout.
    // A new width (window, sidebar, presenter mode) or theme redraws every view as it is, without a glide.
    const resizes = new ResizeObserver((entries) => {
      const palette = theme(root);
      for (const { target, contentRect } of entries) viewOfCanvas.get(target).resized(contentRect.width, contentRect.height, palette);
    });
    grids.set(root, { views: [], resizes });
  }
  return grids.get(root);
}

// Draws ``data.views`` into ``root`` (a .attnviz-views grid), keeping one View a view across calls; ``choose({view, row,
// col})`` is called when a cell or row label (col null) is clicked, ``predict({row, col})`` when a covered view's is;
// ``edits`` (edits.js, or null): the instrument's queue of edits, an editable view's cells showing its pending ones,
// ``editing(editor, open)`` told when an input opens or closes.
export function drawViews(root, data, choose, predict, { edits = null, editing = null } = {}) {
  const grid = gridOf(root), palette = theme(root); // the palette read before any write below
  const edit = (typed) => edits?.submit(typed);
  const shared = { ...data, choose, predict, edit, editing };
  data.views.forEach((sentView, index) => {
    const view = sentView.edit && edits ? overlaid(sentView, edits.pending(sentView.edit.name)) : sentView;
    if (!grid.views[index]) {
      grid.views[index] = new View(root, index);
      viewOfCanvas.set(grid.views[index].canvas, grid.views[index]);
      grid.resizes.observe(grid.views[index].canvas);
    }
    const shown = grid.views[index], sent = `${data.height} ${data.font_size} ${data.lens?.view} ${JSON.stringify(view)}`;
    shown.shared = shared; // the newest callback to Python
    if (sent === shown.sent && palette.text === shown.palette.text) return; // unchanged (raw scores, on a toggle)
    shown.sent = sent;
    shown.update(unpacked(view), shared, palette);
    shown.glide();
  });
  for (const extra of grid.views.splice(data.views.length)) extra.figure.remove();
}
