// The anywidget entry (attnviz/notebook): the same instrument in a notebook cell. Python keeps the component's data in
// the trait "_data" (one JSON text, as the Streamlit host sends it) and redraws by setting it; a control or a click
// comes back as {event, id} (the event as instrument.js sends it; an id unique per page load and event, so the same
// choice twice is still two changes), both as a message, which always arrives (a notebook's widget manager merges a
// trait's changes while the kernel is busy), and as the trait "_event", whose change is what makes marimo rerun its
// cells. Python handles each id once (attnviz/notebook/host.py).

import { mount } from './instrument.js';

// Wires ``model`` (anywidget's: get, set, save_changes, on, off) to ``draw(data, send)``: drawn now and on every new
// "_data". Returns what undoes the wiring.
export function connect(model, draw) {
  let count = 0;
  const prefix = Math.random().toString(36).slice(2, 10);
  const send = (event) => {
    count += 1;
    const sent = { event, id: `${prefix}-${count}` };
    model.send(sent);
    model.set('_event', sent);
    model.save_changes();
  };
  const redraw = () => draw(JSON.parse(model.get('_data')), send);
  redraw();
  model.on('change:_data', redraw);
  return () => model.off('change:_data', redraw);
}

// The component's styles go inside the widget's own element: a marimo or VS Code cell may be a shadow root, which the
// page's styles do not reach.
export function withStyles(el, css) {
  const style = document.createElement('style');
  style.textContent = css;
  el.append(style);
  return el;
}

// Calls ``redraw`` when the host's theme may have changed: JupyterLab and marimo mark it on <html> or <body>, and the
// system's light or dark setting. A page host (Streamlit) redraws a component itself; a notebook cell is never told.
export function followTheme(redraw, root = document) {
  const marks = new MutationObserver(redraw);
  for (const node of [root.documentElement, root.body]) marks.observe(node, { attributes: true });
  const system = matchMedia('(prefers-color-scheme: dark)');
  system.addEventListener('change', redraw);
  return () => { marks.disconnect(); system.removeEventListener('change', redraw); };
}

export default {
  render({ model, el }) {
    withStyles(el, model.get('_grid_css'));
    let last = null;
    const draw = (data, send) => { last = [data, send]; mount(el, data, send); };
    const unhook = connect(model, draw);
    const unfollow = followTheme(() => requestAnimationFrame(() => last && mount(el, ...last))); // after the new styles
    return () => { unhook(); unfollow(); };
  },
};
