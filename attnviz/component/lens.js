// The projector's lens (presenter mode): one row of a view, the row a lesson reads, drawn under the views with digits
// the back of a room reads (at least LENS_DIGIT_PX tall), each number on its cell's colour under its column's label,
// in as few lines as the width allows, then in words what it leaves out (above the text limit: the rest of the row)
// and the row's formula. Python (attnviz/figures/lens.py) picks the cells and words; the caption says what is left
// out. Layout is pure given a canvas context (tests/js pass a stub).

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

// Where the lens puts ``texts`` (the row's cells) and ``words`` (sentences: what is left out, the formula) in ``width``
// px: slots as wide as the widest number, as few lines as fit, the numbers shared evenly between them; then each
// sentence's lines.
export function lensLayout(ctx, texts, words, width) {
  const font = fontForDigits(ctx, LENS_DIGIT_PX);
  ctx.font = `${font}px sans-serif`;
  const slot = Math.max(...texts.map((t) => ctx.measureText(t).width)) + 2 * PAD + GAP;
  const lines = Math.ceil(texts.length / Math.max(1, Math.floor((width - 2 * PAD) / slot)));
  const sentenceLines = words.flatMap((sentence) => wrapped(ctx, sentence, width - 2 * PAD));
  const label = Math.max(12, Math.round(font * 0.5)), numberH = Math.round(font * 1.3);
  const lineH = label + 4 + numberH + GAP;
  const height = 2 * PAD + lines * lineH + sentenceLines.length * numberH;
  return { font, slot, perLine: Math.ceil(texts.length / lines), lines, label, numberH, lineH, sentenceLines, height };
}

// The view the lens reads, and where its row's cells start in it.
function rowOf(data) {
  const view = data.views.find((shown) => shown.name === data.lens?.view);
  if (!view || !data.lens.texts.length) return null;
  return { view, from: data.lens.row * view.ticks.length };
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
    const { view, from } = row, { texts, columns, chosen, rest, formula } = this.data.lens, ctx = canvas.getContext('2d');
    const box = lensLayout(ctx, texts, [rest, formula], width);
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(box.height * ratio);
    canvas.style.height = `${box.height}px`;
    this.figure.closest('.attnviz-instrument')?.style.setProperty('--attnviz-lens-height', `${box.height + 40}px`);
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    const rgb = coloursOf(unpacked(view), this.data.colours, palette.background);
    texts.forEach((text, k) => {
      const j = columns[k], at = 3 * (from + j);
      this.paintNumber(ctx, box, k, text, view.ticks[j], rgb.slice(at, at + 3), j === chosen);
    });
    ctx.fillStyle = palette.text;
    ctx.textAlign = 'left';
    ctx.font = `${box.font}px sans-serif`;
    box.sentenceLines.forEach((line, k) => ctx.fillText(line, PAD, PAD + box.lines * box.lineH + (k + 0.5) * box.numberH));
    const digits = String(digitHeight(ctx, box.font));
    canvas.dataset.digitPx = digits;
    canvas.dataset.focusDigitPx = digits;
    // The view read here draws its focus row in the lens: its canvas says so (view.js leaves it to the lens).
    const read = this.figure.parentElement.querySelector(`.attnviz-view[data-view="${view.name}"] canvas`);
    if (read) read.dataset.focusDigitPx = digits;
    canvas.setAttribute('aria-label', `${this.caption.textContent} ${texts.map((t, k) => `${view.ticks[columns[k]]} ${t}`).join(', ')}. ${rest ? `${rest}. ` : ''}${formula}`);
    canvas.dataset.drawn = JSON.stringify({ view: view.name, row: this.data.lens.row, columns, texts, rest }); // for tests
  }

  // The ``k``th number: its column's label above, the number on its cell's colour below, outlined when ``chosen``.
  paintNumber(ctx, box, k, text, label, rgb, chosen) {
    const x = PAD + (k % box.perLine) * box.slot, y = PAD + Math.floor(k / box.perLine) * box.lineH;
    ctx.fillStyle = this.palette.text;
    ctx.font = `${box.label}px sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(fitted(ctx, label, box.slot - 2), x + (box.slot - GAP) / 2, y + box.label / 2);
    ctx.fillStyle = `rgb(${rgb.map((c) => c | 0).join(',')})`;
    ctx.fillRect(x, y + box.label + 4, box.slot - GAP, box.numberH);
    if (chosen) {
      ctx.strokeStyle = this.palette.text;
      ctx.lineWidth = 3;
      ctx.strokeRect(x - 1.5, y + box.label + 2.5, box.slot - GAP + 3, box.numberH + 3);
    }
    ctx.fillStyle = textOn(rgb);
    ctx.font = `${box.font}px sans-serif`;
    ctx.fillText(text, x + (box.slot - GAP) / 2, y + box.label + 4 + box.numberH / 2);
  }
}
