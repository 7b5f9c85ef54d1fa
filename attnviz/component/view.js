// The views: one canvas each, kept across reruns, so a toggle repaints the cells in place and their colours glide to
// the new values. Python (attnviz/playground/views.py) decides every number, text and colour position; this
// module lays the views out, maps positions to colours, and answers hover, click and PNG.

import { element, setIfNew, theme } from './dom.js';
import { cellAt, coverPlace, digitHeight, layout, moved, picked } from './layout.js';
import { coloursOf, paint } from './paint.js';
import { namePng, savePng } from './png.js';
import { canvasLabel, readerTable, sentence } from './reader.js';
import { Editor } from './editor.js';

const GLIDE_MS = 160; // a colour change is seen as a change; the new numbers are drawn in its first frame

export class View {
  constructor(root, index) {
    this.title = element('span', { className: 'attnviz-view-title' });
    this.png = element('button', { className: 'attnviz-png', type: 'button', textContent: 'PNG', tabIndex: -1 });
    // One tab stop a view (P saves its PNG); the arrows move a cell at a time in it, saying its sentence (roving focus).
    this.canvas = element('canvas', { tabIndex: 0, role: 'img' });
    this.said = element('p', { className: 'attnviz-sr', ariaLive: 'polite' });
    this.cursor = null; // the keyboard's cell, {i, j}
    this.tip = element('div', { className: 'attnviz-tip', role: 'tooltip', hidden: true });
    this.coverText = element('span'); // predict mode's question, over the cells, and its answers where not a cell
    this.choices = element('span', { className: 'attnviz-choices' });
    this.cover = element('p', { className: 'attnviz-cover', hidden: true }, this.coverText, this.choices);
    this.figure = element('figure', { className: 'attnviz-view' },
      element('figcaption', {}, this.title, this.png), this.canvas, this.cover, this.said);
    this.reader = readerTable(this.figure); // its table hidden in a wrapper: a table ignores a width of 1px
    this.figure.append(element('div', { className: 'attnviz-sr' }, this.reader.table), this.tip);
    root.insertBefore(this.figure, root.children[index] || null);
    this.editor = new Editor(this); // an editable view's input over a cell (editor.js)
    this.drawn = null; // the colours on screen now (they move during a glide)
    this.revision = 0;
    this.canvas.addEventListener('mousemove', (event) => this.hover(event));
    this.canvas.addEventListener('mouseleave', () => { this.tip.hidden = true; });
    this.canvas.addEventListener('pointerdown', (event) => { this.pointer = event.pointerType; });
    this.canvas.addEventListener('click', (event) => this.click(event));
    this.png.addEventListener('click', () => this.savePng());
    this.canvas.addEventListener('keydown', (event) => this.key(event));
    this.canvas.addEventListener('focus', () => { // from the keyboard only: a click says its own cell
      if (this.canvas.matches(':focus-visible')) this.onCell(this.cursor ?? { i: this.view.focus ?? 0, j: 0 });
    });
    this.canvas.addEventListener('blur', () => { this.tip.hidden = true; this.draw(); });
    document.addEventListener('keydown', (event) => { if (event.key === 'Escape') this.tip.hidden = true; });
  }

  key(event) {
    const rows = this.view.rows.length, cols = this.view.ticks.length;
    if (event.key === 'p' || event.key === 'P') return this.savePng();
    if (this.view.edit && this.editor.canvasKey(event)) return; // a number, Enter or F2 opens the cell's input
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      return this.cursor && this.pick(this.cursor); // as a click
    }
    const next = this.cursor && moved(this.cursor, event.key, rows, cols);
    if (!next) return;
    event.preventDefault(); // the arrows move the cell, not the page
    this.onCell(next);
  }

  // The keyboard is on cell ``at`` (a covered view's row asked: Enter answers it): ring it, say its sentence, and show
  // it in the tip beside the cell.
  onCell(at) {
    const rows = this.view.rows.length, cols = this.view.ticks.length, asked = this.view.cover ? this.view.focus : null;
    this.cursor = { i: asked ?? Math.min(at.i, rows - 1), j: Math.min(at.j, cols - 1) };
    const words = sentence(this.view, this.cursor.i * cols + this.cursor.j, 'press Enter'); // an editable cell's: how
    setIfNew(this.said, 'textContent', words);
    this.draw();
    if (!this.box) return;
    this.showTip(words, this.box.left + (this.cursor.j + 1) * this.box.cellW, this.box.top + (this.cursor.i + 1) * this.box.cellH);
  }

  // DOM writes only (no reads, so four views cost one layout, not four): labels, the reader's table, new colours.
  update(view, shared, palette) {
    const reshaped = !this.view || this.view.rows.length !== view.rows.length || this.view.ticks.length !== view.ticks.length;
    this.showCover(view);
    this.view = view;
    this.shared = shared;
    this.palette = palette;
    this.box = null; // laid out again at the next paint
    setIfNew(this.figure.dataset, 'view', view.name);
    if (view.edit) this.figure.dataset.editable = 'true'; else delete this.figure.dataset.editable; // a table typed into
    setIfNew(this.title, 'textContent', view.title);
    setIfNew(this.title.style, 'fontSize', `${shared.font_size + 1}px`);
    namePng(this.png, view);
    // The height Python asks for is the least: a taller screen gives the views more (grid.css).
    this.canvas.style.setProperty('--attnviz-least-height', `${shared.height}px`);
    const label = canvasLabel(view, shared.enter);
    if (this.canvas.getAttribute('aria-label') !== label) this.canvas.setAttribute('aria-label', label);
    this.reader.show(view); // rewritten after the frame that first paints the new data (reader.js)
    const target = coloursOf(view, shared.colours, palette.background);
    // Cells too small for numbers change at once: a glide there shows nothing the numbers would, and costs more.
    const still = reshaped || !view.text.length || matchMedia('(prefers-reduced-motion: reduce)').matches;
    this.from = still ? target : this.drawn;
    this.to = target;
  }

  // Predict mode's cover (laidOut puts it beside the row asked, never over it); a tip over it spoke of it: hidden as it goes.
  showCover(view) {
    if (this.view && Boolean(this.view.cover) !== Boolean(view.cover)) this.tip.hidden = true;
    setIfNew(this.coverText, 'textContent', view.cover ?? '');
    setIfNew(this.cover, 'hidden', !view.cover);
    setIfNew(this.cover.dataset, 'at', view.focus !== null && view.focus >= view.rows.length / 2 ? 'top' : 'bottom');
    this.showChoices(view.choices ?? []);
  }

  // Predict mode's answers as buttons on the cover (sharper, flatter, …): a click sends the choice's position.
  showChoices(choices) {
    if (this.choices.dataset.shown === choices.join('\u0000')) return;
    this.choices.dataset.shown = choices.join('\u0000');
    this.choices.replaceChildren(...choices.map((label, choice) => {
      const button = element('button', { type: 'button', className: 'attnviz-button', textContent: label });
      button.addEventListener('click', () => this.shared.predict({ choice }));
      return button;
    }));
  }

  // The new numbers at once, the colours gliding from the old ones to the new over GLIDE_MS.
  glide() {
    cancelAnimationFrame(this.frame);
    this.revision += 1;
    const { from, to } = this;
    // A head start of a third of the glide: the first paint already shows the colours most of the way there (ease-out),
    // and the rest of the move is what the eye follows.
    const started = performance.now() - GLIDE_MS / 3;
    const step = (now) => {
      const t = from === to ? 1 : Math.min(1, (now - started) / GLIDE_MS); // nothing to glide: one paint
      const ease = 1 - (1 - t) ** 3;
      this.drawn = t >= 1 ? to : from.map((a, k) => a + (to[k] - a) * ease);
      this.draw();
      if (t < 1) this.frame = requestAnimationFrame(step);
    };
    step(started);
  }

  // Views that share their rows label them once, on the left; on a phone, stacked, each labels its own.
  labelled() {
    const alone = !this.view.row_ticks.some(Boolean) && matchMedia('(max-width: 640px)').matches;
    return alone ? { ...this.view, row_ticks: this.view.rows } : this.view;
  }

  draw() {
    const { canvas, shared, width } = this, view = this.labelled();
    const ratio = window.devicePixelRatio || 1, height = this.height || shared.height;
    if (!width || !this.drawn) return;
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
    }
    const ctx = canvas.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, width, height);
    if (!this.box) {
      this.box = this.laidOut(ctx, view, width, height);
      this.editor.place(); // an open input follows its cell (by names) to where this layout puts it
    }
    paint(ctx, view, this.box, this.drawn, shared.colours, this.palette, canvas.getRootNode().activeElement === canvas ? this.cursor : null);
    canvas.dataset.revision = this.revision; // which data the last paint drew (the benchmark's "shown")
  }

  // Lays the view out, and says on the canvas where its cells are, which row labels it draws and how tall its numbers
  // are drawn (0: none), the focus row's too (unless the lens draws it: lens.js says its own): for tests, as drawn.
  laidOut(ctx, view, width, height) {
    const box = layout(ctx, view, width, height, this.shared.font_size), { dataset } = this.canvas;
    dataset.layout = JSON.stringify({ left: box.left, top: box.top, cellW: box.cellW, cellH: box.cellH });
    dataset.rowLabels = JSON.stringify(box.rowLabels.map((i) => view.row_ticks[i]));
    dataset.digitPx = digitHeight(ctx, box.cellFont);
    dataset.cellFontPx = box.cellFont;
    if (this.shared.lens?.view !== view.name) dataset.focusDigitPx = dataset.digitPx;
    if (view.focus !== null) Object.assign(this.cover.style, coverPlace(box, view.focus, view.rows.length, height));
    return box;
  }

  resized(width, height, palette) {
    if (width === this.width && height === this.height && palette.text === this.palette.text && this.box) return;
    this.width = width;
    this.height = height; // the style's height, or a phone's taller one (grid.css)
    this.palette = palette;
    this.box = null;
    this.draw();
  }

  cellAt(event) {
    return this.box && cellAt(this.box, this.view.rows.length, this.view.ticks.length, event.offsetX, event.offsetY);
  }

  hover(event) {
    const at = this.cellAt(event);
    this.canvas.style.cursor = at ? (this.view.edit ? 'cell' : 'pointer') : 'default';
    if (!at || at.j === null) { this.tip.hidden = true; return; }
    this.showTip(sentence(this.view, at.i * this.view.ticks.length + at.j), event.offsetX, event.offsetY);
  }

  // The tip beside a point of the canvas (CSS px), turned to stay inside the view.
  showTip(words, offsetX, offsetY) {
    this.tip.textContent = words;
    this.tip.hidden = false;
    const x = this.canvas.offsetLeft + offsetX, y = this.canvas.offsetTop + offsetY;
    const flip = x > this.figure.clientWidth / 2;
    this.tip.style.left = flip ? '' : `${x + 12}px`;
    this.tip.style.right = flip ? `${this.figure.clientWidth - x + 12}px` : '';
    this.tip.style.top = `${y + 14}px`;
  }

  // A click picks its cell; a tap reads it as a hover would where the words say so (touch_caption); a label picks.
  click(event) {
    const at = this.cellAt(event), reads = this.pointer === 'touch' && Boolean(this.shared.touch_caption) && !this.view.cover;
    if (at && this.view.edit) return this.editor.clicked(at, this.pointer === 'touch'); // selects, a tap opens: no pick
    if (at && reads && at.j !== null) return this.hover(event);
    if (at) this.pick(at);
  }
  // A cell or a row label (j null) chosen: its row becomes the focus token; on a covered view, it is the prediction
  // (a row label: "none", where the question allows it).
  pick(at) { const [how, cell] = picked(this.view, at); this.shared[how](cell); }

  savePng() {
    savePng(this.view, this.box, this.shared, this.canvas.clientWidth, this.height || this.shared.height, theme(this.figure));
  }
}
