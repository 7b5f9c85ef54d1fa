// The browser's half of a click (README: the life of a click): a rail control's change goes out as the component's
// one trigger "event", {control, value}; a cell picked on a view as {cell} or, covered, as {guess}. A small stand-in
// for the DOM: what rail.js and dom.js use of it, nothing drawn.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { toStreamlit } from '../../attnviz/component/index.js';
import { picked } from '../../attnviz/component/layout.js';
import { Rail } from '../../attnviz/component/rail.js';

class Node extends EventTarget {
  constructor(tag) {
    super();
    Object.assign(this, { tagName: tag.toUpperCase(), children: [], parent: null, dataset: {}, style: {}, attributes: {} });
  }

  append(...nodes) { for (const node of nodes) this.insertBefore(node, null); }

  insertBefore(node, before) {
    if (typeof node === 'string') return;
    node.parent = this;
    const at = this.children.indexOf(before);
    this.children.splice(at < 0 ? this.children.length : at, 0, node);
  }

  after(node) { this.parent.insertBefore(node, this.parent.children[this.parent.children.indexOf(this) + 1] ?? null); }

  remove() { this.parent?.children.splice(this.parent.children.indexOf(this), 1); }

  setAttribute(name, value) { this.attributes[name] = String(value); }

  getRootNode() { return { activeElement: null }; }

  * all() { yield this; for (const child of this.children) yield* child.all(); }
}

globalThis.document = { createElement: (tag) => new Node(tag) };

const CONTROLS = [
  { kind: 'check', field: 'causal', label: 'Causal mask', help: '', value: false },
  { kind: 'button', field: 'undo', label: 'Undo', disabled: false },
];

function railSending() {
  const sent = [];
  const rail = new Rail(new Node('div'));
  rail.update({ note: '', controls: CONTROLS });
  rail.send = toStreamlit({ setTriggerValue: (name, value) => sent.push([name, value]) });
  const find = (tag) => [...rail.element.all()].find((node) => node.tagName === tag);
  return { rail, sent, find };
}

test('a tick on Causal mask goes to Streamlit as the one trigger "event", naming the control and its value', () => {
  const { sent, find } = railSending();
  const box = find('INPUT');
  box.checked = true;
  box.dispatchEvent(new Event('change'));
  assert.deepEqual(sent, [['event', { control: 'causal', value: true }]]);
});

test('Undo is a control like any other: its press is the event, each press counted once drawn', () => {
  const { rail, sent, find } = railSending();
  find('BUTTON').dispatchEvent(new Event('click'));
  find('BUTTON').dispatchEvent(new Event('click')); // waits until the first is drawn (rail.js: Sends)
  assert.deepEqual(sent, [['event', { control: 'undo', value: true }]]);
  rail.update({ note: '', controls: CONTROLS }); // Python drew the first
  assert.deepEqual(sent, [['event', { control: 'undo', value: true }], ['event', { control: 'undo', value: true }]]);
});

test('a choice sends the value Python gave its option, and shows a value Python draws at that option', () => {
  const sent = [];
  const rail = new Rail(new Node('div'));
  const predict = { kind: 'choice', field: 'predict', label: 'Predict first', help: '', value: '' };
  const spec = { ...predict, options: ['Off', 'Which key?', 'Sharper or flatter?'], values: ['', 'most', 'sharper'] };
  rail.update({ note: '', controls: [spec] });
  rail.send = toStreamlit({ setTriggerValue: (name, value) => sent.push([name, value]) });
  const select = [...rail.element.all()].find((node) => node.tagName === 'SELECT');
  assert.equal(select.value, '0');
  select.selectedIndex = 2;
  select.dispatchEvent(new Event('change'));
  assert.deepEqual(sent, [['event', { control: 'predict', value: 'sharper' }]]);
  rail.update({ note: '', controls: [{ ...spec, value: 'sharper' }] }); // Python drew it
  rail.update({ note: '', controls: [{ ...spec, value: 'most' }] }); // and a later move (Undo) another
  assert.equal(select.value, '1');
});

test('a picked cell is chosen, a picked row label too (col null), and on a covered view it is a prediction', () => {
  assert.deepEqual(picked({ name: 'weights' }, { i: 2, j: 1 }), ['choose', { view: 'weights', row: 2, col: 1 }]);
  assert.deepEqual(picked({ name: 'scores' }, { i: 3, j: null }), ['choose', { view: 'scores', row: 3, col: null }]);
  assert.deepEqual(picked({ name: 'weights', cover: 'Which key?' }, { i: 4, j: 0 }), [
    'predict', { view: 'weights', row: 4, col: 0 },
  ]);
});

test('the way back: the data Python draws after the click ticks the box, whatever the box showed', () => {
  const { rail, find } = railSending();
  rail.update({ note: '', controls: [{ ...CONTROLS[0], value: true }, CONTROLS[1]] });
  assert.equal(find('INPUT').checked, true);
  rail.update({ note: '', controls: CONTROLS }); // Undo: Python draws it off again
  assert.equal(find('INPUT').checked, false);
});
