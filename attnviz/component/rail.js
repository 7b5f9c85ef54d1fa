// The controls beside the views, drawn by the same component, so that a toggle redraws one element of the page. Each
// control shows the value Python sent for its field (data.controls, built by attnviz/component/data.py) and
// reports a change as the event {control: field, value}; Python checks the value, makes the move and sends the new
// state back. Every piece of text is set as text, never as markup.

import { element, setIfNew } from './dom.js';

// What the rail sends to Python, one change a run. A student clicking faster than the runs finish (50 clicks on
// Causal mask, 20 ms apart) would otherwise have clicks merged or lost in flight, and a run drawn in the middle would
// put an old value back under the pointer, so that the next click toggled from it. So a change is sent once the one
// before it is drawn (its value shown by Python, or, for an action such as Undo, any draw); a newer value of a field
// replaces one not yet sent (the last choice counts), each action is sent; and a control shows the student's choice
// until Python draws it.

export const NO_DRAW_MS = 2000; // a change Python never draws (a value it refused) lets the next one go after this

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

export class Sends {
  constructor(send, { later = (run, ms) => setTimeout(run, ms), busy = () => {} } = {}) {
    this.send = send; // (field, value): to Python
    this.later = later;
    this.busy = busy; // told true while a change waits to be sent or drawn, false when every one is drawn
    this.queue = []; // [{field, value, action}] not sent yet, oldest first
    this.sent = 0; // sends so far, to number them
    this.waiting = null; // the change sent and not drawn yet, with its number: a late timer cannot release a newer one
  }

  // A change from a control: ``action`` for a button (each press counts), else a value (the newest counts).
  submit(field, value, { action = false } = {}) {
    if (!action) this.queue = this.queue.filter((queued) => queued.action || queued.field !== field);
    this.queue.push({ field, value, action });
    this.flush();
  }

  // Whether ``field`` has a value on its way: its control shows that, not the value Python drew.
  holds(field) {
    return [this.waiting, ...this.queue].some((change) => change && !change.action && change.field === field);
  }

  // Python has drawn the rail with ``values`` (field -> value): the change on its way is drawn if its value is there.
  drawn(values) {
    const { waiting } = this;
    if (waiting && (waiting.action || same(values[waiting.field], waiting.value))) this.waiting = null;
    this.flush();
  }

  flush() {
    if (!this.waiting && this.queue.length) {
      this.waiting = { ...this.queue.shift(), number: ++this.sent };
      const { number } = this.waiting;
      this.send(this.waiting.field, this.waiting.value);
      this.later(() => this.release(number), NO_DRAW_MS);
    }
    this.busy(Boolean(this.waiting || this.queue.length));
  }

  release(number) {
    if (this.waiting?.number !== number) return;
    this.waiting = null;
    this.flush();
  }
}

let controlIds = 0;

// The help: a line under the control that an (i) button beside its label opens and closes (a click, a tap or a key:
// no hover needed, so it works on a phone and a projector), a tooltip for the mouse, and a description for screen
// readers. ``named`` (the input, or the toggles' group) is named by ``name``'s words alone: read from a label holding
// the (i), its name would be doubled ("Causal mask About Causal mask").
function describe(name, control, target, help, named = target) {
  name.id ||= `attnviz-name-${++controlIds}`;
  named.setAttribute('aria-labelledby', name.id);
  if (!help) return;
  const id = `attnviz-help-${++controlIds}`;
  const line = element('span', { className: 'attnviz-help', id, textContent: help, hidden: true });
  const about = element('button', { type: 'button', className: 'attnviz-about', textContent: 'i', title: help });
  about.setAttribute('aria-label', `About ${name.textContent.trim()}`);
  about.setAttribute('aria-expanded', 'false');
  about.setAttribute('aria-controls', id);
  about.addEventListener('click', (event) => {
    event.preventDefault(); // inside a label: the click opens the help, it does not tick the box
    line.hidden = !line.hidden;
    about.setAttribute('aria-expanded', String(!line.hidden));
  });
  name.after(about);
  control.append(line);
  target.setAttribute('aria-description', help);
}

const STEPS = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

// One Tab stop for a row of buttons (a sentence's twelve chips would be twelve): the arrow keys, Home and End move
// between them, and Tab comes back to the one last used (a roving tab index).
function roving(list, buttons) {
  const go = (k) => buttons.forEach((button, j) => { button.tabIndex = j === k ? 0 : -1; });
  go(0);
  list.addEventListener('focusin', (event) => { if (buttons.includes(event.target)) go(buttons.indexOf(event.target)); });
  list.addEventListener('keydown', (event) => {
    const at = buttons.indexOf(event.target), last = buttons.length - 1;
    const to = { Home: 0, End: last }[event.key] ?? (event.key in STEPS ? at + STEPS[event.key] : null);
    if (at < 0 || to === null) return;
    event.preventDefault();
    buttons[Math.max(0, Math.min(last, to))].focus();
  });
}

const CONTROLS = {
  check(spec, send) {
    const input = element('input', { type: 'checkbox' });
    const name = element('span', { textContent: spec.label });
    const control = element('label', { className: 'attnviz-control attnviz-check' }, input, name);
    input.addEventListener('change', () => send(input.checked));
    describe(name, control, input, spec.help); // the (i) at the row's end: the label's middle still ticks the box
    return { control, show: (value) => setIfNew(input, 'checked', value) };
  },

  range(spec, send) {
    const id = `attnviz-control-${++controlIds}`;
    const input = element('input', { type: 'range', id, min: spec.min, max: spec.max, step: spec.step });
    const number = element('output', { htmlFor: id });
    const name = element('span', { textContent: spec.label });
    const control = element('div', { className: 'attnviz-control attnviz-range' },
      element('label', { htmlFor: id }, name, number), input);
    let dragging = false; // a value arriving mid-drag must not pull the thumb away from the pointer
    const say = () => setIfNew(number, 'textContent', Number(input.value).toFixed(2));
    input.addEventListener('pointerdown', () => { dragging = true; });
    for (const end of ['pointerup', 'pointercancel']) input.addEventListener(end, () => { dragging = false; });
    input.addEventListener('input', say);
    input.addEventListener('change', () => send(Number(input.value)));
    describe(name, control, input, spec.help);
    return {
      control,
      show: (value) => {
        if (!dragging) setIfNew(input, 'value', String(value));
        say();
      },
    };
  },

  toggles(spec, send) {
    // A chip shows its token after its position, small, as the token chips under the sentence do.
    const chips = spec.options.map((token, j) => element('button', { type: 'button', className: 'attnviz-toggle', value: j },
      element('small', { textContent: j }), ` ${token}`));
    const list = element('div', { className: 'attnviz-toggles' }, ...chips);
    const name = element('span', { textContent: spec.label });
    const control = element('fieldset', { className: 'attnviz-control' }, element('legend', {}, name), list);
    const pressed = () => chips.filter((chip) => chip.getAttribute('aria-pressed') === 'true').map((chip) => Number(chip.value));
    list.addEventListener('click', (event) => {
      const chip = event.target.closest('.attnviz-toggle');
      if (!chip) return;
      chip.setAttribute('aria-pressed', String(chip.getAttribute('aria-pressed') !== 'true'));
      send(pressed());
    });
    describe(name, control, list, spec.help, control);
    roving(list, chips);
    return {
      control,
      show: (value) => chips.forEach((chip, j) => {
        const on = String(value.includes(j));
        if (chip.getAttribute('aria-pressed') !== on) chip.setAttribute('aria-pressed', on);
      }),
    };
  },

  choice(spec, send) { // each option sends its value as Python gave it (spec.values), whatever its position
    const id = `attnviz-control-${++controlIds}`;
    const select = element('select', { id }, ...spec.options.map((label, i) => element('option', { value: i, textContent: label })));
    const name = element('span', { textContent: spec.label });
    // For the drop-down: the label's first control would be the (i) beside its words.
    const control = element('label', { className: 'attnviz-control attnviz-choice', htmlFor: id }, name, select);
    select.addEventListener('change', () => send(spec.values[select.selectedIndex]));
    describe(name, control, select, spec.help);
    return { control, show: (value) => setIfNew(select, 'value', String(spec.values.indexOf(value))) };
  },

  button(spec, send) {
    const control = element('button', { type: 'button', className: 'attnviz-control attnviz-button', textContent: `↶ ${spec.label}` });
    control.addEventListener('click', () => send(true));
    return { control, show: () => {}, disable: (off) => setIfNew(control, 'disabled', off) };
  },
};

// The rail: ``update(specs)`` builds the controls when their kinds, labels or options change (a new sentence gives the
// focus and blocked-key controls new tokens), and otherwise only shows the new values.
export class Rail {
  constructor(element_) {
    this.element = element_;
    this.send = null; // set by the instrument on every draw: the newest host callback, given an event
    // One change a run (Sends); data-sending says a change is on its way (tests wait for it to clear).
    this.sends = new Sends((control, value) => this.send({ control, value }), {
      busy: (busy) => setIfNew(this.element.dataset, 'sending', String(busy)),
    });
    this.note = element('p', { className: 'attnviz-note' });
    this.element.append(this.note);
  }

  update(data) {
    setIfNew(this.note, 'textContent', data.note);
    setIfNew(this.note, 'hidden', !data.note);
    const shape = JSON.stringify(data.controls.map(({ value, disabled, ...fixed }) => fixed));
    if (shape !== this.shape) {
      this.shape = shape;
      for (const old of this.controls || []) old.control.remove();
      this.controls = data.controls.map((spec) => {
        const made = CONTROLS[spec.kind](spec, (value) => this.sends.submit(spec.field, value, { action: spec.kind === 'button' }));
        made.control.dataset.field = spec.field;
        this.element.insertBefore(made.control, this.note); // the note below: its length never moves a control
        return made;
      });
    }
    this.sends.drawn(Object.fromEntries(data.controls.map((spec) => [spec.field, spec.value])));
    data.controls.forEach((spec, k) => {
      if (!this.sends.holds(spec.field)) this.controls[k].show(spec.value); // else the student's newer choice stays
      const { control, disable } = this.controls[k];
      if (!disable) return;
      const hadFocus = control.getRootNode().activeElement === control; // the root: a notebook cell may be a shadow root
      disable(Boolean(spec.disabled));
      // A button that goes off (Undo with nothing left to undo) would drop the keyboard's focus to the page's body.
      if (hadFocus && spec.disabled) this.element.querySelector('input, select, button:not(:disabled)')?.focus();
    });
  }
}
