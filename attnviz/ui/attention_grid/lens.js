// The projector's lens (presenter mode): one view's focus row, the row a lesson reads, drawn under the views with
// digits the back of a room reads (at least LENS_DIGIT_PX tall), each number on its cell's colour under its column's
// label, in as few lines as the width allows, and the row's formula under them. The grid keeps every row, smaller;
// the lens's caption (Python's) says so. Layout is pure given a canvas context (tests/js pass a stub).

import { coloursOf } from './paint.js';
import { textOn, unpacked } from './colour.js';
import { element, setIfNew } from './dom.js';
import { digitHeight, fitted } from './layout.js';

export const LENS_DIGIT_PX = 20; // what a digit needs at the back of a room, on a 1280 × 720 projector
const GAP = 6; // px between two numbers' boxes
const PAD = 3; // px around the lens's lines, and around a number in its box

// The smallest font size whose digits are at least ``px`` tall.
export function fontForDigits(ctx, px) {
  let size = Math.floor(px);
  while (digitHeight(ctx, size) < px) size += 1;
  return size;
}

// ``words`` broken into lines of at most ``width`` px at the context's font (a word longer than that alone on its line).
export function wrapped(ctx, words, width) {
  const lines = [];
  for (const word of words.split(' ').filter(Boolean)) {
    const last = lines.length ? `${lines[lines.length - 1]} ${word}` : word;
    if (lines.length && ctx.measureText(last).width <= width) lines[lines.length - 1] = last;
    else lines.push(word);
  }
  return lines;
}

// Where the lens puts ``texts`` (the row's cells) and ``formula`` in ``width`` px: slots as wide as the widest number,
// as few lines as fit, the numbers shared evenly between them; then the formula's lines.
export function lensLayout(ctx, texts, formula, width) {
  const font = fontForDigits(ctx, LENS_DIGIT_PX);
  ctx.font = `${font}px sans-serif`;
  const slot = Math.max(...texts.map((t) => ctx.measureText(t).width)) + 2 * PAD + GAP;
  const lines = Math.ceil(texts.length / Math.max(1, Math.floor((width - 2 * PAD) / slot)));
  const formulaLines = wrapped(ctx, formula, width - 2 * PAD);
  const label = Math.max(12, Math.round(font * 0.5)), numberH = Math.round(font * 1.3);
  const lineH = label + 4 + numberH + GAP;
  const height = 2 * PAD + lines * lineH + formulaLines.length * numberH;
  return { font, slot, perLine: Math.ceil(texts.length / lines), lines, label, numberH, lineH, formulaLines, height };
}

// The view the lens reads, its focus row's texts, labels and colours.
function rowOf(data) {
  const view = data.views.find((shown) => shown.name === data.lens?.view);
  if (!view || view.focus === null || !view.text.length) return null;
  const cols = view.ticks.length, from = view.focus * cols;
  return { view, cols, texts: view.text.slice(from, from + cols), from };
}

export class Lens {
  constructor(parentElement) {
    this.caption = element('figcaption', { className: 'attnviz-lens-caption' });
    this.canvas = element('canvas', { role: 'img' });
    this.figure = element('figure', { className: 'attnviz-lens', hidden: true }, this.caption, this.canvas);
    parentElement.append(this.figure);
    new ResizeObserver(() => this.draw()).observe(this.figure);
  }

  update(data, palette) {
    this.data = data;
    this.palette = palette;
    this.row = data.lens && rowOf(data);
    setIfNew(this.figure, 'hidden', !this.row);
    setIfNew(this.caption, 'textContent', this.row ? data.lens.caption : '');
    this.draw();
  }

  draw() {
    const { row, canvas, palette } = this, width = this.figure.clientWidth;
    if (!row || !width) return;
    const { view, texts, from, cols } = row, ctx = canvas.getContext('2d');
    const box = lensLayout(ctx, texts, this.data.lens.formula, width);
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(box.height * ratio);
    canvas.style.height = `${box.height}px`;
    this.figure.closest('.attnviz-instrument')?.style.setProperty('--attnviz-lens-height', `${box.height + 40}px`);
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    const rgb = coloursOf(unpacked(view), this.data.colours, palette.background);
    texts.forEach((text, j) => this.paintNumber(ctx, box, j, text, view.ticks[j], rgb.slice(3 * (from + j), 3 * (from + j) + 3)));
    ctx.fillStyle = palette.text;
    ctx.textAlign = 'left';
    ctx.font = `${box.font}px sans-serif`;
    box.formulaLines.forEach((line, k) => ctx.fillText(line, PAD, PAD + box.lines * box.lineH + (k + 0.5) * box.numberH));
    const digits = String(digitHeight(ctx, box.font));
    canvas.dataset.digitPx = digits;
    canvas.dataset.focusDigitPx = digits;
    // The view read here draws its focus row in the lens: its canvas says so (view.js leaves it to the lens).
    const read = this.figure.parentElement.querySelector(`.attnviz-view[data-view="${view.name}"] canvas`);
    if (read) read.dataset.focusDigitPx = digits;
    canvas.setAttribute('aria-label', `${this.caption.textContent} ${texts.map((t, j) => `${view.ticks[j]} ${t}`).join(', ')}. ${this.data.lens.formula}`);
    canvas.dataset.columns = String(cols);
  }

  // One number: its column's label above, the number on its cell's colour below.
  paintNumber(ctx, box, j, text, label, rgb) {
    const x = PAD + (j % box.perLine) * box.slot, y = PAD + Math.floor(j / box.perLine) * box.lineH;
    ctx.fillStyle = this.palette.text;
    ctx.font = `${box.label}px sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(fitted(ctx, label, box.slot - 2), x + (box.slot - GAP) / 2, y + box.label / 2);
    ctx.fillStyle = `rgb(${rgb.map((c) => c | 0).join(',')})`;
    ctx.fillRect(x, y + box.label + 4, box.slot - GAP, box.numberH);
    ctx.fillStyle = textOn(rgb);
    ctx.font = `${box.font}px sans-serif`;
    ctx.fillText(text, x + (box.slot - GAP) / 2, y + box.label + 4 + box.numberH / 2);
  }
}
