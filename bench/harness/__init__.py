"""What the benchmarks and the tests both stand on: a live Streamlit server (server.py), a headless Chromium
(chromium.py), the app driven in Streamlit's AppTest (apptest.py), and a component's trigger as a browser sends it
(triggers.py). The benchmarks import the product and this package, never the tests; the tests import this package.
"""
