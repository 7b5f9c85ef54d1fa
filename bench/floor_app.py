"""The floor: the smallest Streamlit app with a toggle, to measure what the framework itself costs per click.

One checkbox redraws one line of text. bench.browser times a click on it to the redrawn text, the same way it times the
Playground's causal toggle to the redrawn weights heatmap.
"""

import streamlit as st

on = st.checkbox("Toggle", key="toggle")
st.markdown(f"The box is **{'on' if on else 'off'}**.")
