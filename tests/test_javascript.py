"""The Playground component's JavaScript (attnviz/component): ESLint, its pure functions under Node's own
test runner (tests/js), and the one script bundle.py makes of its ES modules.

Node and the npm packages (`make test` installs them with `npm ci` when npm is here) are needed; without them these
tests skip and say why, except in CI (ATTNVIZ_REQUIRE_NODE=1), where a missing Node is a failure."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from attnviz.component.bundle import bundle

REPO = Path(__file__).resolve().parents[1]
COMPONENT = REPO / "attnviz" / "component"
MAX_MODULE_LINES = 250


def node_or_skip() -> str:
    node = shutil.which("node")
    missing = "Node.js is not installed" if node is None else None
    if missing is None and not (REPO / "node_modules" / ".bin" / "eslint").exists():
        missing = "the npm packages are not installed (run `npm ci`, as `make test` does)"
    if missing:
        if os.environ.get("ATTNVIZ_REQUIRE_NODE") == "1":
            pytest.fail(missing)
        pytest.skip(missing)
    return node


def run(*command: str) -> None:
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_eslint_passes():
    node_or_skip()
    run(str(REPO / "node_modules" / ".bin" / "eslint"), "attnviz/component", "attnviz/ui/keyboard.js", "tests/js", "eslint.config.js")


def test_the_pure_functions_pass_their_node_tests():
    run(node_or_skip(), "--test", "tests/js/")


def test_the_bundle_is_one_valid_module_with_the_entry_last(tmp_path):
    script = tmp_path / "component.mjs"
    script.write_text(bundle(COMPONENT, entry="shared.js"), encoding="utf-8")
    run(node_or_skip(), "--check", str(script))
    text = script.read_text(encoding="utf-8")
    assert text.count("export default function") == 1 and "import " not in text
    assert text.index("const __module_dom") < text.index("const __module_view") < text.index("export default")


def test_a_views_element_carries_only_its_own_small_script(tmp_path):
    """Each views element's script (index.js) is sent with every click: the hand-off and itself, never the instrument,
    which the page's one shared element brings (shared.js)."""
    views, shared = bundle(COMPONENT), bundle(COMPONENT, entry="shared.js")
    assert "__module_" not in views and len(views.encode()) < 2_000 < 60_000 < len(shared.encode())
    (tmp_path / "views.mjs").write_text(views, encoding="utf-8")
    (tmp_path / "shared.mjs").write_text(shared, encoding="utf-8")
    offered = subprocess.run(
        [node_or_skip(), "--input-type=module", "-e", f"""
            const views = await import({str(tmp_path / "views.mjs")!r});
            const drawn = [];
            views.whenOffered((mount) => drawn.push(mount.name));
            await import({str(tmp_path / "shared.mjs")!r});
            console.log(drawn.join())"""],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert offered.stdout.strip() == "mount", offered.stderr  # the page's instrument, loaded second, draws the views


def test_the_notebook_widget_joins_the_same_modules_as_the_page(tmp_path):
    """anywidget's module (attnviz.notebook) is the same files: every module but the entries identical in both
    bundles, and the whole a module Node loads, whose default export has render."""
    page, notebook = bundle(COMPONENT, entry="shared.js"), bundle(COMPONENT, entry="widget.js")
    scoped = dict(re.findall(r"^const __module_(\w+) = (\(\(\) => \{\n.*?\n\}\)\(\);)$", notebook, re.S | re.M))
    assert set(scoped) >= {"instrument", "view", "rail", "paint", "reader", "dom"}
    for name, body in scoped.items():
        assert f"const __module_{name} = {body}" in page  # the same text, module by module: nothing forked
    assert "import " not in notebook and notebook.count("export default {") == 1
    script = tmp_path / "widget.mjs"
    script.write_text(notebook, encoding="utf-8")
    loaded = subprocess.run(
        [node_or_skip(), "--input-type=module", "-e", f"import w from {str(script)!r}; console.log(typeof w.render)"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert loaded.stdout.strip() == "function", loaded.stderr


def test_the_bundler_refuses_what_it_does_not_read(tmp_path):
    (tmp_path / "index.js").write_text("import { a } from './a.js';\nexport default function () { a(); }\n")
    (tmp_path / "a.js").write_text("import { b } from './b.js';\nexport function a() { b(); }\n")
    (tmp_path / "b.js").write_text("import { a } from './a.js';\nexport function b() { a(); }\n")
    with pytest.raises(ValueError, match="import cycle: index → a → b → a"):
        bundle(tmp_path)
    (tmp_path / "b.js").write_text("export { b };\nfunction b() {}\n")
    with pytest.raises(ValueError, match="only `export` before a function, class or const"):
        bundle(tmp_path)


def test_no_module_is_over_250_lines():
    lengths = {path.name: len(path.read_text(encoding="utf-8").splitlines()) for path in COMPONENT.glob("*.js")}
    assert {name: n for name, n in lengths.items() if n > MAX_MODULE_LINES} == {}
