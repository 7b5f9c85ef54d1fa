// A small stand-in for the browser, enough for the instrument (attnviz/component/instrument.js) to build and draw its
// views in Node: elements with children, classes, datasets and a few selectors; a focus that moves (blur, then focus);
// tables; a canvas whose context draws nothing and measures text at 6px a character; a ResizeObserver the test calls;
// animation frames the test runs. Nothing is painted: tests read what the component says on its elements.

const SELECTOR = /^(:scope > )?([a-z]+)?(?:\.([\w-]+))?(?:\[data-([\w-]+)="([^"]*)"\])?$/;
const camel = (name) => name.replace(/-(\w)/g, (_, c) => c.toUpperCase());

export class Node extends EventTarget {
  constructor(tag) {
    super();
    const style = { props: {}, getPropertyValue(name) { return this.props[name] ?? ''; }, setProperty(name, value) { this.props[name] = value; } };
    Object.assign(this, { tagName: tag.toUpperCase(), children: [], parent: null, dataset: {}, style, attributes: {} });
    Object.assign(this, { className: '', textContent: '', hidden: false, clientWidth: 300, offsetLeft: 0, offsetTop: 20 });
  }

  get parentElement() { return this.parent; }

  get isConnected() { return Boolean(this.parent?.isConnected || this.root); }

  get classList() {
    const names = () => this.className.split(' ').filter(Boolean);
    return {
      contains: (name) => names().includes(name),
      remove: (name) => { this.className = names().filter((n) => n !== name).join(' '); },
      toggle: (name, on) => { this.className = [...names().filter((n) => n !== name), ...(on ? [name] : [])].join(' '); },
    };
  }

  append(...nodes) { for (const node of nodes) this.insertBefore(node, null); }

  appendChild(node) { this.insertBefore(node, null); return node; }

  insertBefore(node, before) {
    if (typeof node === 'string') return;
    node.parent?.children.splice(node.parent.children.indexOf(node), 1);
    node.parent = this;
    const at = this.children.indexOf(before);
    this.children.splice(at < 0 ? this.children.length : at, 0, node);
  }

  replaceChildren(...nodes) {
    this.children = [];
    this.caption = undefined;
    this.append(...nodes);
  }

  remove() { this.parent?.children.splice(this.parent.children.indexOf(this), 1); this.parent = null; }

  setAttribute(name, value) { this.attributes[name] = String(value); }

  getAttribute(name) { return this.attributes[name] ?? null; }

  removeAttribute(name) { delete this.attributes[name]; }

  getRootNode() { return page; }

  contains(node) { for (let at = node; at; at = at.parent) if (at === this) return true; return false; }

  closest() { return null; }

  matches() { return false; }

  focus() { page.focusOn(this); }

  blur() { if (page.activeElement === this) page.focusOn(null); }

  select() { this.selection = [0, String(this.value ?? '').length]; }

  setSelectionRange(start, end) { this.selection = [start, end]; }

  * all() { yield this; for (const child of this.children) yield* child.all(); }

  // ``:scope > .name``, ``tag``, ``.name``, ``.name[data-x="y"]``: all the instrument asks for.
  querySelectorAll(selector) {
    const [, child, tag, name, data, value] = selector.match(SELECTOR) ?? [];
    const pool = child ? this.children : [...this.all()].slice(1);
    return pool.filter((node) => (!tag || node.tagName === tag.toUpperCase()) && (!name || node.classList.contains(name))
      && (!data || node.dataset[camel(data)] === value));
  }

  querySelector(selector) { return this.querySelectorAll(selector)[0] ?? null; }

  // Tables (reader.js).
  createCaption() { this.caption = this.appendChild(new Node('caption')); return this.caption; }

  createTHead() { return this.appendChild(new Node('thead')); }

  createTBody() { return this.appendChild(new Node('tbody')); }

  insertRow() { return this.appendChild(new Node('tr')); }

  insertCell() { return this.appendChild(new Node('td')); }

  get rows() { return this.children.filter((node) => node.tagName === 'TR'); }

  get cells() { return this.children; }

  get tBodies() { return this.children.filter((node) => node.tagName === 'TBODY'); }

  getContext() { return context(); }
}

// A 2D context: every drawing call does nothing; text is 6px a character; a read pixel is transparent.
function context() {
  const own = { measureText: (text) => ({ width: 6 * String(text).length }), getImageData: () => ({ data: [0, 0, 0, 0] }) };
  return new Proxy(own, { get: (target, name) => (name in target ? target[name] : () => {}), set: (target, name, value) => { target[name] = value; return true; } });
}

export const observers = [];
class Observed {
  constructor(callback) { Object.assign(this, { callback, targets: [] }); observers.push(this); }

  observe(target) { this.targets.push(target); }

  disconnect() { this.targets = []; }
}

class Page extends EventTarget {
  constructor() {
    super();
    this.activeElement = null;
    this.body = new Node('body');
    this.body.root = true;
    this.documentElement = new Node('html');
  }

  createElement(tag) { return new Node(tag); }

  // The focus moves: the element that had it is told first (blur), then the one that has it (focus).
  focusOn(node) {
    const before = this.activeElement;
    if (before === node) return;
    this.activeElement = node;
    before?.dispatchEvent(new Event('blur'));
    node?.dispatchEvent(new Event('focus'));
  }
}

export const page = new Page();
export const frames = [];
// Timers of a second or more (an edit's resend) wait here for the test to run them; shorter ones run.
export const late = [];
const soon = globalThis.setTimeout;
const media = { matches: false, addEventListener() {}, removeEventListener() {} };
Object.assign(globalThis, {
  document: page,
  window: { devicePixelRatio: 1 },
  getComputedStyle: () => ({ backgroundColor: '', color: '' }),
  matchMedia: () => media,
  MutationObserver: Observed,
  ResizeObserver: Observed,
  requestAnimationFrame: (run) => frames.push(run),
  setTimeout: (run, ms = 0) => (ms >= 1000 ? late.push({ run, ms }) : soon(run, ms)),
  cancelAnimationFrame: () => {},
  CSS: { escape: (text) => text },
});

// Runs the animation frames asked for (a glide's, the reader's), and the timers they set.
export async function settle() {
  for (let round = 0; round < 5 && frames.length; round++) {
    for (const run of frames.splice(0)) run(performance.now() + 1000);
    await new Promise((done) => { setTimeout(done, 0); });
  }
}

// Every canvas of the page is given its size, as the browser's ResizeObserver would.
export function sized(width = 320, height = 200) {
  for (const observer of observers) {
    observer.callback(observer.targets.filter((target) => target.tagName === 'CANVAS').map((target) => ({ target, contentRect: { width, height } })));
  }
}

export const keydown = (key, more = {}) => Object.assign(new Event('keydown', { cancelable: true }), { key, ...more });
export const pointed = (type, offsetX, offsetY) => Object.assign(new Event(type, { cancelable: true }), { offsetX, offsetY });
