import streamlit as st

st.write("Coming soon.")
