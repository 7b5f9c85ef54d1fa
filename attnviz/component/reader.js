// What a view says in words: the hover sentence of a cell, and the table a screen reader reads (hidden from sight).

import { element } from './dom.js';

// Above this many cells a view's table is built when the keyboard enters the view (its canvas, the table's one way in
// by Tab, comes just before it), not on every move: eight 128 × 128 tables were 130,000 cells in the page, and every
// layout and every pass of Streamlit's over the page then took seconds.
export const EAGER_CELLS = 1024;

// What the canvas says it is, and where its numbers are. On a covered view, Enter answers its question (view.js).
export function canvasLabel(view, enter) {
  const pressing = view.cover ? 'Enter answers the question with that cell.' : view.edit ? EDITING : enter;
  const large = view.colour.length > EAGER_CELLS;
  const table = view.reader === false ? '' // read another way (the Real model's overview: a table a layer beside it)
    : large ? ' The table after it holds every cell while the keyboard is in this view.' : ' The table below holds every cell.';
  return `${view.title}: ${view.rows.length} rows, ${view.ticks.length} columns. `
    + `Arrow keys read a cell at a time; ${pressing} P saves it as a PNG.${table}`;
}

// How an editable view's cells are edited (editor.js), said by its canvas.
const EDITING = 'type a number, or press Enter or F2, or double-click a cell, to edit it; in it Enter or Tab keeps the '
  + 'number and moves on, Escape cancels. Paste a block of numbers to fill down and right from a cell.';

// An editable view's cell k by name, as its input says it: "Q, row 4: good, dimension 1".
export function cellName(view, k) {
  const cols = view.ticks.length;
  return `${view.edit.name}, row ${view.rows[Math.floor(k / cols)]}, ${view.edit.col_names[k % cols]}`;
}

// The reader's table of a view inside ``figure``: ``show(view)`` after each new data. A small view's table is
// rewritten just after the frame that first paints the new data (the eye comes first); a large one's only while the
// keyboard is in the figure, and built whole the moment it enters, so it is there before a reader leaves the canvas.
export function readerTable(figure) {
  const table = element('table'); // hidden by view.js's wrapper: a table ignores a width of 1px, and scrolled sideways
  let shown = null, frame = 0, timer = 0;
  const inside = () => figure.contains(figure.getRootNode().activeElement);
  const eager = () => shown.reader === false || shown.colour.length <= EAGER_CELLS || inside();
  const write = () => (eager() ? updateTable(table, shown) : emptyTable(table, shown));
  figure.addEventListener('focusin', () => { if (shown && table.dataset.filled !== 'true') updateTable(table, shown); });
  const show = (view) => {
    shown = view;
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    frame = requestAnimationFrame(() => { timer = setTimeout(write); });
  };
  return { table, show };
}

// A large view's table while the keyboard is elsewhere: its caption alone, saying how to fill it.
function emptyTable(table, view) {
  const said = `${view.title}: ${view.rows.length} × ${view.ticks.length} cells, listed here when the keyboard is in the view.`;
  if (table.dataset.filled === 'false' && table.caption?.textContent === said) return;
  table.replaceChildren();
  table.dataset.shape = '';
  table.dataset.filled = 'false';
  table.createCaption().textContent = said;
}

// What a hover (or the keyboard, ``how`` = 'press Enter') says about cell k (of a covered view, in predict mode: that
// a click, or Enter, predicts its key).
export function sentence(view, k, how = 'click') {
  const cols = view.ticks.length;
  if (view.edit) return `${cellName(view, k)}, ${view.text[k]}: type a number or press Enter to edit`;
  const where = `${view.rows[Math.floor(k / cols)]} → ${view.cols[k % cols]}`;
  if (view.cover) return `${where}: ${how} to predict this key`;
  return view.colour[k] === null ? `${where}: ${view.masked_words}` : `${where}: ${view.value_name} ${view.numbers[k]}`;
}

// Every cell's text under its row and column, rewritten in place when the numbers change.
export function updateTable(table, view) {
  table.hidden = view.reader === false; // read another way (the Real model's overview: a table a layer beside it)
  if (table.hidden) {
    delete table.dataset.shape;
    return table.replaceChildren();
  }
  const cols = view.ticks.length;
  const shape = `${view.rows.join('\u0000')}|${view.cols.join('\u0000')}`;
  table.dataset.filled = 'true';
  if (table.dataset.shape !== shape) {
    table.dataset.shape = shape;
    table.replaceChildren();
    table.createCaption();
    const head = table.createTHead().insertRow();
    head.appendChild(document.createElement('td'));
    for (const label of view.cols) head.appendChild(Object.assign(document.createElement('th'), { textContent: label, scope: 'col' }));
    const body = table.createTBody();
    view.rows.forEach((label) => {
      const row = body.insertRow();
      row.appendChild(Object.assign(document.createElement('th'), { textContent: label, scope: 'row' }));
      for (let j = 0; j < cols; j++) row.insertCell();
    });
  }
  const title = view.cover ? `${view.title}: ${view.cover}` : view.title;
  if (table.caption.textContent !== title) table.caption.textContent = title;
  const cells = table.tBodies[0].rows;
  const changed = new Set(view.changed);
  // Every cell's value at any size: its text, or above the text limit its hover number (masked: "masked").
  view.colour.forEach((position, k) => {
    const cell = cells[Math.floor(k / cols)].cells[1 + (k % cols)];
    const text = view.cover ? '' : view.text.length ? view.text[k] : position === null ? 'masked' : view.numbers[k];
    const masked = position === null ? 'true' : 'false';
    if (cell.textContent !== text) cell.textContent = text;
    if (cell.dataset.masked !== masked) cell.dataset.masked = masked;
    const said = cellSaid(view, k, text, changed.has(k));
    if (cell.getAttribute('aria-label') !== said) {
      if (said) cell.setAttribute('aria-label', said);
      else cell.removeAttribute('aria-label');
    }
  });
}

// What the reader's table says of cell k, where it says more than its text: an editable cell named as its input is,
// "Q, row 4: good, dimension 1: 0.5"; a change said, not only boxed.
function cellSaid(view, k, text, changed) {
  const named = view.edit ? `${cellName(view, k)}: ${text}` : text;
  return changed ? `${named}, changed` : view.edit ? named : null;
}
