"""Helpers the tests and the benchmarks share: driving the app in AppTest (``apptest``) and in a browser (``live``)."""
