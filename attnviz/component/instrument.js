// The instrument, whatever the host (a Streamlit page: index.js; a notebook cell: widget.js): on the Playground the
// rail of controls left and the four views right (a warning above them, a line under them saying what the last change
// did); elsewhere the views alone ("bare": no controls sent), laid out in the columns Python asks for. Built once,
// then updated in place on every new data.

import { lightness } from './colour.js';
import { element, setIfNew, theme } from './dom.js';
import { Lens } from './lens.js';
import { Rail } from './rail.js';
import { GAP, labelsWidth } from './layout.js';
import { drawViews } from './grid.js';
import { Edits } from './edits.js';

const instruments = new WeakMap(); // the parts built for each mount, by its parent element
let measurer = null; // a canvas's context that measures label text, never drawn (made when first needed)

function build(parentElement) {
  const rail = element('div', { className: 'attnviz-rail' });
  const warning = element('p', { className: 'attnviz-warning', role: 'status' });
  const views = element('div', { className: 'attnviz-views' });
  const caption = element('p', { className: 'attnviz-caption', role: 'status' }); // what moved: said, politely
  const note = element('p', { className: 'attnviz-note attnviz-note-below' }); // on a phone, where the rail's note goes
  const main = element('div', { className: 'attnviz-main' }, warning, views);
  const lens = new Lens(main); // presenter mode's focus row, large, between the views and the line under them
  main.append(caption, note);
  const instrument = element('div', { className: 'attnviz-instrument' }, rail, main);
  parentElement.appendChild(instrument);
  views.addEventListener('keydown', (event) => { // L on a view's cells: that view large, or the four again
    const figure = event.target.closest?.('.attnviz-view');
    if ((event.key === 'l' || event.key === 'L') && figure && instrument.dataset.presenter === 'true') enlarge(views, figure);
  });
  const parts = { instrument, rail: new Rail(rail), warning, views, lens, caption, note, send: null, data: null };
  // The edits typed into the views' cells: one at a time to Python, each shown over its cells until echoed (edits.js).
  parts.edits = new Edits((event) => parts.send(event), {
    changed: () => parts.quiet || drawn(parts),
    refused: (words) => { warning.textContent = words; warning.hidden = false; }, // until the next data's warning
  });
  parts.open = new Set(); // the editors with an input open (one, but the next may open before the last has closed)
  parts.editing = (editor, open) => {
    parts.open[open ? 'add' : 'delete'](editor);
    setIfNew(instrument.dataset, 'editing', String(parts.open.size > 0));
  };
  instrument.dataset.editing = 'false';
  return parts;
}

// The views drawn with the data last sent and the edits on their way; the instrument says how many (for tests).
function drawn(parts) {
  const { views, data, send, edits, editing, instrument } = parts;
  drawViews(views, data, (cell) => send({ cell }), (guess) => send({ guess }), { edits, editing });
  setIfNew(instrument.dataset, 'pending', String(edits.pending().length));
}

// Draws ``data`` (attnviz/component/data.py) into ``parentElement``; ``send(event)`` tells the host what a control
// or a click chose, as one of {control, value} (a control of the rail, by the name Python gave it), {cell: {view, row,
// col}} (a cell, or a row label with col null), {guess: {view, row, col} or {choice}} (a click on a covered view) or
// {edit: {view, row, col, cells, id}} (numbers typed into an editable view's cells: edits.js).
// What an event means is Python's to decide: this knows no page's fields.
export function mount(parentElement, data, send) {
  if (!instruments.has(parentElement) || !instruments.get(parentElement).instrument.isConnected) {
    instruments.set(parentElement, build(parentElement));
  }
  const parts = instruments.get(parentElement), { instrument, rail, warning, views, lens, caption, note } = parts;
  rail.send = send; // the newest callback to Python
  Object.assign(parts, { send, data });
  parts.quiet = true; // the views are drawn once below, with whatever the echo changes
  parts.edits.echoed(data.edited ?? ''); // the edit in flight released if Python has processed it
  parts.quiet = false;
  // The native controls (the drop-down's list, the slider) follow the page's theme, light or dark.
  const background = theme(instrument).background;
  setIfNew(instrument.style, 'colorScheme', lightness(...background.slice(0, 3)) < 128 ? 'dark' : 'light');
  setIfNew(instrument.dataset, 'presenter', String(data.font_size > 13)); // grid.css: the note goes under the views
  setIfNew(instrument.dataset, 'bare', String(!data.controls.length)); // grid.css: no rail, the views take the width
  const columns = columnsOf(data);
  if (views.style.getPropertyValue('--attnviz-columns') !== columns) views.style.setProperty('--attnviz-columns', columns);
  setIfNew(views.dataset, 'labelsFirst', String(Boolean(data.labels_first)));
  rail.update(data);
  setIfNew(warning, 'textContent', data.warning);
  setIfNew(warning, 'hidden', !data.warning);
  // A touch-only screen is told how to read a cell by touch (view.js: a tap reads it), where Python gives the words.
  setIfNew(caption, 'textContent', data.touch_caption && matchMedia('(hover: none)').matches ? data.touch_caption : data.caption);
  setIfNew(note, 'textContent', data.note);
  setIfNew(note, 'hidden', !data.note);
  drawn(parts);
  showLines(views, data);
  offerLarge(views);
  lens.update(data, theme(instrument));
}

// Presenter mode: any one view large (its button, or L on its cells), the others hidden until it is pressed again,
// so a discussion can read every number of it from the back of the room (grid.css sizes it).
function offerLarge(views) {
  for (const figure of views.querySelectorAll(':scope > .attnviz-view')) {
    if (figure.querySelector('.attnviz-enlarge')) continue;
    const button = element('button', { className: 'attnviz-enlarge', type: 'button', tabIndex: -1 });
    button.addEventListener('click', () => enlarge(views, figure));
    figure.querySelector('figcaption').insertBefore(button, figure.querySelector('.attnviz-png'));
  }
  for (const figure of views.querySelectorAll(':scope > .attnviz-view')) {
    const large = figure.classList.contains('attnviz-large');
    const button = figure.querySelector('.attnviz-enlarge');
    setIfNew(button, 'textContent', large ? 'All four' : 'Large');
    button.setAttribute('aria-pressed', String(large));
  }
}

function enlarge(views, figure) {
  const large = !figure.classList.contains('attnviz-large');
  for (const other of views.querySelectorAll(':scope > .attnviz-view')) other.classList.remove('attnviz-large');
  figure.classList.toggle('attnviz-large', large);
  if (large) views.dataset.large = figure.dataset.view; else delete views.dataset.large;
  offerLarge(views);
}

// A view's own line under its cells, where Python gives one (where a class answer stands, under the view the student
// answered on: seen where they tapped, heard as a status). Kept from draw to draw, so a new line is announced.
function showLines(views, data) {
  for (const view of data.views) {
    const figure = views.querySelector(`.attnviz-view[data-view="${CSS.escape(view.name)}"]`);
    if (!figure) continue;
    let line = figure.querySelector(':scope > .attnviz-view-line');
    if (!line) line = figure.appendChild(element('p', { className: 'attnviz-view-line', role: 'status' }));
    setIfNew(line, 'textContent', view.line?.text ?? '');
    setIfNew(line.dataset, 'tone', view.line?.tone ?? '');
    setIfNew(line, 'hidden', !view.line);
  }
}

// The columns Python asks for, as a variable: grid.css uses it, except on a phone (one view a row). Where the first
// view labels the rows the others share, it also spans a track as wide as its labels (grid.css): every view's cells
// then get the share of the width their columns ask for, and numbers fit the first as they fit the others. (The track
// is the labels' width less the column gap the first view spans too: 0.75rem, grid.css.)
function columnsOf(data) {
  const shares = data.columns.map((width) => `minmax(0, ${width}fr)`).join(' ');
  if (!data.labels_first) return shares;
  measurer = measurer || document.createElement('canvas').getContext('2d');
  return `calc(${Math.ceil(labelsWidth(measurer, data.views[0]) + 2 * GAP)}px - 0.75rem) ${shares}`;
}
