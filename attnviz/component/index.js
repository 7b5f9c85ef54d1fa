// A views element's own script (attnviz/component/__init__.py): the data arrives as one JSON text and every
// choice goes back as the one trigger "event" (instrument.js says its shapes). Streamlit sends a component's script in
// every message that draws it, and a page draws views in up to six elements, again on every click: so the instrument
// comes once a page, in an element of the router's (shared.js), and this file is all the script a click carries. The
// two are separate modules, loaded in either order; they meet on the window, under one name.

const HANDOFF = 'attnvizInstrument';

function handoff(scope) {
  scope[HANDOFF] ??= { mount: null, waiting: [] };
  return scope[HANDOFF];
}

// shared.js: the instrument is here; the views that waited for it are drawn now, in the order they came.
export function offer(mount, scope = globalThis) {
  const here = handoff(scope);
  here.mount = mount;
  for (const draw of here.waiting.splice(0)) draw(mount);
}

// ``draw(mount)`` now if the instrument is here, else as soon as it is.
export function whenOffered(draw, scope = globalThis) {
  const here = handoff(scope);
  if (here.mount) draw(here.mount);
  else here.waiting.push(draw);
}

// Every event the instrument sends, as the component's one trigger.
export const toStreamlit = (component) => (event) => component.setTriggerValue('event', event);

export default function drawViewsElement(component) {
  whenOffered((mount) => mount(component.parentElement, JSON.parse(component.data), toStreamlit(component)));
}
