"""Figure builders: plain numbers and labels in; out, cell models for the one matrix component (matrix_view.py),
and plotly figures or ECharts options for line and bar charts. No Streamlit."""
