# The marimo notebook tests/e2e/test_notebook.py serves with `marimo run`: the Playground widget, and a line the kernel
# writes from the widget's traits, run again by marimo whenever the widget changes.
import marimo

app = marimo.App(width="full")  # the four views two by two, as in the app


@app.cell
def _():
    import marimo as mo

    from attnviz.notebook import Playground

    w = mo.ui.anywidget(Playground())
    w  # noqa: B018  (marimo shows a cell's last expression)
    return mo, w


@app.cell
def _(mo, w):
    _changed = w.value  # read, so that a change in the widget runs this cell again
    mo.md(f"kernel: causal is {w.widget.causal} and the state's is {w.widget.state.causal}")


if __name__ == "__main__":
    app.run()
