// Where a view's labels and cells go, and how large its numbers can be. Pure given a canvas context's measureText
// (tests/js pass a stub), so the rules are tested without a browser.

export const GAP = 4; // px between a label and the cells
const LEAST_LABEL = 10; // px: row labels shrink to fit their rows down to this size, and thin out only below it

// Sizes of everything but the cells, in CSS px, from the view and the canvas's width and height.
export function layout(ctx, view, width, height, fontSize) {
  const tick = view.tick_font;
  const left = Math.min(width * 0.3, labelsWidth(ctx, view)) + 2 * GAP;
  const glyphs = glyphHeight(ctx, view.row_ticks, tick);
  ctx.font = `${tick - 1}px sans-serif`;
  const widest = Math.max(...view.ticks.map((t) => ctx.measureText(t).width));
  // Slanted when there are many; a few numbers spread out (a map of maps numbers each map once) stay upright.
  const rotated = view.ticks.length > 4 && view.ticks.every(Boolean);
  const bottom = Math.min(height * 0.22, (rotated ? widest * Math.sin(Math.PI / 3) + tick * 0.6 : tick) + 2 * GAP);
  const cellW = (width - left - GAP) / view.ticks.length;
  const cellH = (height - bottom - GAP) / view.rows.length;
  const box = { left, top: GAP, bottom, cellW, cellH, tick, rotated, width, height };
  return { ...box, ...rowLabels(view, tick, glyphs, cellH), ...cellTexts(ctx, view, box, fontSize) };
}

// What the cells draw and at what size: every digit where it fits; else numbers from 100 up without their decimals,
// where that makes them fit (their hover and the reader's table keep every digit); else none (cellFont 0).
export function cellTexts(ctx, view, box, fontSize) {
  const size = cellFont(ctx, view, box, fontSize);
  if (size || !view.text.length) return { cellFont: size, cellTexts: view.text };
  const short = view.text.map(shortened);
  return { cellFont: cellFont(ctx, { ...view, text: short }, box, fontSize), cellTexts: short };
}

// "565.69" → "566", "−800.00" → "−800"; a smaller number, or a word ("−∞"), as it is.
export function shortened(text) {
  const value = Number(text.replace('−', '-'));
  return Number.isFinite(value) && Math.abs(value) >= 100 ? String(Math.round(value)).replace('-', '−') : text;
}

// The widest of a view's row labels in px, drawn bold at its ticks' size (and the context left in that font).
export function labelsWidth(ctx, view) {
  ctx.font = `bold ${view.tick_font}px sans-serif`;
  return Math.max(...view.row_ticks.map((r) => ctx.measureText(r).width));
}

// How tall ``labels`` stand in the context's font, top of the tallest glyph to the foot of the lowest (as the font
// draws these very labels); 1.15 of ``size`` where the context cannot measure (Node's tests).
export function glyphHeight(ctx, labels, size) {
  let ascent = 0, descent = 0;
  for (const label of labels.filter(Boolean)) {
    const metrics = ctx.measureText(label);
    if (metrics.actualBoundingBoxAscent === undefined) return size * 1.15;
    ascent = Math.max(ascent, metrics.actualBoundingBoxAscent);
    descent = Math.max(descent, metrics.actualBoundingBoxDescent);
  }
  return ascent + descent;
}

// The row labels' size and which rows are labelled: every row at the ticks' size where the labels' glyphs
// (``glyphs`` px tall at ``tick`` px) fit a row; else every row at the largest size that fits, down to LEAST_LABEL;
// only below that every n-th row (the focus row always).
export function rowLabels(view, tick, glyphs, cellH) {
  const fits = Math.min(tick, Math.floor((tick * cellH) / Math.max(glyphs, 0.1)));
  const step = fits >= LEAST_LABEL ? 1 : Math.ceil(glyphs / Math.max(cellH, 0.1));
  return { rowFont: fits >= LEAST_LABEL ? fits : tick, rowLabels: [...drawnLabels(view.row_ticks, step, view.focus)] };
}

// The largest cell-text size (≤ fontSize − 1) at which the widest text fits its cell; 0 when under 7 px.
export function cellFont(ctx, view, box, fontSize) {
  if (!view.text.length) return 0;
  ctx.font = '10px sans-serif';
  const widest = Math.max(...view.text.map((t) => ctx.measureText(t).width)) / 10;
  const size = Math.floor(Math.min(fontSize - 1, box.cellH * 0.6, (box.cellW - 2) / Math.max(widest, 0.1)));
  return size >= 7 ? size : 0;
}

// The height in CSS px of a digit drawn at ``size`` px, as the font draws it (0.72 of the size where the context
// cannot measure, as in Node's tests); 0 for no text.
export function digitHeight(ctx, size) {
  if (!size) return 0;
  ctx.font = `${size}px sans-serif`;
  ctx.textBaseline = 'alphabetic'; // the ascent is measured from the baseline: a digit's foot
  const ascent = ctx.measureText('0').actualBoundingBoxAscent || 0.72 * size;
  return Math.round(ascent * 10) / 10;
}

// ``label`` cut with "…" to fit ``space`` px (hover gives it whole).
export function fitted(ctx, label, space) {
  if (ctx.measureText(label).width <= space) return label;
  let cut = label;
  while (cut.length > 1 && ctx.measureText(`${cut}…`).width > space) cut = cut.slice(0, -1);
  return `${cut}…`;
}

// Label every n-th row or column so labels of ``size`` px do not overlap in ``space`` px each.
export function everyNth(size, space) {
  return Math.max(1, Math.ceil((size * 1.15) / Math.max(space, 0.1)));
}

// Which of ``labels`` are drawn: each non-empty one at least ``step`` places after the last one drawn (every
// step-th where all are given), and ``always`` (the focus row, or null) whatever its neighbours.
export function drawnLabels(labels, step, always = null) {
  const drawn = new Set();
  let last = -Infinity;
  labels.forEach((label, i) => {
    const nearAlways = always !== null && i !== always && Math.abs(i - always) < step;
    if (i === always || (label && i - last >= step && !nearAlways)) {
      drawn.add(i);
      last = i;
    }
  });
  return drawn;
}

// The cell under a point (CSS px in the canvas), or null; ``j`` is null left of the cells (a row label).
export function cellAt(box, rows, cols, x, y) {
  const i = Math.floor((y - box.top) / box.cellH);
  const j = Math.floor((x - box.left) / box.cellW);
  if (i < 0 || i >= rows) return null;
  return { i, j: j >= 0 && j < cols ? j : null };
}

// Where a key moves the keyboard's cell (arrows a cell, Home/End the row's ends, PageUp/PageDown the column's), held
// inside the view; null for a key that does not move it.
export function moved({ i, j }, key, rows, cols) {
  const to = {
    ArrowUp: [i - 1, j], ArrowDown: [i + 1, j], ArrowLeft: [i, j - 1], ArrowRight: [i, j + 1],
    Home: [i, 0], End: [i, cols - 1], PageUp: [0, j], PageDown: [rows - 1, j],
  }[key];
  if (!to) return null;
  return { i: Math.min(rows - 1, Math.max(0, to[0])), j: Math.min(cols - 1, Math.max(0, to[1])) };
}

// What a pick of cell (i, j) of ``view`` sends (j null: its row label): a prediction on a covered view, else the cell.
export const picked = (view, { i, j }) => [view.cover ? 'predict' : 'choose', { view: view.name, row: i, col: j }];

// Predict mode's cover beside the row it asks about, never over it, however tall its words: from just under the row
// down (a row in the top half, as the cover's data-at says) or from just over it up. In px from the view's bottom,
// where its canvas ends: the canvas is ``height`` tall and its cells start ``box.top`` down.
export function coverPlace(box, asked, rows, height) {
  const above = box.top + asked * box.cellH, below = height - above - box.cellH;
  return asked >= rows / 2 ? { top: 'auto', bottom: `${height - above + GAP}px` } : { top: `calc(100% - ${below - GAP}px)`, bottom: 'auto' };
}
