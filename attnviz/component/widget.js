// The anywidget entry (attnviz/notebook): the same instrument in a notebook cell. Python keeps the component's data in
// the trait "_data" (one JSON text, as the Streamlit host sends it) and redraws by setting it; a control or a click
// comes back as the trait "_event", {event, count} (the event as instrument.js sends it): a count, so the same choice
// twice is still two changes.

import { mount } from './instrument.js';

// Wires ``model`` (anywidget's: get, set, save_changes, on, off) to ``draw(data, send)``: drawn now and on every new
// "_data". Returns what undoes the wiring.
export function connect(model, draw) {
  let count = 0;
  const send = (event) => {
    count += 1;
    model.set('_event', { event, count });
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
