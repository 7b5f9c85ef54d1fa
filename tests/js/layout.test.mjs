// Where a view's cells and labels go (attnviz/component/layout.js), with a stub for canvas text measuring.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cellAt, cellFont, cellTexts, coverPlace, drawnLabels, everyNth, fitted, glyphHeight, layout, moved, rowLabels, shortened } from '../../attnviz/component/layout.js';

// Every character 0.6 of the font's size wide, as a stand-in for the browser's measureText.
const stubContext = () => ({
  font: '10px sans-serif',
  measureText(text) {
    return { width: text.length * 0.6 * Number(/(\d+)px/.exec(this.font)[1]) };
  },
});

const view = (n, text) => ({
  rows: Array.from({ length: n }, (_, i) => `${i}: w${i}`),
  row_ticks: Array.from({ length: n }, (_, i) => `${i}: w${i}`),
  ticks: Array.from({ length: n }, (_, i) => `w${i}`),
  text: text ?? Array(n * n).fill('0.25'),
  tick_font: 13,
});

test('numbers take the largest size that fits a cell, and none under 7 px', () => {
  const ctx = stubContext();
  assert.equal(cellFont(ctx, view(4), { cellW: 60, cellH: 40 }, 13), 12); // capped by the chart's font
  assert.equal(cellFont(ctx, view(4), { cellW: 22, cellH: 40 }, 13), 8); // "0.25" = 2.4 em in 20 px
  assert.equal(cellFont(ctx, view(4), { cellW: 12, cellH: 40 }, 13), 0); // too small to read: hover only
  assert.equal(cellFont(ctx, view(4, []), { cellW: 60, cellH: 40 }, 13), 0); // no text sent
});

test('a cell too narrow for every digit drops the decimals of numbers from 100 up, and only then', () => {
  const ctx = stubContext(), scores = ['565.69', '\u2212800.00', '14.14', '\u2212\u221e'];
  assert.deepEqual(scores.map(shortened), ['566', '\u2212800', '14.14', '\u2212\u221e']);
  const wide = cellTexts(ctx, view(2, scores), { cellW: 60, cellH: 40 }, 13);
  assert.deepEqual(wide, { cellFont: 12, cellTexts: scores }); // every digit fits: all drawn
  const narrow = cellTexts(ctx, view(2, scores), { cellW: 26, cellH: 40 }, 13); // "−800.00" needs 4.2 em: 5 px
  assert.deepEqual(narrow, { cellFont: 8, cellTexts: ['566', '\u2212800', '14.14', '\u2212\u221e'] }); // "14.14" the widest
  assert.equal(cellTexts(ctx, view(2, scores), { cellW: 12, cellH: 40 }, 13).cellFont, 0); // not even so: hover only
});

test('the cells fill what the labels leave, row labels at most 30 % of the width', () => {
  const box = layout(stubContext(), view(12), 400, 250, 13);
  assert.ok(box.left <= 400 * 0.3 + 8);
  assert.equal(box.top, 4);
  assert.ok(box.rotated); // more than four columns: slanted ticks
  assert.ok(Math.abs(box.left + 12 * box.cellW + 4 - 400) < 1e-9);
  assert.ok(Math.abs(box.top + 12 * box.cellH + box.bottom - 250) < 1e-9);
});

test('a label too long for its space is cut with an ellipsis; one that fits is kept', () => {
  const ctx = stubContext();
  assert.equal(fitted(ctx, 'soundtrack', 100), 'soundtrack');
  assert.equal(fitted(ctx, 'soundtrack', 30), 'soun…');
});

test('labels thin out to every n-th when they would overlap', () => {
  assert.equal(everyNth(13, 20), 1);
  assert.equal(everyNth(13, 5), 3);
});

test('every row is labelled where its label fits, smaller down to 10 px, every n-th only below that', () => {
  const all = Array.from({ length: 14 }, (_, i) => i);
  assert.deepEqual(rowLabels(view(14), 13, 12.6, 13.7), { rowFont: 13, rowLabels: all }); // fits at the ticks' size
  assert.deepEqual(rowLabels(view(14), 13, 12.6, 11), { rowFont: 11, rowLabels: all }); // fits smaller
  const thinned = rowLabels({ ...view(14), focus: 5 }, 13, 12.6, 6);
  assert.equal(thinned.rowFont, 13);
  assert.deepEqual(thinned.rowLabels.sort((a, b) => a - b), [0, 5, 8, 11]); // every 3rd, the focus row kept
});

test('a label\'s height is measured from its own glyphs where the context can, else 1.15 of its size', () => {
  const measured = { measureText: (t) => ({ width: 1, actualBoundingBoxAscent: t === 'Ag' ? 10 : 9, actualBoundingBoxDescent: t === 'Ag' ? 3 : 0 }) };
  assert.equal(glyphHeight(measured, ['Ag', 'x', ''], 13), 13);
  assert.equal(glyphHeight(measured, ['x'], 13), 9);
  assert.ok(Math.abs(glyphHeight(stubContext(), ['x'], 10) - 11.5) < 1e-9);
});

test('a point maps to its cell, a row label to its row with no column, outside to nothing', () => {
  const box = { left: 40, top: 4, cellW: 10, cellH: 10 };
  assert.deepEqual(cellAt(box, 12, 12, 45, 9), { i: 0, j: 0 });
  assert.deepEqual(cellAt(box, 12, 12, 20, 30), { i: 2, j: null });
  assert.equal(cellAt(box, 12, 12, 45, 200), null);
});

test('the arrow keys move the keyboard cell one step, Home/End and PageUp/PageDown to the edges, never out', () => {
  assert.deepEqual(moved({ i: 2, j: 2 }, 'ArrowRight', 4, 4), { i: 2, j: 3 });
  assert.deepEqual(moved({ i: 2, j: 3 }, 'ArrowRight', 4, 4), { i: 2, j: 3 });
  assert.deepEqual(moved({ i: 0, j: 1 }, 'ArrowUp', 4, 4), { i: 0, j: 1 });
  assert.deepEqual(moved({ i: 1, j: 2 }, 'Home', 4, 4), { i: 1, j: 0 });
  assert.deepEqual(moved({ i: 1, j: 2 }, 'End', 4, 4), { i: 1, j: 3 });
  assert.deepEqual(moved({ i: 1, j: 2 }, 'PageDown', 4, 4), { i: 3, j: 2 });
  assert.equal(moved({ i: 1, j: 2 }, 'a', 4, 4), null);
});

test('rows without labels give the cells the width', () => {
  const ctx = stubContext();
  const bare = { ...view(4), row_ticks: ['', '', '', ''] };
  assert.ok(layout(ctx, bare, 400, 300, 13).left < layout(ctx, view(4), 400, 300, 13).left);
});

test('labels thin out to one every step, keep the focus row, and skip the empty ones', () => {
  const all = Array.from({ length: 10 }, (_, i) => `w${i}`);
  assert.deepEqual([...drawnLabels(all, 3)], [0, 3, 6, 9]);
  assert.deepEqual([...drawnLabels(all, 3, 4)].sort((a, b) => a - b), [0, 4, 7]); // none within 3 of the focus row
  const sparse = ['', '', '1', '', '', '', '2', '', '', ''];
  assert.deepEqual([...drawnLabels(sparse, 3)], [2, 6]); // a map's number at its middle, whatever the step's phase
});

test("predict mode's cover starts at the edge of the row it asks about, on the side away from it", () => {
  const box = { top: 4, cellH: 55.75 }, height = 248; // four rows, the keys' labels under them
  // A row in the top half: the cover's top 4 px under the row (row 1 ends 115.5 px down, 132.5 px over the bottom).
  assert.deepEqual(coverPlace(box, 1, 4, height), { top: 'calc(100% - 128.5px)', bottom: 'auto' });
  // A row in the bottom half: the cover's bottom 4 px over the row (row 2 starts 115.5 px down).
  assert.deepEqual(coverPlace(box, 2, 4, height), { top: 'auto', bottom: '136.5px' });
  assert.deepEqual(coverPlace(box, 0, 1, height), { top: 'calc(100% - 184.25px)', bottom: 'auto' }); // one row
});
