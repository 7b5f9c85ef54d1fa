// Draws one view on a canvas: cells, the lines between groups, numbers, the boxes of changed cells, the outlined
// regions, the focus row, and the labels.

import { blend, targetColours, textOn } from './colour.js';
import { rgbOf } from './dom.js';
import { drawnLabels, everyNth, fitted, GAP } from './layout.js';

// Each view's colours as an opaque flat [r, g, b, …], masked cells grey over the page (so a mask can glide too).
export function coloursOf(view, colours, background) {
  return targetColours(view.colour, view.palette.map((c) => rgbOf(c)), view.range, blend(rgbOf(colours.masked), background));
}

// Draws ``view`` on ``ctx`` (CSS px units) laid out as ``box``, each cell's colour taken from ``rgb``.
// ``cursor`` ({i, j} or null) is the cell the keyboard is on.
export function paint(ctx, view, box, rgb, colours, palette, cursor = null) {
  const rows = view.rows.length, cols = view.ticks.length;
  paintCells(ctx, box, rgb, rows, cols);
  if (view.groups[0] > 1 || view.groups[1] > 1) paintGroups(ctx, view.groups, box, rows, cols, palette);
  if (box.cellFont) paintNumbers(ctx, view, box, rgb, cols);
  if (view.changed.length) paintChanged(ctx, view, box, colours, cols);
  for (const region of view.boxes) paintRegion(ctx, region, box, colours);
  if (view.focus !== null) paintFocus(ctx, view, box, colours, cols);
  if (cursor) paintCursor(ctx, cursor, box, palette);
  paintRowLabels(ctx, view, box, palette);
  paintColumnLabels(ctx, view, box, palette, rows);
}

// Above this many cells, cells are one pixel each of a small image drawn scaled up, sharp: one draw call instead of
// 16,384 fills a 128 × 128 view (the fills were most of a large page's paint).
const PIXEL_CELLS = 1024;

function paintCells(ctx, box, rgb, rows, cols) {
  const { left, top, cellW, cellH } = box;
  if (rows * cols > PIXEL_CELLS) {
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(cellImage(rgb, rows, cols), left, top, cols * cellW, rows * cellH);
    return;
  }
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const k = 3 * (i * cols + j);
      ctx.fillStyle = `rgb(${rgb[k] | 0},${rgb[k + 1] | 0},${rgb[k + 2] | 0})`;
      // Overlap by a fraction of a pixel so no seam shows between cells.
      ctx.fillRect(left + j * cellW, top + i * cellH, cellW + 0.5, cellH + 0.5);
    }
  }
}

// The cells' colours (flat [r, g, b, …]) as a canvas of ``cols`` × ``rows`` pixels, one a cell.
function cellImage(rgb, rows, cols) {
  const image = new ImageData(cols, rows);
  for (let k = 0; k < rows * cols; k++) {
    image.data[4 * k] = rgb[3 * k];
    image.data[4 * k + 1] = rgb[3 * k + 1];
    image.data[4 * k + 2] = rgb[3 * k + 2];
    image.data[4 * k + 3] = 255;
  }
  const canvas = Object.assign(document.createElement('canvas'), { width: cols, height: rows });
  canvas.getContext('2d').putImageData(image, 0, 0);
  return canvas;
}

// A line in the page's background between every ``groups`` rows and columns: heads side by side, a map of maps.
function paintGroups(ctx, groups, { left, top, cellW, cellH }, rows, cols, palette) {
  ctx.fillStyle = `rgb(${palette.background.slice(0, 3).join(',')})`;
  const width = 2;
  for (let j = groups[1]; groups[1] > 1 && j < cols; j += groups[1]) ctx.fillRect(left + j * cellW - width / 2, top, width, rows * cellH);
  for (let i = groups[0]; groups[0] > 1 && i < rows; i += groups[0]) ctx.fillRect(left, top + i * cellH - width / 2, cols * cellW, width);
}

function paintNumbers(ctx, view, { left, top, cellW, cellH, cellFont, cellTexts }, rgb, cols) {
  ctx.font = `${cellFont}px sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  cellTexts.forEach((text, k) => {
    const x = left + ((k % cols) + 0.5) * cellW, y = top + (Math.floor(k / cols) + 0.5) * cellH;
    ctx.fillStyle = textOn([rgb[3 * k], rgb[3 * k + 1], rgb[3 * k + 2]]);
    ctx.fillText(text, x, y);
  });
}

// A changed cell's box: a black line under a dashed orange one. On any cell one of the two stands out at 3 : 1 or
// more (black where the cell is light, the orange where it is dark; tests/figures/test_contrast.py sweeps it).
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

// A region [row, col, rows, cols] outlined as the focus row is: black with a white core, seen on any cell and theme.
function paintRegion(ctx, [i, j, rows, cols], { left, top, cellW, cellH }, colours) {
  const x = left + j * cellW + 1.5, y = top + i * cellH + 1.5, w = cols * cellW - 3, h = rows * cellH - 3;
  ctx.lineWidth = 3;
  ctx.strokeStyle = colours.focus;
  ctx.strokeRect(x, y, w, h);
  ctx.lineWidth = 1;
  ctx.strokeStyle = '#fff';
  ctx.strokeRect(x, y, w, h);
}

function paintFocus(ctx, view, box, colours, cols) {
  paintRegion(ctx, [view.focus, 0, 1, cols], box, colours);
}

// Row labels right-aligned left of the cells, those the layout chose (all where they fit): the focus row's in bold.
function paintRowLabels(ctx, view, { left, top, cellH, rowFont, rowLabels }, palette) {
  ctx.fillStyle = palette.text;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'right';
  for (const i of rowLabels) {
    ctx.font = `${i === view.focus ? 'bold ' : ''}${rowFont}px sans-serif`;
    ctx.fillText(view.row_ticks[i], left - GAP, top + (i + 0.5) * cellH, left - GAP);
  }
}

// Column ticks under the cells, slanted when there are many.
function paintColumnLabels(ctx, view, box, palette, rows) {
  const { left, top, cellW, cellH, tick } = box;
  ctx.fillStyle = palette.text;
  ctx.font = `${tick - 1}px sans-serif`;
  const drawn = drawnLabels(view.ticks, everyNth(box.rotated ? tick * 0.8 : tick * 2.5, cellW));
  const y = top + rows * cellH + GAP;
  view.ticks.forEach((label, j) => {
    if (!drawn.has(j)) return;
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
