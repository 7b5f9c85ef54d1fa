"""attnviz.notebook in real notebook hosts, driven by Chromium: a JupyterLab server and `marimo run`, each started
here on a free port on a notebook from tests/notebook. In each, a click on *Causal mask* inside the widget must reach
the kernel (the widget's traits) and come back as the causal weights in the reader's table. And a notebook saved with
its widget state, exported to HTML by nbconvert, shows the last views without a kernel. In JupyterLab, 50 values typed
into random cells of the widget's Q, K and V (one at a time, or five down a column as fast as keys go), between toggles
and focus clicks, each land in the cell aimed at, read back from the reader's tables and from the kernel (the traits
and the state), none lost, none elsewhere.

Without JupyterLab or marimo installed these tests skip, unless ATTNVIZ_REQUIRE_BROWSER=1 (CI), where they fail."""

from __future__ import annotations

import importlib.util
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from attnviz.core.numbers import cell_text
from attnviz.core.playground_state import MATRICES
from attnviz.notebook import Playground
from tests.support.live import REPO, free_port

NOTEBOOKS = REPO / "tests" / "notebook"
SHOTS = REPO / "artifacts" / "screenshots"
START_TIMEOUT_S = 300  # a cold JupyterLab on one busy core; the wait ends as soon as the server answers

# The weights of the widget's first screen with the mask on, as Python formats them: what the reader's table must say.
CAUSAL_WEIGHTS = json.loads(Playground(causal=True)._data)["views"][2]
CAUSAL_TEXT = CAUSAL_WEIGHTS["text"]

WEIGHTS_TABLE_JS = """
() => {
  // marimo puts a widget in a shadow root: looked for through every open one
  const find = (root) => root.querySelector('figure[data-view="weights"] table')
    || [...root.querySelectorAll('*')].filter((el) => el.shadowRoot).map((el) => find(el.shadowRoot)).find(Boolean);
  const table = find(document);
  return table?.tBodies[0] ? [...table.tBodies[0].rows].map((row) => [...row.cells].slice(1).map((cell) => cell.textContent)) : [];
}
"""


AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"
AXE_ON_THE_WIDGET_JS = """async (rules) => (await axe.run('.attnviz-instrument', { runOnly: rules })).violations
  .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}) at ${n.target.join(' ')}`))"""


def widget_violations(page) -> list[str]:
    """axe-core's WCAG 2.1 AA violations inside the widget (the host's own chrome is not ours)."""
    if not AXE.exists():
        pytest.skip("axe-core is not installed (run `npm ci`, as `make test` does)")
    page.add_script_tag(path=str(AXE))
    return page.evaluate(AXE_ON_THE_WIDGET_JS, ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])


def switch_theme(page, theme: str) -> None:
    page.locator(".lm-MenuBar-itemLabel", has_text="Settings").click()
    page.locator(".lm-Menu-itemLabel", has_text="Theme").first.hover()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{re.escape(theme)}$")).click()


def missing(reason: str) -> None:
    if os.environ.get("ATTNVIZ_REQUIRE_BROWSER") == "1":
        pytest.fail(f"ATTNVIZ_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
    pytest.skip(reason)


def require(package: str) -> None:
    if importlib.util.find_spec(package) is None:
        missing(f"{package} is not installed (pip install -r requirements-dev.txt)")


@contextmanager
def serving(command: list[str], cwd: Path, ready_url: str, env: dict):
    """Runs ``command`` until the block ends; yields once ``ready_url`` answers 200."""
    log = cwd / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(command, cwd=cwd, env=os.environ | env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"{command[0]} did not start:\n{log.read_text(errors='replace')[-3000:]}", pytrace=False)
            try:
                with urllib.request.urlopen(ready_url, timeout=5) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                time.sleep(0.2)  # polled until it answers: a state, not a duration
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def isolated_env(home: Path, *, theme: str = "JupyterLab Light") -> dict:
    """A JupyterLab of its own: config, runtime, settings (no news pop-up; the theme asked for) and workspaces in
    ``home``; the kernel imports attnviz from this checkout."""
    settings = home / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false", "checkForUpdates": false}')
    (settings / "themes.jupyterlab-settings").write_text(f'{{"theme": "{theme}"}}')
    names = {"JUPYTER_CONFIG_DIR": "config", "JUPYTER_RUNTIME_DIR": "runtime", "JUPYTER_DATA_DIR": "data",
             "JUPYTERLAB_WORKSPACES_DIR": "ws"}  # fmt: skip  (the data dir: no kernel of the user's shadows this venv's)
    return {
        **{name: str(home / folder) for name, folder in names.items()},
        "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
        "IPYTHONDIR": str(home / "ipython"),
        "PYTHONPATH": str(REPO),
    }


def jupyterlab(home: Path, theme: str = "JupyterLab Light"):
    require("jupyterlab")
    shutil.copy(NOTEBOOKS / "playground.ipynb", home)
    port, token = free_port(), "attnviz-test"
    command = [sys.executable, "-m", "jupyterlab", "--allow-root", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
               f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={home}"]  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    return serving(command, home, f"{url}/api/status?token={token}", isolated_env(home, theme=theme)), url, token


def wait_for_connected_kernel(url: str, token: str) -> None:
    """Until the notebook's kernel is idle with the page connected to it: a cell run before would be lost."""
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/api/kernels?token={token}", timeout=5) as answer:
                kernels = json.loads(answer.read())
        except OSError:  # a busy server's 500 while the kernel starts: asked again
            kernels = []
        if any(k["execution_state"] == "idle" and k["connections"] > 0 for k in kernels):
            return
        time.sleep(0.2)  # polled: a state, not a duration
    pytest.fail(f"no kernel connected and idle after {START_TIMEOUT_S} s", pytrace=False)


def run_cell(page, index: int) -> None:
    page.locator(".jp-Notebook .jp-Cell .cm-content").nth(index).click()
    page.keyboard.press("Shift+Enter")


def click_causal_and_read_weights(page) -> list[list[str]]:
    """Waits for the widget's first screen, clicks its *Causal mask* and waits for the reader's table of weights to
    show the causal weights Python computed."""
    page.wait_for_function(f"() => {{ const t = ({WEIGHTS_TABLE_JS})(); return t.length && t[0][0] === '0.08'; }}")
    page.locator('[data-field="causal"] input').click()
    page.wait_for_function(f"() => {{ const t = ({WEIGHTS_TABLE_JS})(); return t.length && t[0][0] === '1.00'; }}")
    return page.evaluate(WEIGHTS_TABLE_JS)


def arrow_keys_read_a_cell(page) -> str:
    """Tab from the weights' PNG button into its canvas (the keyboard's ring starts on the focus row), then one
    ArrowRight: what the live region says."""
    page.locator('figure[data-view="weights"] .attnviz-png').focus()
    page.keyboard.press("Tab")
    page.keyboard.press("ArrowRight")
    said = page.locator('figure[data-view="weights"] .attnviz-sr[aria-live="polite"]')
    row, cols = CAUSAL_WEIGHTS["rows"][4], CAUSAL_WEIGHTS["cols"]
    expected = f"{row} → {cols[1]}: weight {CAUSAL_WEIGHTS['numbers'][4 * len(cols) + 1]}"  # row 4 is the focus
    page.wait_for_function("([el, text]) => el.textContent === text", arg=[said.element_handle(), expected])
    return said.text_content()


def assert_causal(table: list[list[str]]) -> None:
    n = len(table)
    assert [cell for row in table for cell in row] == CAUSAL_TEXT  # exactly the numbers attnviz computed
    assert all(table[i][j] == "0" for i in range(n) for j in range(i + 1, n))  # the upper triangle, masked


@pytest.mark.parametrize(("theme", "scheme"), [("JupyterLab Light", "light"), ("JupyterLab Dark", "dark")])
def test_jupyterlab_causal_mask_click_reaches_the_kernel_and_back(browser, tmp_path, theme, scheme):
    server, url, token = jupyterlab(tmp_path, theme)
    with server:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"{url}/lab/tree/playground.ipynb?token={token}")
        wait_for_connected_kernel(url, token)
        run_cell(page, 0)
        assert_causal(click_causal_and_read_weights(page))
        assert arrow_keys_read_a_cell(page).startswith("4: good → 1: movie: weight ")
        # The widget follows the host's theme: its native controls' scheme, read from JupyterLab's background.
        instrument = page.locator(".attnviz-instrument")
        assert instrument.evaluate("(el) => el.style.colorScheme") == scheme
        assert widget_violations(page) == []
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SHOTS / f"notebook-jupyterlab-{scheme}.png")
        run_cell(page, 1)
        said = page.locator(".jp-OutputArea-output pre", has_text="kernel: causal is")
        said.wait_for()
        assert said.inner_text().strip() == "kernel: causal is True and the state's is True"
        other, flipped = ("JupyterLab Dark", "dark") if scheme == "light" else ("JupyterLab Light", "light")
        switch_theme(page, other)  # while the widget is open: it follows
        page.wait_for_function("([el, s]) => el.style.colorScheme === s", arg=[instrument.element_handle(), flipped])
        page.close()


def test_marimo_causal_mask_click_reaches_the_kernel_and_back(browser, tmp_path):
    require("marimo")
    shutil.copy(NOTEBOOKS / "playground_marimo.py", tmp_path)
    port = free_port()
    command = [sys.executable, "-m", "marimo", "run", "playground_marimo.py", "--headless", "--no-token",
               "--host=127.0.0.1", f"--port={port}"]  # fmt: skip
    with serving(command, tmp_path, f"http://127.0.0.1:{port}/health", {"PYTHONPATH": str(REPO)}):
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"http://127.0.0.1:{port}/")
        said = page.get_by_text("kernel: causal is")
        said.wait_for(timeout=120_000)
        assert said.inner_text().strip() == "kernel: causal is False and the state's is False"
        assert_causal(click_causal_and_read_weights(page))
        assert arrow_keys_read_a_cell(page).startswith("4: good → 1: movie: weight ")
        page.get_by_text("kernel: causal is True").wait_for()  # marimo ran the cell again on the widget's change
        assert said.inner_text().strip() == "kernel: causal is True and the state's is True"
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SHOTS / "notebook-marimo.png")
        page.close()


# Q, K and V of the widget's first screen, as the tables' cells say them: the texts a reader's table must start with.
OPENING_TABLES = {
    name: [[cell_text(v) for v in row] for row in values.tolist()]
    for name, values in zip(MATRICES, Playground().state.matrices(), strict=True)
}
EDITS, BURST = 50, 5  # values typed; of them, in a burst down a column, one burst each 10 values

READER_JS = """
(name) => {
  // an editable view's reader table: each cell's text and its name for a screen reader
  const table = document.querySelector(`figure[data-view="${name}"] table`);
  return table?.tBodies[0] ? [...table.tBodies[0].rows].map((row) => [...row.cells].slice(1)
    .map((cell) => [cell.textContent, cell.getAttribute('aria-label') ?? ''])) : [];
}
"""
READERS_SAY_JS = f"""
(expected) => Object.entries(expected).every(([name, rows]) =>
  JSON.stringify(({READER_JS})(name).map((row) => row.map(([text]) => text))) === JSON.stringify(rows))
"""


def click_cell(page, view: str, i: int, j: int) -> None:
    """A click on cell (i, j) of ``view``'s canvas, where the view laid it out."""
    canvas = page.locator(f'figure[data-view="{view}"] canvas')
    box = json.loads(canvas.get_attribute("data-layout"))
    canvas.click(position={"x": box["left"] + (j + 0.5) * box["cellW"], "y": box["top"] + (i + 0.5) * box["cellH"]})


def type_and_enter(page, text: str) -> None:
    """On a focused view's canvas, the number typed opens the input over the keyboard's cell (.attnviz-cell-input), and
    Enter commits it. Nothing waits for Python: the component queues the edit."""
    page.keyboard.type(text)
    page.keyboard.press("Enter")


def wait_until_echoed_and_read(page, expected: dict, causal: bool) -> None:
    """Every edit echoed (the instrument's pending count 0), each reader's table saying ``expected``, and the weights
    drawn with the mask as last toggled (row 0's second key masked, "0", only with it)."""
    instrument = page.locator(".attnviz-instrument").element_handle()
    page.wait_for_function("(el) => el.dataset.pending === '0'", arg=instrument)
    page.wait_for_function(READERS_SAY_JS, arg=expected)
    page.wait_for_function(f"(causal) => (({WEIGHTS_TABLE_JS})()[0]?.[1] === '0') === causal", arg=causal)


def kernel_matrices(page, read: int) -> dict:
    """Q, K and V as the kernel holds them (the widget's traits and its state's matrices), printed by the notebook's
    third cell: its ``read``-th run."""
    run_cell(page, 2)
    said = page.locator(".jp-OutputArea-output pre", has_text=f"kernel matrices {read} ")
    said.wait_for()
    return json.loads(said.inner_text().split(" ", 3)[3])


def a_value(rng: random.Random, old: str) -> str:
    """A number a student types, as the table then says it (cell_text: "12.5", "-7"), never the cell's own text."""
    while True:
        text = f"{rng.randint(-99, 99)}" + (f".{rng.randint(1, 9)}" if rng.random() < 0.6 else "")
        if text != old and cell_text(float(text)) == text:
            return text


def test_jupyterlab_fifty_values_typed_into_q_k_and_v_land_where_aimed(browser, tmp_path):
    server, url, token = jupyterlab(tmp_path)
    with server:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"{url}/lab/tree/playground.ipynb?token={token}")
        wait_for_connected_kernel(url, token)
        run_cell(page, 0)
        expected = {name: [list(row) for row in rows] for name, rows in OPENING_TABLES.items()}
        wait_until_echoed_and_read(page, expected, causal=False)
        rng, causal, focus, reads, k = random.Random(53), False, Playground().state.focus, 0, 0
        while k < EDITS:
            name = rng.choice(MATRICES)
            height, width = len(expected[name]), len(expected[name][0])
            burst = BURST if k % 10 == 0 else 1  # a burst: numbers typed down a column by keyboard alone
            i, j = rng.randrange(height - burst + 1), rng.randrange(width)
            click_cell(page, name, i, j)
            for row in range(i, i + burst):
                expected[name][row][j] = a_value(rng, expected[name][row][j])
                type_and_enter(page, expected[name][row][j])  # Enter: the keyboard's cell goes down a row
            k += burst
            if k % 10 == 5:  # another move while edits may be on their way: the mask, then a focus click
                page.locator('[data-field="causal"] input').click()
                causal = not causal
            if k % 10 == 8:
                focus = rng.randrange(height)
                click_cell(page, "weights", focus, 0)
            if k % 5 == 0:  # read back: every value where it was aimed, none elsewhere, none lost; the toggle drawn
                wait_until_echoed_and_read(page, expected, causal)
            if k in (EDITS // 2, EDITS):
                reads += 1
                kernel = kernel_matrices(page, reads)
                numbers = [[[float(text) for text in row] for row in expected[name]] for name in MATRICES]
                assert kernel["traits"] == numbers and kernel["state"] == numbers
        rows = Playground().state.labels
        for name in MATRICES:  # each cell named for a screen reader as its input is, with its value
            for i, row in enumerate(page.evaluate(READER_JS, name)):
                for j, (text, said) in enumerate(row):
                    assert said.startswith(f"{name}, row {rows[i]}, dimension {j + 1}") and text in said, said
        # The other moves reached the kernel too: the mask as last toggled, the row last clicked as the focus.
        run_cell(page, 1)
        said = page.locator(".jp-OutputArea-output pre", has_text="kernel: causal is")
        said.wait_for()
        assert said.inner_text().strip() == f"kernel: causal is {causal} and the state's is {causal}"
        assert page.locator('[data-field="focus"] select').evaluate("(s) => s.selectedOptions[0].text") == rows[focus]
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator('figure[data-view="K"]').scroll_into_view_if_needed()  # the tables, as the last value left them
        page.screenshot(path=SHOTS / "notebook-jupyterlab-edits.png")
        page.close()


# What nbconvert's HTML loads from CDNs (require.js, the widgets' HTML manager, anywidget's module), served from the
# locked npm packages: this machine and CI reach no CDN. Anything else it asks for (MathJax) is refused.
NODE_MODULES = REPO / "node_modules"
_CDN = re.compile(r"https://(cdnjs\.cloudflare\.com|unpkg\.com|cdn\.jsdelivr\.net)/.*")
_PACKAGE_FILE = re.compile(r"https://(?:unpkg\.com|cdn\.jsdelivr\.net/npm)/((?:@[^/]+/)?[^@/]+)@[^/]*/(.*)")


def from_node_modules(route) -> None:
    url = route.request.url
    package = _PACKAGE_FILE.match(url)
    path = NODE_MODULES / "requirejs" / "require.js" if url.endswith("/require.min.js") else None
    path = NODE_MODULES / package[1] / package[2] if package else path
    if path is not None and path.is_file():
        route.fulfill(path=str(path), content_type="application/javascript")
    else:
        route.abort()


def test_a_notebook_saved_with_its_widget_state_shows_the_last_views_as_html(browser, tmp_path, monkeypatch):
    """Run in a kernel, the widget drawn, then changed by the next cell; saved with its widget state and exported by
    nbconvert, the HTML (no kernel) shows the views as the last change left them."""
    require("nbconvert")
    if not (NODE_MODULES / "@jupyter-widgets" / "html-manager").is_dir():
        missing("the npm packages are not installed (run `npm ci`, as `make test` does)")
    import nbclient
    import nbformat
    from nbconvert import HTMLExporter

    notebook = nbformat.v4.new_notebook(metadata={"kernelspec": {"name": "python3", "display_name": "Python 3"}})
    cells = ("from attnviz.notebook import Playground\nw = Playground()\nw", "w.causal = True")
    notebook.cells = [nbformat.v4.new_code_cell(code) for code in cells]
    monkeypatch.setenv("PYTHONPATH", str(REPO))  # the kernel imports attnviz from this checkout
    nbclient.NotebookClient(notebook, timeout=120, store_widget_state=True).execute(cwd=str(tmp_path))
    html, _ = HTMLExporter().from_notebook_node(notebook)
    (tmp_path / "export.html").write_text(html, encoding="utf-8")
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.route(_CDN, from_node_modules)
    page.goto((tmp_path / "export.html").as_uri())
    page.wait_for_function(f"() => {{ const t = ({WEIGHTS_TABLE_JS})(); return t.length && t[0][0] === '1.00'; }}")
    assert_causal(page.evaluate(WEIGHTS_TABLE_JS))
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / "notebook-export.png")
    page.close()
