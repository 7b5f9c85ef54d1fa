// A page's views elements (index.js) and its one instrument (shared.js): Streamlit loads each element's script on its
// own, in any order, so a views element drawn before the instrument has arrived waits for it, and one drawn after uses it.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import drawViewsElement, { offer, whenOffered } from '../../attnviz/component/index.js';

test('views drawn before the instrument arrives are drawn when it does, in the order they came', () => {
  const scope = {};
  const drawn = [];
  whenOffered((mount) => drawn.push(mount('first')), scope);
  whenOffered((mount) => drawn.push(mount('second')), scope);
  assert.deepEqual(drawn, []);
  offer((what) => `drawn ${what}`, scope);
  assert.deepEqual(drawn, ['drawn first', 'drawn second']);
  whenOffered((mount) => drawn.push(mount('third')), scope); // the instrument is here: drawn at once
  assert.deepEqual(drawn, ['drawn first', 'drawn second', 'drawn third']);
});

test('a newer instrument (a new deployment, the tab still open) draws what comes after it', () => {
  const scope = {};
  offer(() => 'old', scope);
  offer(() => 'new', scope);
  let drawn = null;
  whenOffered((mount) => { drawn = mount(); }, scope);
  assert.equal(drawn, 'new');
});

test("a views element hands its parent, its data and Streamlit's trigger to the page's instrument", () => {
  const calls = [];
  const sent = [];
  const component = {
    parentElement: 'the element',
    data: '{"views": [], "controls": []}',
    setTriggerValue: (name, value) => sent.push([name, value]),
  };
  drawViewsElement(component); // before the instrument: nothing drawn yet
  assert.deepEqual(calls, []);
  offer((parent, data, send) => { calls.push([parent, data]); send({ control: 'causal', value: true }); });
  assert.deepEqual(calls, [['the element', { views: [], controls: [] }]]);
  assert.deepEqual(sent, [['event', { control: 'causal', value: true }]]);
});
