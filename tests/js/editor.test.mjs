// Editing a view's cells in place (attnviz/component/editor.js), through the instrument as a page mounts
// it, in a small stand-in for the browser (stand_in.mjs): what opens the input and where, what a commit sends, where
// the cursor goes, and that a new data never closes, changes or moves an open input.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { keydown, late, Node, page, pointed, settle, sized } from './stand_in.mjs';
import { mount } from '../../attnviz/component/instrument.js';
import { updateTable } from '../../attnviz/component/reader.js';

const ROWS = ['0: the', '1: movie', '2: was', '3: good'];

function qView(text = ['0.5', '-0', '1', '2', '3', '4', '1e-05', '6'], more = {}) {
  return {
    name: 'Q', title: 'Q', rows: ROWS, cols: ['q1', 'q2'], ticks: ['q1', 'q2'], row_ticks: ROWS, tick_font: 12, focus: null,
    palette: ['#fff', '#000'], range: [-1, 1], value_name: 'value', masked_words: 'masked', colour: text.map(() => 0),
    text, numbers: text, changed: [], boxes: [], groups: [1, 1],
    edit: { name: 'Q', col_names: ['dimension 1', 'dimension 2'] }, ...more,
  };
}

function data(more = {}) {
  return {
    views: [qView()], controls: [], columns: [1], font_size: 13, height: 200, note: '', warning: '', caption: '',
    touch_caption: '', enter: 'Enter picks.', colours: { masked: '#888', changed: '#f80', focus: '#000' }, edited: '', ...more,
  };
}

// An instrument on the page with one editable view Q (4 rows × 2 columns), laid out; what it sends.
function mounted(first = data()) {
  const parent = new Node('div'), sent = [];
  page.body.append(parent);
  const send = (event) => sent.push(event);
  mount(parent, first, send);
  sized(); // the browser's ResizeObserver: the canvases get their size, the views are laid out
  const [instrument] = parent.children;
  const find = (name) => [...instrument.all()].find((node) => node.className === name);
  const canvas = [...instrument.all()].find((node) => node.tagName === 'CANVAS' && node.parent.className === 'attnviz-view');
  const input = find('attnviz-cell-input');
  const redraw = (next) => mount(parent, next, send);
  const layout = () => JSON.parse(canvas.dataset.layout);
  return { instrument, canvas, input, sent, redraw, layout, find };
}

// The cell's place in the canvas, as editor.js puts the input over it.
const over = ({ left, top, cellW, cellH }, i, j) => `translate(${left + j * cellW}px, ${top + i * cellH}px)`;

function focusCell(canvas, i, j) {
  const { left, top, cellW, cellH } = JSON.parse(canvas.dataset.layout);
  canvas.dispatchEvent(pointed('click', left + (j + 0.5) * cellW, top + (i + 0.5) * cellH));
}

test('a number typed on a clicked cell opens the input there holding it; Enter sends it and moves down a row', () => {
  const { instrument, canvas, input, sent, layout, find } = mounted();
  focusCell(canvas, 1, 0);
  assert.equal(find('attnviz-tip').hidden, false);
  const space = keydown(' ');
  canvas.dispatchEvent(space);
  assert.equal(space.defaultPrevented, true);
  assert.deepEqual(sent, []); // a click (or Space) on an editable view selects its cell: no focus-row pick
  assert.equal(page.activeElement, canvas);
  assert.equal(input.hidden, true);
  const key = keydown('7');
  canvas.dispatchEvent(key);
  assert.equal(key.defaultPrevented, true); // the character is the input's text once, not twice
  assert.equal(input.hidden, false);
  assert.equal(page.activeElement, input);
  assert.equal(input.value, '7');
  assert.equal(find('attnviz-tip').hidden, true); // the cell's sentence was shown by the click: the input names it now
  assert.deepEqual(input.selection, [1, 1]); // the caret after it
  assert.deepEqual([input.dataset.row, input.dataset.col], ['1: movie', 'q1']);
  assert.equal(input.getAttribute('aria-label'), 'Q, row 1: movie, dimension 1');
  assert.equal(input.inputMode, 'decimal');
  assert.equal(input.maxLength, 32);
  assert.equal(input.style.transform, over(layout(), 1, 0));
  assert.equal(input.style.width, `${layout().cellW}px`);
  assert.equal(instrument.dataset.editing, 'true');
  input.value = '7.25';
  input.dispatchEvent(keydown('Enter'));
  assert.equal(sent.length, 1);
  assert.deepEqual(sent[0].edit.cells, [['7.25']]);
  assert.deepEqual(Object.keys(sent[0].edit).sort(), ['cells', 'col', 'id', 'row', 'view']);
  assert.deepEqual({ ...sent[0].edit, id: 'x' }, { view: 'Q', row: '1: movie', col: 'q1', cells: [['7.25']], id: 'x' });
  assert.equal(input.hidden, true);
  assert.equal(instrument.dataset.editing, 'false');
  assert.equal(page.activeElement, canvas); // ready for the next number
  assert.equal(instrument.dataset.pending, '1');
  canvas.dispatchEvent(keydown('3')); // the cursor went down a row
  assert.deepEqual([input.dataset.row, input.dataset.col], ['2: was', 'q1']);
});

test('Tab and Shift+Tab commit and move along the rows, wrapping; Shift+Enter moves up', () => {
  const { canvas, input, sent } = mounted();
  focusCell(canvas, 0, 1);
  canvas.dispatchEvent(keydown('F2'));
  assert.equal(input.value, '-0');
  assert.deepEqual(input.selection, [0, 2]); // the cell's text, selected: a number typed replaces it
  input.value = '2';
  const tab = keydown('Tab');
  input.dispatchEvent(tab);
  assert.equal(tab.defaultPrevented, true); // the focus stays in the view
  canvas.dispatchEvent(keydown('Enter'));
  assert.deepEqual([input.dataset.row, input.dataset.col], ['1: movie', 'q1']); // wrapped to the next row
  input.dispatchEvent(keydown('Tab', { shiftKey: true })); // unchanged: nothing sent, back to the row above
  canvas.dispatchEvent(keydown('Enter'));
  assert.deepEqual([input.dataset.row, input.dataset.col], ['0: the', 'q2']);
  input.value = '9';
  input.dispatchEvent(keydown('Enter', { shiftKey: true })); // up: held in the view
  canvas.dispatchEvent(keydown('Enter'));
  assert.deepEqual([input.dataset.row, input.dataset.col], ['0: the', 'q2']);
  assert.equal(input.value, '9'); // the pending edit's text is the cell's now
  assert.deepEqual(sent.map(({ edit }) => [edit.row, edit.col, edit.cells[0][0]]), [['0: the', 'q2', '2']]); // one at a time
});

test('Escape sends nothing; an unchanged text sends nothing; a click elsewhere commits', () => {
  const { canvas, input, sent, instrument } = mounted();
  focusCell(canvas, 2, 1);
  canvas.dispatchEvent(keydown('5'));
  input.dispatchEvent(keydown('Escape'));
  assert.equal(input.hidden, true);
  assert.equal(page.activeElement, canvas);
  canvas.dispatchEvent(keydown('Enter')); // Escape left the cursor on the cell
  assert.deepEqual([input.dataset.row, input.dataset.col, input.value], ['2: was', 'q2', '4']);
  input.dispatchEvent(keydown('Enter')); // its own text: nothing to send
  canvas.dispatchEvent(keydown('Home'));
  focusCell(canvas, 3, 0);
  canvas.dispatchEvent(pointed('dblclick', ...[0, 0])); // a double-click outside the cells opens nothing
  assert.equal(input.hidden, true);
  assert.deepEqual(sent, []);
  assert.equal(instrument.dataset.pending, '0');
  const { left, top, cellW, cellH } = JSON.parse(canvas.dataset.layout);
  canvas.dispatchEvent(pointed('dblclick', left + 1.5 * cellW, top + 3.5 * cellH));
  assert.deepEqual([input.dataset.row, input.dataset.col, input.value], ['3: good', 'q2', '6']);
  input.value = '-3';
  page.body.focus(); // a click elsewhere on the page
  assert.equal(input.hidden, true);
  assert.deepEqual(sent.map(({ edit }) => [edit.row, edit.col, edit.cells]), [['3: good', 'q2', [['-3']]]]);
});

test('new data while the input is open keeps it open, its text and its cell, placed by the new layout', () => {
  const { canvas, input, sent, redraw, layout, instrument } = mounted();
  focusCell(canvas, 2, 0);
  canvas.dispatchEvent(keydown('8'));
  input.value = '8.5'; // the student is mid-number
  const rows = ['a: new', 'b: new', ...ROWS];
  const moved = qView(['1', '1', '2', '2', '0.5', '-0', '1', '2', '3', '4', '1e-05', '6'], { rows, row_ticks: rows });
  redraw(data({ views: [moved], warning: 'A tally arrived.' })); // a rerun: the rows moved down two, the view taller
  sized(320, 260);
  assert.equal(input.hidden, false);
  assert.equal(page.activeElement, input);
  assert.equal(input.value, '8.5');
  assert.deepEqual([input.dataset.row, input.dataset.col], ['2: was', 'q1']);
  assert.equal(input.style.transform, over(layout(), 4, 0)); // over "2: was" where it is now
  assert.equal(instrument.dataset.editing, 'true');
  input.dispatchEvent(keydown('Enter'));
  assert.deepEqual({ ...sent[0].edit, id: '' }, { view: 'Q', row: '2: was', col: 'q1', cells: [['8.5']], id: '' });
  canvas.dispatchEvent(keydown('Enter'));
  assert.equal(input.dataset.row, '3: good'); // down a row from where the cell is now
});

test("a pending edit's text shows in its cell and the reader's table until its echo, then the data's", async () => {
  const { canvas, input, sent, redraw, instrument } = mounted();
  focusCell(canvas, 0, 0);
  canvas.dispatchEvent(keydown('−'));
  input.value = '−2';
  input.dispatchEvent(keydown('Tab'));
  focusCell(canvas, 0, 0);
  canvas.dispatchEvent(keydown('9')); // the same cell again: queued after the first, not merged with it
  input.dispatchEvent(keydown('Enter'));
  assert.equal(instrument.dataset.pending, '2');
  await settle();
  const table = [...instrument.all()].find((node) => node.tagName === 'TABLE');
  const first = () => table.tBodies[0].rows[0].cells[1];
  assert.equal(first().textContent, '9'); // the newest typed text
  assert.equal(first().getAttribute('aria-label'), 'Q, row 0: the, dimension 1: 9');
  const [one] = sent;
  assert.equal(sent.length, 1);
  late.at(-1).run(); // no echo within NO_DRAW_MS: the same event again, the second still queued
  assert.deepEqual(sent, [one, one]);
  redraw(data({ edited: one.edit.id, views: [qView(['−2', '-0', '1', '2', '3', '4', '1e-05', '6'])] }));
  assert.equal(sent.length, 3); // the echo released the second
  assert.deepEqual(sent[2].edit.cells, [['9']]);
  assert.equal(instrument.dataset.pending, '1');
  await settle();
  assert.equal(first().textContent, '9');
  redraw(data({ edited: sent[2].edit.id, warning: '“9” was refused.' })); // refused: the data keeps the old text
  await settle();
  assert.equal(instrument.dataset.pending, '0');
  assert.equal(first().textContent, '0.5');
});

test('a paste on the focused canvas is one edit of the block from the cursor; into the input, of its cell', () => {
  const { canvas, input, sent, redraw } = mounted();
  focusCell(canvas, 1, 0);
  const paste = (target, text) => {
    const event = Object.assign(new Event('paste', { cancelable: true }), { clipboardData: { getData: () => text } });
    target.dispatchEvent(event);
    return event;
  };
  assert.equal(paste(canvas, '1\t2\r\n3\t4\r\n5\t6\r\n').defaultPrevented, true);
  assert.deepEqual(sent.map(({ edit }) => [edit.row, edit.col, edit.cells]), [['1: movie', 'q1', [['1', '2'], ['3', '4'], ['5', '6']]]]);
  redraw(data({ edited: sent[0].edit.id }));
  focusCell(canvas, 3, 1);
  canvas.dispatchEvent(keydown('4'));
  assert.equal(paste(input, '0.25').defaultPrevented, false); // one value: the input's own paste
  assert.equal(paste(input, '7 8\n').defaultPrevented, true); // a block: sent from the input's cell
  assert.equal(input.hidden, true);
  assert.deepEqual(sent.at(-1).edit.cells, [['7', '8']]);
  assert.deepEqual([sent.at(-1).edit.row, sent.at(-1).edit.col], ['3: good', 'q2']);
});

test('a view without edit picks its row on a click as before, and opens nothing', () => {
  const { edit, ...plain } = qView();
  assert.ok(edit);
  const { canvas, input, sent, find } = mounted(data({ views: [plain] }));
  focusCell(canvas, 2, 1);
  canvas.dispatchEvent(keydown('5'));
  canvas.dispatchEvent(pointed('dblclick', 100, 100));
  assert.equal(input.hidden, true);
  assert.deepEqual(sent, [{ cell: { view: 'Q', row: 2, col: 1 } }]); // the click's pick, and nothing opened
  assert.doesNotMatch(canvas.getAttribute('aria-label'), /edit/);
  assert.ok(find('attnviz-view'));
});

test("an editable view's canvas says how to edit, and its reader's cells are named as the input says them", () => {
  const { canvas } = mounted();
  assert.match(canvas.getAttribute('aria-label'), /^Q: 4 rows, 2 columns\. .*type a number, press Enter or F2, or double-click to edit the one under the cursor/);
  assert.match(canvas.getAttribute('aria-label'), /Escape cancels. A pasted block of numbers fills down and right/);
  const table = new Node('table');
  updateTable(table, { ...qView(), changed: [3] });
  assert.equal(table.tBodies[0].rows[1].cells[1].getAttribute('aria-label'), 'Q, row 1: movie, dimension 1: 1');
  assert.equal(table.tBodies[0].rows[1].cells[2].getAttribute('aria-label'), 'Q, row 1: movie, dimension 2: 2, changed');
});
