// The edits a student types into a view's cells, on their way to Python: one in flight at a time, the rest
// queued in order, each sent as {edit: {view, row, col, cells, id}} and released only when a data arrives whose
// ``edited`` is its id (Python applied or refused it), or sent again, the same id, until then. A newer edit of a cell
// never replaces an older one: every edit is sent, in the order typed. Until its echo, a pending edit's text is what
// the cell shows (overlaid), so the student sees their value at once. Pure but for the injected send and timer.

import { NO_DRAW_MS } from './rail.js';

export const MAX_CELL_CHARS = 32; // what a cell takes (attnviz/core/limits.py MAX_CELL_CHARS)
const MAX_BLOCK = [128, 64]; // the most rows and columns any table has (attnviz/core/limits.py MAX_TOKENS, MAX_DIM)

// A random prefix for this instrument's ids: unique per page load, so an id from before a reload is never echoed here.
const randomPrefix = () => Math.random().toString(36).slice(2, 10).padEnd(8, '0');

export class Edits {
  constructor(send, { later = (run, ms) => setTimeout(run, ms), changed = () => {}, refused = () => {}, prefix = randomPrefix() } = {}) {
    this.send = send; // (event): to Python, {edit: {...}}
    this.later = later;
    this.changed = changed; // told when the pending edits change (one queued, or one echoed)
    this.refused = refused; // told, in words, of a block refused here
    this.prefix = prefix;
    this.count = 0;
    this.queue = []; // edits not sent yet, oldest first
    this.waiting = null; // the edit sent and not echoed yet
  }

  // An edit typed: ``cells`` (rows of columns of texts, as typed) from the cell named ``row``, ``col`` of ``view``.
  // Its id; null for a block no table takes (refused here, with the words why: Python would never echo it).
  submit({ view, row, col, cells }) {
    const problem = unsendable(cells);
    if (problem) {
      this.refused(problem);
      return null;
    }
    const edit = { view, row, col, cells: rectangular(cells), id: `${this.prefix}-${++this.count}` };
    this.queue.push(edit);
    this.flush();
    this.changed();
    return edit.id;
  }

  // A data arrived, saying the newest edit Python processed: the edit in flight is released if it is that one.
  echoed(id) {
    if (!this.waiting || this.waiting.id !== id) return;
    this.waiting = null;
    this.flush();
    this.changed();
  }

  // The edits queued or in flight, oldest first (of ``view`` alone where named).
  pending(view = null) {
    const all = this.waiting ? [this.waiting, ...this.queue] : [...this.queue];
    return view === null ? all : all.filter((edit) => edit.view === view);
  }

  flush() {
    if (this.waiting || !this.queue.length) return;
    this.waiting = this.queue.shift();
    this.post(this.waiting);
  }

  // Sends ``edit``, and again after NO_DRAW_MS while it is still the one in flight (its echo lost, or its run slow).
  post(edit) {
    this.send({ edit: { ...edit, cells: edit.cells.map((row) => [...row]) } });
    this.later(() => { if (this.waiting === edit) this.post(edit); }, NO_DRAW_MS);
  }
}

// ``view`` with the pending edits' texts over its own (later edits over earlier ones): what its cells show until Python
// echoes them. A cell named by no row or column of the view (the state moved on) shows nothing of it.
export function overlaid(view, edits) {
  if (!edits.length || !view.text.length) return view;
  const text = [...view.text], cols = view.cols.length;
  for (const { row, col, cells } of edits) {
    const i = view.rows.indexOf(row), j = view.cols.indexOf(col);
    if (i < 0 || j < 0) continue;
    cells.forEach((line, a) => line.forEach((typed, b) => {
      if (i + a < view.rows.length && j + b < cols) text[(i + a) * cols + j + b] = typed;
    }));
  }
  return { ...view, text };
}

// A pasted text as a block of cells: lines split on \r?\n (trailing empty lines dropped), each line's cells split on
// tabs (a spreadsheet's), or where a line has none on runs of spaces (a notebook's printout), its ends' spaces dropped.
export function pastedBlock(text) {
  const lines = text.split(/\r?\n/);
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => (line.includes('\t') ? line.split('\t') : line.replace(/^ +| +$/g, '').split(/ +/)));
}

// A block with every row as long as its longest (an empty text where a row is short): Python takes rectangles only,
// and refuses an empty text whole, with its words at the table.
export function rectangular(cells) {
  const width = Math.max(...cells.map((line) => line.length));
  return cells.map((line) => [...line, ...Array(width - line.length).fill('')]);
}

// Why no table takes ``cells`` (Python would drop it unechoed, attnviz/component/edits.py typed_block), or ''.
export function unsendable(cells) {
  const long = cells.flat().find((text) => text.length > MAX_CELL_CHARS);
  if (long !== undefined) return `A pasted value is longer than ${MAX_CELL_CHARS} characters (“${long.slice(0, 12)}…”). Nothing was pasted.`;
  const [rows, cols] = [cells.length, Math.max(...cells.map((line) => line.length))];
  if (rows > MAX_BLOCK[0] || cols > MAX_BLOCK[1]) {
    return `The pasted block is ${rows} rows × ${cols} columns, more than any table has. Nothing was pasted.`;
  }
  return '';
}

// Whether a pasted text is a block (a tab or a line break in it) rather than one value typed into the input.
export const isBlock = (text) => /[\t\r\n]/.test(text);

// Where the cursor goes after a commit: Enter down a row (Shift+Enter up), held in the view; Tab right (Shift+Tab left),
// wrapping to the next (previous) row, held between the view's first and last cells. Null for another key.
export function nextCell({ i, j }, key, shift, rows, cols) {
  if (key === 'Enter') return { i: Math.min(rows - 1, Math.max(0, i + (shift ? -1 : 1))), j };
  if (key !== 'Tab') return null;
  const k = Math.min(rows * cols - 1, Math.max(0, i * cols + j + (shift ? -1 : 1)));
  return { i: Math.floor(k / cols), j: k % cols };
}

// A key that opens the input on the focused canvas holding it: a number's character.
export const opensWith = (key) => /^[0-9.+\-eE−]$/.test(key);
