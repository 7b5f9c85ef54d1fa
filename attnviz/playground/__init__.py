"""The Playground's model, plain Python and without Streamlit: its session (state, undo, predictions, the one handler
of an event), the table of its fields (controls beside the views, settings above them), each field's check, and the
data its four views and their rail are drawn from. Hosts: attnviz.ui.playground_host (Streamlit) and
attnviz.notebook."""
