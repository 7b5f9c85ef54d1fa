// The Streamlit v2 component's entry: the data arrives as one JSON text (attnviz/ui/attention_grid/__init__.py)
// and every choice goes back as the one trigger "event" (instrument.js says its shapes).

import { mount } from './instrument.js';

export default function (component) {
  mount(component.parentElement, JSON.parse(component.data), (event) => component.setTriggerValue('event', event));
}
