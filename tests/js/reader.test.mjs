// What a hover says about a cell (attnviz/component/reader.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { canvasLabel, sentence } from '../../attnviz/component/reader.js';

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

test("a covered view's label says Enter answers its question, not what Enter does on an open view", () => {
  const view = { title: '3. Weights', rows: ['0: a', '1: b'], ticks: ['a', 'b'], colour: [1, 0, 0, 1] };
  const enter = 'Enter makes its row the focus token.';
  assert.match(canvasLabel(view, enter), /Enter makes its row the focus token\. P saves it/);
  const covered = canvasLabel({ ...view, cover: 'Which key will “b” attend to most?' }, enter);
  assert.match(covered, /Enter answers the question with that cell\. P saves it/);
  assert.doesNotMatch(covered, /focus token/);
});
