// The anywidget entry (attnviz/component/widget.js) against a fake model with anywidget's contract: get, set,
// save_changes, on("change:x"), off.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import widget, { connect } from '../../attnviz/component/widget.js';

class FakeModel {
  constructor(traits) {
    this.traits = { ...traits };
    this.handlers = new Map();
    this.saved = [];
  }

  get(name) { return this.traits[name]; }

  set(name, value) { this.traits[name] = value; }

  save_changes() { this.saved.push(structuredClone(this.traits._event)); }

  on(event, handler) { this.handlers.set(event, [...(this.handlers.get(event) || []), handler]); }

  off(event, handler) { this.handlers.set(event, (this.handlers.get(event) || []).filter((h) => h !== handler)); }

  // What the kernel does when Python sets a trait: the new value, then its change event.
  fromPython(name, value) {
    this.traits[name] = value;
    for (const handler of this.handlers.get(`change:${name}`) || []) handler();
  }
}

test('the widget draws the data Python holds now, and again on every new _data', () => {
  const model = new FakeModel({ _data: JSON.stringify({ views: [], caption: 'first' }) });
  const drawn = [];
  connect(model, (data) => drawn.push(data.caption));
  assert.deepEqual(drawn, ['first']);
  model.fromPython('_data', JSON.stringify({ views: [], caption: 'second' }));
  assert.deepEqual(drawn, ['first', 'second']);
  model.fromPython('causal', true); // a field's own change redraws nothing: Python sends new _data with it
  assert.deepEqual(drawn, ['first', 'second']);
});

test('a control or a click goes back as one saved _event, counted so that the same choice twice is two changes', () => {
  const model = new FakeModel({ _data: '{"views":[]}' });
  let send;
  connect(model, (data, sender) => { send = sender; });
  send({ control: 'causal', value: true });
  send({ control: 'causal', value: true });
  send({ cell: { view: 'weights', row: 2, col: 1 } });
  assert.deepEqual(model.saved, [
    { event: { control: 'causal', value: true }, count: 1 },
    { event: { control: 'causal', value: true }, count: 2 },
    { event: { cell: { view: 'weights', row: 2, col: 1 } }, count: 3 },
  ]);
});

test('what render returns unhooks the widget: a later _data draws nothing', () => {
  const model = new FakeModel({ _data: '{"views":[]}' });
  let draws = 0;
  const undo = connect(model, () => { draws += 1; });
  undo();
  model.fromPython('_data', '{"views":[]}');
  assert.equal(draws, 1);
  assert.deepEqual(model.handlers.get('change:_data'), []);
});

test('the default export is anywidget\'s: an object with render', () => {
  assert.equal(typeof widget.render, 'function');
});
