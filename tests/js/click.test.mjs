// The browser's half of a click (README: the life of a click): a rail control's change goes out as the component's
// one trigger "event", {control, value}; a cell clicked on a view as {cell} or, covered, as {guess}; and the way back,
// the data Python draws after it, through the instrument (instrument.js) to the rail and to each view's canvas
// (view.js, paint.js). A small stand-in for the DOM and a canvas: what the component uses of them, every text a
// paint writes recorded.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { toStreamlit } from '../../attnviz/component/index.js';
import { mount } from '../../attnviz/component/instrument.js';
import { picked } from '../../attnviz/component/layout.js';
import { Rail } from '../../attnviz/component/rail.js';

// A simple selector: a tag, classes and [data-name="value"]s, one element ("figcaption", ".a.b[data-view=\"w\"]").
function matches(node, selector) {
  const tag = selector.match(/^[a-z]+/)?.[0];
  const classes = [...selector.matchAll(/\.([\w-]+)/g)].map((m) => m[1]);
  const data = [...selector.matchAll(/\[data-([\w-]+)="([^"]*)"\]/g)];
  return (!tag || node.tagName === tag.toUpperCase()) && classes.every((c) => node.classList.contains(c))
    && data.every(([, name, value]) => node.dataset[name.replace(/-(\w)/g, (_, c) => c.toUpperCase())] === value);
}

class Node extends EventTarget {
  constructor(tag) {
    super();
    Object.assign(this, { tagName: tag.toUpperCase(), children: [], parent: null, dataset: {}, attributes: {} });
    Object.assign(this, { className: '', clientWidth: 0, offsetLeft: 0, offsetTop: 0, isConnected: true });
    const properties = {};
    this.style = { setProperty: (name, value) => { properties[name] = value; }, getPropertyValue: (name) => properties[name] ?? '' };
    if (tag === 'canvas') this.context = new Context();
  }

  get parentElement() { return this.parent; }

  get classList() {
    const names = () => this.className.split(' ').filter(Boolean);
    return {
      contains: (name) => names().includes(name),
      toggle: (name, on) => { this.className = [...names().filter((n) => n !== name), ...(on ? [name] : [])].join(' '); },
      remove: (name) => { this.className = names().filter((n) => n !== name).join(' '); },
    };
  }

  append(...nodes) { for (const node of nodes) this.insertBefore(node, null); }

  appendChild(node) { this.insertBefore(node, null); return node; }

  insertBefore(node, before) {
    if (typeof node === 'string') return;
    node.parent = this;
    const at = this.children.indexOf(before);
    this.children.splice(at < 0 ? this.children.length : at, 0, node);
  }

  replaceChildren(...nodes) { this.children = []; this.append(...nodes); }

  after(node) { this.parent.insertBefore(node, this.parent.children[this.parent.children.indexOf(this) + 1] ?? null); }

  remove() { this.parent?.children.splice(this.parent.children.indexOf(this), 1); }

  setAttribute(name, value) { this.attributes[name] = String(value); }

  getAttribute(name) { return this.attributes[name] ?? null; }

  getRootNode() { return { activeElement: null }; }

  matches() { return false; } // :focus-visible: no keyboard here

  closest(selector) { for (let at = this; at; at = at.parent) if (matches(at, selector)) return at; return null; }

  querySelectorAll(selector) {
    const [scope, wanted] = selector.startsWith(':scope > ') ? [true, selector.slice(9)] : [false, selector];
    return (scope ? this.children : [...this.all()].slice(1)).filter((node) => matches(node, wanted));
  }

  querySelector(selector) { return this.querySelectorAll(selector)[0] ?? null; }

  getContext() { return this.context; }

  * all() { yield this; for (const child of this.children) yield* child.all(); }
}

// A 2-D context that records what a paint writes (texts, changed cells' boxes) and reads a colour back as a canvas does.
class Context {
  constructor() { Object.assign(this, { texts: [], boxes: [], colour: [0, 0, 0, 255], fill: '#000' }); }

  set fillStyle(css) {
    const hex = css.match(/^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i);
    const rgb = css.match(/^rgba?\(([^)]*)\)$/);
    if (hex) this.parsed = [...hex.slice(1).map((h) => parseInt(h, 16)), 255];
    else if (rgb) this.parsed = rgb[1].split(',').map(Number).map((v, k) => (k === 3 ? Math.round(v * 255) : v));
    else if (css === 'transparent') this.parsed = [0, 0, 0, 0];
    this.fill = css;
  }

  get fillStyle() { return this.fill; }

  fillRect() { this.colour = this.parsed ?? this.colour; }

  clearRect() { this.texts = []; this.boxes = []; } // a paint starts here: what it writes is the view's newest

  getImageData() { return { data: [...this.colour.slice(0, 3), this.colour[3] ?? 255] }; }

  measureText(text) { return { width: 7 * text.length }; }

  fillText(text) { this.texts.push(text); }

  strokeRect(...box) { if (this.strokeStyle === CHANGED) this.boxes.push(box); }

  setTransform() {}

  setLineDash() {}

  save() {}

  restore() {}

  translate() {}

  rotate() {}
}

const resized = []; // each ResizeObserver's callback, with the elements it observes
Object.assign(globalThis, {
  document: { createElement: (tag) => new Node(tag), addEventListener() {} },
  window: { devicePixelRatio: 1 },
  CSS: { escape: (text) => text },
  matchMedia: () => ({ matches: false }),
  getComputedStyle: () => ({ backgroundColor: 'rgb(255, 255, 255)', color: '#31333f' }),
  requestAnimationFrame: () => 0, // a glide's first frame is painted at once: the frames after it are not needed here
  cancelAnimationFrame() {},
  ResizeObserver: class {
    constructor(callback) { this.targets = []; resized.push([callback, this.targets]); }

    observe(target) { this.targets.push(target); }
  },
});

// The browser lays the views out: each observed element gets a size, and redraws at it.
function layOut(width, height) {
  for (const [callback, targets] of resized) callback(targets.map((target) => ({ target, contentRect: { width, height } })));
}

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

const CHANGED = '#E69F00';
// The weights of "a b" as Python sends them (attnviz/component/data.py), before and after Causal mask: b's row moves,
// a's row loses "b" (masked: no colour, "0"), and the cell that changed is boxed.
const WEIGHTS = {
  name: 'weights', title: '3. Weights', rows: ['0: a', '1: b'], ticks: ['a', 'b'], row_ticks: ['0: a', '1: b'], cols: ['0: a', '1: b'],
  tick_font: 13, focus: null, palette: ['#440154', '#fde725'], range: [0, 1], value_name: 'weight', masked_words: 'masked',
  colour: [0.5, 0.5, 0.3, 0.7], text: ['0.50', '0.50', '0.30', '0.70'], numbers: ['0.5', '0.5', '0.3', '0.7'], changed: [],
  boxes: [], groups: [1, 1],
};
const MASKED = { ...WEIGHTS, colour: [1, null, 0.3, 0.7], text: ['1.00', '0', '0.30', '0.70'], numbers: ['1', '', '0.3', '0.7'], changed: [0] };

function dataOf(view, causal) {
  return {
    views: [view], controls: [{ ...CONTROLS[0], value: causal }, CONTROLS[1]], note: '', warning: '', caption: '', touch_caption: '',
    height: 180, font_size: 13, colours: { masked: 'rgba(128,128,128,0.35)', changed: CHANGED, focus: '#000000' },
    columns: [1], enter: 'Enter makes its row the focus token.', labels_first: false, lens: null,
  };
}

test('the whole browser half: a click on a cell goes out as {cell}; the data back repaints that view and ticks the box', () => {
  const sent = [], parent = new Node('div');
  const send = toStreamlit({ setTriggerValue: (name, value) => sent.push([name, value]) });
  mount(parent, dataOf(WEIGHTS, false), send);
  layOut(300, 180);
  const [canvas] = [...parent.all()].filter((node) => node.tagName === 'CANVAS' && node.parent.classList.contains('attnviz-view'));
  const box = JSON.parse(canvas.dataset.layout);
  assert.equal(canvas.dataset.revision, 1);
  assert.deepEqual(canvas.context.texts.slice(0, 4), WEIGHTS.text); // the numbers, in their cells' order

  // A click on b's cell of a's row: layout.js says which cell is under the point, view.js picks it, index.js sends it.
  canvas.dispatchEvent(Object.assign(new Event('click'), { offsetX: box.left + 1.5 * box.cellW, offsetY: box.top + 0.5 * box.cellH }));
  assert.deepEqual(sent, [['event', { cell: { view: 'weights', row: 0, col: 1 } }]]);

  // The way back: Causal mask drawn on. The rail shows Python's value, the view repaints its new numbers and boxes
  // the cell that changed; data that did not change paints nothing again.
  mount(parent, dataOf(MASKED, true), send);
  const tick = [...parent.all()].find((node) => node.tagName === 'INPUT');
  assert.equal(tick.checked, true);
  assert.equal(canvas.dataset.revision, 2);
  assert.deepEqual(canvas.context.texts.slice(0, 4), MASKED.text);
  assert.deepEqual(canvas.context.boxes.map(([x, y]) => [x - 1.5, y - 1.5]), [[box.left, box.top]]);
  mount(parent, dataOf(MASKED, true), send);
  assert.equal(canvas.dataset.revision, 2);
});
