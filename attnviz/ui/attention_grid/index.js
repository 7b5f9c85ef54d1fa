// The Streamlit v2 component's entry: the data arrives as one JSON text (attnviz/ui/attention_grid/__init__.py)
// and every choice goes back as the one trigger "event" (instrument.js says its shapes).

import { mount } from './instrument.js';

// Every event the instrument sends, as the component's one trigger.
export const toStreamlit = (component) => (event) => component.setTriggerValue('event', event);

export default function (component) {
  mount(component.parentElement, JSON.parse(component.data), toStreamlit(component));
}
