// The input over a cell of an editable view (a view Python sends with ``edit``): a real
// <input inputmode="decimal"> laid exactly over the cell, opened by a number typed on the focused canvas, Enter, F2, a
// double-click or a tap; Enter or Tab commits and moves on, Escape cancels, a click elsewhere commits. The cell is held
// by its row and column names, never its place: a new data (a rerun, a tally) redraws the view under an open input
// without closing it, changing its text or moving it to another cell. Commits go to the instrument's queue (edits.js).

import { element, setIfNew } from './dom.js';
import { MAX_CELL_CHARS, isBlock, nextCell, opensWith, pastedBlock } from './edits.js';
import { cellName } from './reader.js';

const OPENS = new Set(['Enter', 'F2', ' ']); // keys the editor takes besides a number's characters (Space: to do nothing)

export class Editor {
  // ``owner`` is the View (view.js): its view, box, cursor, canvas, figure, shared ({edit, editing}) and onCell.
  constructor(owner) {
    this.owner = owner;
    this.at = null; // the cell open: {view, row, col, text} (names, and its text when opened), or null
    this.input = element('input', {
      className: 'attnviz-cell-input', type: 'text', inputMode: 'decimal', enterKeyHint: 'next', maxLength: MAX_CELL_CHARS,
      autocomplete: 'off', spellcheck: false, hidden: true,
    });
    this.input.setAttribute('autocapitalize', 'off');
    this.input.setAttribute('autocorrect', 'off');
    // Before the canvas, at the canvas's top left (its static place; grid.css): moved over the cell by a transform,
    // so placing it reads no layout.
    owner.figure.insertBefore(this.input, owner.canvas);
    this.input.addEventListener('keydown', (event) => this.key(event));
    this.input.addEventListener('blur', () => this.commit()); // a click elsewhere keeps what was typed
    this.input.addEventListener('paste', (event) => this.pasted(event, true));
    owner.canvas.addEventListener('dblclick', (event) => this.editable() && this.openAt(owner.cellAt(event)));
    owner.canvas.addEventListener('paste', (event) => this.pasted(event, false));
  }

  editable() { return Boolean(this.owner.view?.edit); }

  // A key on the focused canvas of an editable view: a number's character opens the input holding it; Enter or F2
  // holding the cell's text, selected; Space does nothing. Whether the key was the editor's.
  canvasKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return false;
    const typed = opensWith(event.key) ? event.key : null;
    if (typed === null && !OPENS.has(event.key)) return false;
    event.preventDefault(); // the character goes into the input once, as its text, not again as a keypress
    if (event.key !== ' ') this.open(this.owner.cursor ?? { i: 0, j: 0 }, typed); // Space: no pick here, no scroll
    return true;
  }

  // A click (j null: a row label) or a tap on an editable view: a tap opens the cell; a click selects it.
  clicked(at, touch) {
    if (touch && at.j !== null) return this.openAt(at);
    this.owner.cursor = { i: at.i, j: at.j ?? this.owner.cursor?.j ?? 0 };
    this.owner.canvas.focus();
    this.owner.onCell(this.owner.cursor);
  }

  openAt(at) { if (at && at.j !== null) this.open(at, null); }

  // Opens the input over cell (i, j), holding ``typed`` (the caret after it) or the cell's text (selected).
  open({ i, j }, typed) {
    const { view } = this.owner, k = i * view.ticks.length + j;
    const at = { view: view.edit.name, row: view.rows[i], col: view.cols[j] };
    if (this.at && typed === null && this.at.row === at.row && this.at.col === at.col) return; // open there already
    if (this.at) this.commit();
    this.owner.cursor = { i, j };
    this.at = { ...at, text: view.text[k] ?? '' };
    const { input } = this;
    input.value = typed ?? this.at.text;
    input.setAttribute('aria-label', cellName(view, k));
    Object.assign(input.dataset, { view: at.view, row: at.row, col: at.col });
    input.hidden = false;
    this.owner.tip.hidden = true; // the cell's sentence is the input's name now
    this.place();
    input.focus();
    if (typed === null) input.select();
    else input.setSelectionRange(input.value.length, input.value.length);
    this.owner.shared.editing?.(this, true);
  }

  // The open cell's place in the view now (-1s where the view no longer names it).
  where() {
    const { view } = this.owner;
    return { i: view.rows.indexOf(this.at.row), j: view.cols.indexOf(this.at.col) };
  }

  // Lays the input over its cell, as the view is laid out now (after every new layout: a new data, a new size).
  place() {
    const { box, shared } = this.owner;
    if (!this.at || !box) return;
    const { i, j } = this.where();
    if (i < 0 || j < 0) return; // the cell is gone from the view: the input stays; Python refuses its commit
    const { style } = this.input;
    setIfNew(style, 'transform', `translate(${box.left + j * box.cellW}px, ${box.top + i * box.cellH}px)`);
    setIfNew(style, 'width', `${box.cellW}px`);
    setIfNew(style, 'height', `${box.cellH}px`);
    setIfNew(style, 'fontSize', `${box.cellFont || Math.max(10, shared.font_size - 1)}px`);
  }

  key(event) {
    event.stopPropagation(); // the input's keys: not the view's (P, L, the arrows) nor the page's
    if (event.isComposing) return;
    if (event.key === 'Escape') {
      event.preventDefault();
      return this.close(this.at && this.where());
    }
    if (event.key !== 'Enter' && event.key !== 'Tab') return;
    event.preventDefault(); // Tab stays in the view
    const { view } = this.owner, from = this.at && this.where();
    const next = from && from.i >= 0 && from.j >= 0 ? nextCell(from, event.key, event.shiftKey, view.rows.length, view.ticks.length) : from;
    this.commit(next);
  }

  // Sends what the input holds (unless it is the cell's text), and closes it; ``next`` ({i, j}): the cursor goes there,
  // the canvas focused, ready for the next number.
  commit(next = null) {
    if (!this.at) return;
    const { row, col, text, view } = this.at, typed = this.input.value, { i, j } = this.where();
    const shown = i >= 0 && j >= 0 ? this.owner.view.text[i * this.owner.view.ticks.length + j] : undefined;
    this.close(next);
    if (typed !== text && typed !== shown) this.owner.shared.edit({ view, row, col, cells: [[typed]] });
  }

  // Closes the input, nothing sent; ``next`` ({i, j}): the cursor goes there, the canvas focused.
  close(next = null) {
    if (!this.at) return;
    this.at = null; // first: the blur below must not commit again
    this.input.hidden = true;
    this.owner.shared.editing?.(this, false);
    if (!next || next.i < 0 || next.j < 0) return;
    this.owner.cursor = next;
    this.owner.canvas.focus();
    this.owner.onCell(next);
  }

  // A paste on the focused canvas (any text), or into the input (a block: a tab or a line break in it): one edit of
  // the block from the cell (the input's, or the cursor's). A single value pasted into the input is the input's.
  pasted(event, intoInput) {
    const text = event.clipboardData?.getData('text/plain') ?? '';
    if (!this.editable() || (intoInput && !isBlock(text))) return;
    event.preventDefault();
    const cells = pastedBlock(text);
    if (cells.length) this.owner.shared.edit({ view: this.owner.view.edit.name, ...this.pasteCell(intoInput), cells });
  }

  // The cell a block is pasted from, by names: the open input's (closed now, the cursor on it), else the cursor's.
  pasteCell(intoInput) {
    const { view } = this.owner;
    if (intoInput && this.at) {
      const { row, col } = this.at;
      this.close(this.where());
      return { row, col };
    }
    const { i, j } = this.owner.cursor ?? { i: 0, j: 0 };
    return { row: view.rows[i], col: view.cols[j] };
  }
}
