"""bench/ stands on the product and its own harness, never on the tests, and its modules import each other without
a cycle: read from the source with ast, so a lazy import inside a function counts too."""

import ast
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def imports_of(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def module_name(path: Path) -> str:
    parts = path.relative_to(BENCH.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): imports_of(path) for path in BENCH.rglob("*.py")}


def test_no_bench_module_imports_the_tests():
    leaning = {
        name: sorted(i for i in imported if i == "tests" or i.startswith("tests."))
        for name, imported in MODULES.items()
    }
    assert {name: found for name, found in leaning.items() if found} == {}


def test_bench_modules_import_each_other_without_a_cycle():
    graph = {name: {i for i in imported if i in MODULES and i != name} for name, imported in MODULES.items()}
    done, path = set(), []

    def visit(name: str) -> None:
        assert name not in path, f"import cycle: {' → '.join([*path[path.index(name) :], name])}"
        if name in done:
            return
        path.append(name)
        for imported in graph[name]:
            visit(imported)
        path.pop()
        done.add(name)

    for name in graph:
        visit(name)


# Streamlit scripts (run by ``streamlit run``, not imported) and the entry point.
SCRIPTS = {"bench.floor_app", "bench.chart_floor_app", "bench.__main__"}
IMPORT_ALL_WITHOUT_TESTS = """
import importlib, sys

class NoTests:
    def find_spec(self, name, path=None, target=None):
        if name == "tests" or name.startswith("tests."):
            raise ImportError(f"bench imported {name}")

sys.meta_path.insert(0, NoTests())
for module in sys.argv[1:]:
    importlib.import_module(module)
"""


def test_every_bench_module_imports_with_the_tests_out_of_reach():
    """What the ast test above cannot see: a module that fails to import at all, or reaches the tests through
    another package. One interpreter, in which any import of ``tests`` fails."""
    modules = sorted(set(MODULES) - SCRIPTS)
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL_WITHOUT_TESTS, *modules],
        cwd=BENCH.parent,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
