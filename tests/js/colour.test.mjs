// The colour rules of the Playground's views (attnviz/component/colour.js), with Node's own test runner.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { blend, contrast, numbersOf, paletteColour, targetColours, textOn, positionsOf, unpacked } from '../../attnviz/component/colour.js';

const hex = (text) => [1, 3, 5].map((at) => parseInt(text.slice(at, at + 2), 16));

test('a position falls linearly between evenly spaced stops', () => {
  const stops = [[0, 0, 0], [100, 200, 50], [200, 0, 250]];
  assert.deepEqual(paletteColour(stops, [0, 1], 0), [0, 0, 0]);
  assert.deepEqual(paletteColour(stops, [0, 1], 1), [200, 0, 250]);
  assert.deepEqual(paletteColour(stops, [0, 1], 0.25), [50, 100, 25]);
  assert.deepEqual(paletteColour(stops, [-1, 1], 0), [100, 200, 50]); // a signed scale's middle
  assert.deepEqual(paletteColour(stops, [0, 1], 7), [200, 0, 250]); // clipped to the scale
});

test('contrast ratios are WCAG 2.1 ratios', () => {
  assert.equal(contrast([0, 0, 0], [255, 255, 255]), 21);
  assert.equal(Number(contrast(hex('#777777'), [255, 255, 255]).toFixed(2)), 4.48);
  assert.equal(Number(contrast(hex('#4d99c6'), [255, 255, 255]).toFixed(2)), 3.14); // white on it failed AA
});

test('cell text is chosen by ratio and meets 4.5:1 on every colour a palette can give', () => {
  assert.equal(textOn(hex('#4d99c6')), '#000');
  assert.equal(textOn(hex('#440154')), '#fff'); // Viridis's dark end
  assert.equal(textOn(hex('#fde725')), '#000'); // and its light end
  let worst = Infinity;
  for (let r = 0; r <= 255; r += 15) {
    for (let g = 0; g <= 255; g += 15) {
      for (let b = 0; b <= 255; b += 15) {
        const text = textOn([r, g, b]) === '#000' ? [0, 0, 0] : [255, 255, 255];
        worst = Math.min(worst, contrast(text, [r, g, b]));
      }
    }
  }
  assert.ok(worst >= 4.5, `worst ${worst}`);
});

test('masked cells take the masked colour over the page, the rest their palette colour', () => {
  const masked = blend([128, 128, 128, 0.5], [255, 255, 255]);
  assert.deepEqual(masked, [191.5, 191.5, 191.5]);
  const out = targetColours([0, null, 1], [[0, 0, 0], [250, 250, 250]], [0, 1], masked);
  assert.deepEqual(Array.from(out), [0, 0, 0, 191.5, 191.5, 191.5, 250, 250, 250]);
});

test('packed positions decode to the places Python packed, 0 as masked', () => {
  // uint16 codes 0, 1, 65535 little-endian: masked, the bottom of the range, the top (matrix_view.packed_positions)
  assert.deepEqual(positionsOf('AAABAP//', [0, 1]), [null, 0, 1]);
  assert.deepEqual(positionsOf('AQD//w==', [-1, 1]), [-1, 1]);
  assert.deepEqual(positionsOf([0.5, null], [0, 1]), [0.5, null]); // a list passes as it is
});

test('the hover numbers of a large view unpack from their distinct texts and a 16-bit code a cell, as Python packs them', () => {
  // attnviz/figures/matrix_view.py packed_numbers(["0.1", "", "0.1", "−2"]) (tests/figures/test_bounded.py)
  const packed = { words: ['0.1', '', '−2'], codes: 'AAABAAAAAgA=' };
  assert.deepEqual(numbersOf(packed), ['0.1', '', '0.1', '−2']);
  assert.deepEqual(numbersOf(['a', 'b']), ['a', 'b']); // a small view's list, as it is
  const view = unpacked({ colour: 'AAABAP//', range: [0, 1], numbers: packed, title: 't' });
  assert.deepEqual([view.colour.slice(0, 3), view.numbers.length, view.title], [[null, 0, 1], 4, 't']);
});
