// The Streamlit v2 component's entry: the data arrives as one JSON text (attnviz/ui/attention_grid/__init__.py)
// and a choice goes back as a trigger.

import { mount } from './instrument.js';

export default function (component) {
  mount(component.parentElement, JSON.parse(component.data), component.setTriggerValue);
}
