// The anywidget entry (attnviz/component/widget.js) against a fake model with anywidget's contract: get, set,
// save_changes, on("change:x"), off; and its render into a small stand-in for the DOM (what the instrument uses of it
// for a bare set of views with no view in it: nothing painted), asserting what it draws.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import widget, { connect } from '../../attnviz/component/widget.js';

class FakeModel {
  constructor(traits) {
    this.traits = { ...traits };
    this.handlers = new Map();
    this.saved = [];
    this.messages = [];
  }

  send(content) { this.messages.push(structuredClone(content)); }

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

test('a control or a click goes back as a message and as the saved _event, one id each, the same choice twice two ids', () => {
  const model = new FakeModel({ _data: '{"views":[]}' });
  let send;
  connect(model, (data, sender) => { send = sender; });
  send({ control: 'causal', value: true });
  send({ control: 'causal', value: true });
  send({ cell: { view: 'weights', row: 2, col: 1 } });
  const events = [{ control: 'causal', value: true }, { control: 'causal', value: true }, { cell: { view: 'weights', row: 2, col: 1 } }];
  assert.deepEqual(model.saved.map((sent) => sent.event), events);
  assert.deepEqual(model.messages, model.saved); // every one sent both ways, with the same id
  const ids = model.saved.map((sent) => sent.id);
  assert.equal(new Set(ids).size, 3);
  assert.match(ids[0], /^[a-z0-9]+-1$/);
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

// ----------------------------------------------------------------------------- a stand-in for the browser
class Node extends EventTarget {
  constructor(tag) {
    super();
    const style = { props: {}, getPropertyValue(name) { return this.props[name] ?? ''; }, setProperty(name, value) { this.props[name] = value; } };
    Object.assign(this, { tagName: tag.toUpperCase(), children: [], parent: null, dataset: {}, style, textContent: '', hidden: false, clientWidth: 0 });
  }

  get parentElement() { return this.parent; }

  get isConnected() { return this.parent !== null; }

  append(...nodes) { for (const node of nodes) this.appendChild(node); }

  appendChild(node) { node.parent = this; this.children.push(node); return node; }

  insertBefore(node, before) { node.parent = this; this.children.splice(this.children.indexOf(before), 0, node); }

  closest() { return null; }

  querySelector() { return null; }

  querySelectorAll() { return []; }

  getRootNode() { return { activeElement: null }; }

  getContext() { // a canvas reading back a transparent pixel: the theme falls back to white
    return { fillStyle: '', clearRect() {}, fillRect() {}, getImageData: () => ({ data: [0, 0, 0, 0] }) };
  }

  * all() { yield this; for (const child of this.children) yield* child.all(); }
}

class Observed {
  static made = [];

  constructor(callback) { Object.assign(this, { callback, targets: [] }); Observed.made.push(this); }

  observe(target) { this.targets.push(target); }

  disconnect() { this.targets = []; }
}

const page = { createElement: (tag) => new Node(tag), documentElement: new Node('html'), body: new Node('body') };
const media = new EventTarget();
media.matches = false;
const frames = [];
Object.assign(globalThis, {
  document: page,
  window: { devicePixelRatio: 1 },
  getComputedStyle: () => ({ backgroundColor: '', color: '' }),
  matchMedia: () => media,
  MutationObserver: Observed,
  ResizeObserver: Observed,
  requestAnimationFrame: (run) => frames.push(run),
  CSS: { escape: (text) => text },
});

function bare(said) {
  return JSON.stringify({ views: [], controls: [], columns: [1], font_size: 13, note: '', warning: '', ...said });
}

function byClass(el, name) {
  return [...el.all()].filter((node) => node.className === name);
}

test('render draws the styles and the instrument Python\'s data asks for, then each new _data in place', () => {
  const model = new FakeModel({ _grid_css: '.attnviz-view { color: red; }', _data: bare({ caption: 'first' }) });
  const el = new Node('div');
  const unhook = widget.render({ model, el });
  const [style, instrument] = el.children;
  assert.equal(el.children.length, 2);
  assert.equal(style.tagName, 'STYLE');
  assert.equal(style.textContent, '.attnviz-view { color: red; }'); // inside the cell: a shadow root gets them too
  assert.equal(instrument.className, 'attnviz-instrument');
  // No controls: the views alone; no input open over a cell, no edit on its way (edits.js).
  assert.deepEqual({ ...instrument.dataset }, { presenter: 'false', bare: 'true', editing: 'false', pending: '0' });
  assert.equal(instrument.style.colorScheme, 'light'); // the cell's background read as white
  const [caption] = byClass(el, 'attnviz-caption');
  const [warning] = byClass(el, 'attnviz-warning');
  assert.equal(caption.textContent, 'first');
  assert.equal(warning.hidden, true);
  model.fromPython('_data', bare({ caption: 'second', warning: 'That value was refused.', font_size: 24 }));
  assert.equal(el.children.length, 2); // updated in place, not built again
  assert.equal(caption.textContent, 'second');
  assert.deepEqual([warning.textContent, warning.hidden], ['That value was refused.', false]);
  assert.equal(instrument.dataset.presenter, 'true'); // presenter mode's font: the note goes under the views
  unhook();
});

test('render follows the notebook\'s theme, and what it returns unhooks both the data and the theme', () => {
  Observed.made.length = 0;
  const model = new FakeModel({ _grid_css: '', _data: bare({ caption: 'first' }) });
  const el = new Node('div');
  const unhook = widget.render({ model, el });
  const marks = Observed.made.find((made) => made.targets.includes(page.documentElement));
  assert.deepEqual(marks.targets, [page.documentElement, page.body]); // JupyterLab's and marimo's theme marks
  const [caption] = byClass(el, 'attnviz-caption');
  caption.textContent = 'painted over';
  marks.callback();
  media.dispatchEvent(new Event('change')); // the system's light or dark setting
  assert.equal(frames.length, 2); // each redraws after the new styles apply
  frames.splice(0).forEach((run) => run());
  assert.equal(caption.textContent, 'first'); // drawn again from the last data
  unhook();
  assert.deepEqual(marks.targets, []);
  media.dispatchEvent(new Event('change'));
  model.fromPython('_data', bare({ caption: 'after' }));
  assert.deepEqual([frames.length, caption.textContent], [0, 'first']);
});
