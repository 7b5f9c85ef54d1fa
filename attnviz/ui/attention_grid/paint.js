// Draws one view on a canvas: cells, numbers, the boxes of changed cells, the focus row, and the labels.

import { textOn } from './colour.js';
import { everyNth, fitted, GAP } from './layout.js';

// Draws ``view`` on ``ctx`` (CSS px units) laid out as ``box``, each cell's colour taken from ``rgb``.
// ``cursor`` ({i, j} or null) is the cell the keyboard is on.
export function paint(ctx, view, box, rgb, colours, palette, cursor = null) {
  const rows = view.rows.length, cols = view.ticks.length;
  paintCells(ctx, box, rgb, rows, cols);
  if (box.cellFont) paintNumbers(ctx, view, box, rgb, cols);
  if (view.changed.length) paintChanged(ctx, view, box, colours, cols);
  if (view.focus !== null) paintFocus(ctx, view, box, colours, cols);
  if (cursor) paintCursor(ctx, cursor, box, palette);
  paintRowLabels(ctx, view, box, palette);
  paintColumnLabels(ctx, view, box, palette, rows);
}

function paintCells(ctx, { left, top, cellW, cellH }, rgb, rows, cols) {
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const k = 3 * (i * cols + j);
      ctx.fillStyle = `rgb(${rgb[k] | 0},${rgb[k + 1] | 0},${rgb[k + 2] | 0})`;
      // Overlap by a fraction of a pixel so no seam shows between cells.
      ctx.fillRect(left + j * cellW, top + i * cellH, cellW + 0.5, cellH + 0.5);
    }
  }
}

function paintNumbers(ctx, view, { left, top, cellW, cellH, cellFont }, rgb, cols) {
  ctx.font = `${cellFont}px sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  view.text.forEach((text, k) => {
    const x = left + ((k % cols) + 0.5) * cellW, y = top + (Math.floor(k / cols) + 0.5) * cellH;
    ctx.fillStyle = textOn([rgb[3 * k], rgb[3 * k + 1], rgb[3 * k + 2]]);
    ctx.fillText(text, x, y);
  });
}

// A changed cell's box: a black line under a dashed orange one. On any cell one of the two stands out at 3 : 1 or
// more (black where the cell is light, the orange where it is dark; tests/figures/test_colours.py sweeps it).
function paintChanged(ctx, view, { left, top, cellW, cellH }, colours, cols) {
  const boxes = view.changed.map((k) => [left + (k % cols) * cellW + 1.5, top + Math.floor(k / cols) * cellH + 1.5]);
  ctx.lineWidth = 3;
  ctx.strokeStyle = '#000';
  for (const [x, y] of boxes) ctx.strokeRect(x, y, cellW - 3, cellH - 3);
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = colours.changed;
  ctx.setLineDash([4, 3]);
  for (const [x, y] of boxes) ctx.strokeRect(x, y, cellW - 3, cellH - 3);
  ctx.setLineDash([]);
}

// The keyboard's cell: a ring in the page's text colour around a white one, so it shows on any cell and theme.
function paintCursor(ctx, { i, j }, { left, top, cellW, cellH }, palette) {
  ctx.lineWidth = 4;
  ctx.strokeStyle = '#fff';
  ctx.strokeRect(left + j * cellW, top + i * cellH, cellW, cellH);
  ctx.lineWidth = 2;
  ctx.strokeStyle = palette.text;
  ctx.strokeRect(left + j * cellW, top + i * cellH, cellW, cellH);
}

function paintFocus(ctx, view, { left, top, cellW, cellH }, colours, cols) {
  const y = top + view.focus * cellH; // black with a white core: seen on light and dark themes alike
  ctx.lineWidth = 3;
  ctx.strokeStyle = colours.focus;
  ctx.strokeRect(left + 1.5, y + 1.5, cols * cellW - 3, cellH - 3);
  ctx.lineWidth = 1;
  ctx.strokeStyle = '#fff';
  ctx.strokeRect(left + 1.5, y + 1.5, cols * cellW - 3, cellH - 3);
}

// Row labels right-aligned left of the cells: the focus row's always, and room around it.
function paintRowLabels(ctx, view, { left, top, cellH, tick }, palette) {
  ctx.fillStyle = palette.text;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'right';
  const rowStep = everyNth(tick, cellH);
  view.rows.forEach((label, i) => {
    const nearFocus = view.focus !== null && i !== view.focus && Math.abs(i - view.focus) < rowStep;
    if (i !== view.focus && (i % rowStep || nearFocus)) return;
    ctx.font = `${i === view.focus ? 'bold ' : ''}${tick}px sans-serif`;
    ctx.fillText(label, left - GAP, top + (i + 0.5) * cellH, left - GAP);
  });
}

// Column ticks under the cells, slanted when there are many.
function paintColumnLabels(ctx, view, box, palette, rows) {
  const { left, top, cellW, cellH, tick } = box;
  ctx.fillStyle = palette.text;
  ctx.font = `${tick - 1}px sans-serif`;
  const colStep = everyNth(box.rotated ? tick * 0.8 : tick * 2.5, cellW);
  const y = top + rows * cellH + GAP;
  view.ticks.forEach((label, j) => {
    if (j % colStep) return;
    ctx.save();
    ctx.translate(left + (j + 0.5) * cellW, y);
    if (box.rotated) {
      ctx.rotate(-Math.PI / 3);
      ctx.textAlign = 'right';
      ctx.fillText(fitted(ctx, label, (box.bottom - GAP) / Math.sin(Math.PI / 3)), 0, 0);
    } else {
      ctx.textAlign = 'center';
      ctx.textBaseline = 'top';
      ctx.fillText(label, 0, 0);
    }
    ctx.restore();
  });
}
