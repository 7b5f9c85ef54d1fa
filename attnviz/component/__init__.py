"""The attention-grid component, without Streamlit: the data a host sends it (data.py), its ES modules (the
instrument, the views, the rail, presenter mode's lens) and the one script a host takes of them (bundle.py). Its two
thin hosts are attnviz.ui.attention_grid (a Streamlit element) and attnviz.notebook.host (an anywidget). The cells it
draws come from attnviz.figures.matrix_view, the lens's numbers from attnviz.figures.lens."""
