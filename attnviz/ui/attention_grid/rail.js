// The controls beside the views, drawn by the same component, so that a toggle redraws one element of the page. Each
// control shows the value Python sent for its field (data.controls, built by attnviz/figures/grid_data.py) and
// reports a change with send(field, value); Python checks the value, makes the move and sends the new state back.
// Every piece of text is set as text, never as markup.

import { element, setIfNew } from './dom.js';
import { Sends } from './sends.js';

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

  choice(spec, send) {
    const id = `attnviz-control-${++controlIds}`;
    const select = element('select', { id }, ...spec.options.map((label, i) => element('option', { value: i, textContent: label })));
    const name = element('span', { textContent: spec.label });
    // For the drop-down: the label's first control would be the (i) beside its words.
    const control = element('label', { className: 'attnviz-control attnviz-choice', htmlFor: id }, name, select);
    select.addEventListener('change', () => send(Number(select.value)));
    describe(name, control, select, spec.help);
    return { control, show: (value) => setIfNew(select, 'value', String(value)) };
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
    this.send = null; // set by the instrument on every draw: (field, value) to the newest host callback
    // One change a run (sends.js); data-sending says a change is on its way (tests wait for it to clear).
    this.sends = new Sends((field, value) => this.send(field, value), {
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
