// Presenter mode's lens (attnviz/component/lens.js): digits tall enough for the back of a room, the row wrapped
// into as few lines as fit, and the formula's words wrapped under it. A stub measures text as canvas would.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { digitHeight } from '../../attnviz/component/layout.js';
import { fontForDigits, LENS_DIGIT_PX, lensLayout, wrapped } from '../../attnviz/component/lens.js';

// Arial's measures (Chromium's canvas sans-serif here is Liberation Sans, the same): a digit 0.556 of the font's size
// wide and 0.716 tall, a point 0.278 wide, other characters about 0.5.
const WIDTHS = { '.': 0.278, ' ': 0.278 };
const stubContext = () => ({
  font: '10px sans-serif',
  measureText(text) {
    const size = Number(/(\d+)px/.exec(this.font)[1]);
    const em = [...text].reduce((sum, c) => sum + (WIDTHS[c] ?? (/\d/.test(c) ? 0.556 : 0.5)), 0);
    return { width: em * size, actualBoundingBoxAscent: 0.716 * size };
  },
});

test('a digit is as tall as the font draws it, and none for no text', () => {
  const ctx = stubContext();
  assert.equal(digitHeight(ctx, 20), 14.3);
  assert.equal(digitHeight(ctx, 0), 0);
  assert.equal(ctx.textBaseline, 'alphabetic'); // measured from the digit's foot, whatever the last paint set
});

test('the lens font is the smallest whose digits reach the back row', () => {
  const ctx = stubContext();
  const font = fontForDigits(ctx, LENS_DIGIT_PX);
  assert.equal(font, 28); // 0.716 × 28 = 20.05; 0.716 × 27 = 19.3
  assert.ok(digitHeight(ctx, font) >= 20 && digitHeight(ctx, font - 1) < 20);
});

test('12 numbers share one line of a 838 px view area, 24 two lines of 12', () => {
  const ctx = stubContext();
  const twelve = lensLayout(ctx, Array(12).fill('0.67'), [], 838);
  assert.deepEqual([twelve.lines, twelve.perLine, twelve.font], [1, 12, 28]);
  assert.ok(twelve.perLine * twelve.slot <= 838);
  const twentyFour = lensLayout(ctx, Array(24).fill('0.67'), [], 838);
  assert.deepEqual([twentyFour.lines, twentyFour.perLine], [2, 12]);
  assert.equal(twentyFour.height, twelve.height + twelve.lineH); // one more line of numbers, nothing else
});

test("the formula wraps at words, below the numbers, each line within the width", () => {
  const ctx = stubContext();
  ctx.font = '10px sans-serif';
  assert.deepEqual(wrapped(ctx, 'output = 0.67 × v(not)', 60), ['output =', '0.67 ×', 'v(not)']);
  const formula = 'output(good) = 0.67 × v(not) + 0.33 × v(amazing) = (1.00, 0.33)'; // about 805 px at 28 px
  assert.equal(lensLayout(ctx, Array(12).fill('0.67'), ['', formula], 838).sentenceLines.length, 1);
  const narrow = lensLayout(ctx, Array(12).fill('0.67'), ['', formula], 600);
  assert.equal(narrow.sentenceLines.length, 2);
  assert.ok(narrow.sentenceLines.every((line) => ctx.measureText(line).width <= 594));
});

test('a summarised row: its few numbers on one line, then what is left out and the formula, each on lines of its own', () => {
  const ctx = stubContext();
  const rest = 'the other 120 keys: 0.31 together';
  const box = lensLayout(ctx, Array(8).fill('0.0918'), [rest, 'output(w4) = 0.0918 × v(w18)'], 838);
  assert.equal(box.lines, 1);
  assert.deepEqual(box.sentenceLines, [rest, 'output(w4) = 0.0918 × v(w18)']); // the rest never runs into the formula
  assert.equal(box.height, 2 * 3 + box.lineH + 2 * box.numberH);
});
