"""Figure builders: plain numbers and labels in, plotly figures out. No Streamlit."""
