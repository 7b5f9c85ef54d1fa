// What a hover says about a cell (attnviz/ui/attention_grid/reader.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { sentence } from '../../attnviz/ui/attention_grid/reader.js';

test('a hover names the query, the key and the value, or says the cell is masked', () => {
  const view = {
    rows: ['0: The', '1: cat'], cols: ['0: The', '1: cat'], ticks: ['The', 'cat'],
    colour: [1, null, 0.5, 0.5], numbers: ['1', '', '0.5', '0.5'], value_name: 'weight',
    masked_words: 'masked, score −∞, weight 0', // Python's words (attnviz/figures/matrix_view.py), like every other
  };
  assert.equal(sentence(view, 0), '0: The → 0: The: weight 1');
  assert.equal(sentence(view, 1), '0: The → 1: cat: masked, score −∞, weight 0');
  assert.equal(sentence(view, 2), '1: cat → 0: The: weight 0.5');
});
