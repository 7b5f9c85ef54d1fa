"""Every input limit lives in attnviz/core/limits.py and is used from there: a MAX_, MIN_ or _LIMIT constant anywhere
else must be one of the few that bound what is drawn or how much the server keeps, never what a student, a browser or
a link may send; no check or widget bounds a value by a number written in place."""

import ast
from pathlib import Path

import attnviz
from attnviz.core import limits

PACKAGE = Path(attnviz.__file__).parent
PRODUCT = sorted([*PACKAGE.rglob("*.py"), *(PACKAGE.parent / "pages").glob("*.py"), PACKAGE.parent / "app.py"])
NOT_INPUT_LIMITS = {  # name: why it is not an input limit
    "MAX_TERMS": "a formula's terms written out; the rest are summed",
    "MAX_HEADS_DRAWN": "heads drawn as maps; every head is still computed",
    "MAX_OVERVIEW_HEIGHT": "pixels",
    "MIN_LINE_WEIGHT": "lines fainter than this are not drawn",
    "MAX_LINES_DRAWN": "lines of the line view drawn; the faint ones are left out",
    "_MAX_KEPT": "sessions the edge remembers for its log",
    "TEXT_LIMIT": "rows or columns whose cells are written in; hover still tells every number",
    "CHANGED_LIMIT": "changed cells boxed on a large matrix",
    "WRITE_OUT_LIMIT": "dimensions a dot product is written out term by term",
    "COMPARISON_LIMIT": "tokens up to which the step-by-step page draws the other choice too",
}
# Calls whose numeric arguments are bounds: a link's checks, a training setting's, and Streamlit's widgets.
BOUNDED_CALLS = {"whole", "_whole_number", "slider", "number_input", "select_slider", "text_input", "text_area"}


def _is_limit_name(name: str) -> bool:
    return name.lstrip("_").startswith(("MAX_", "MIN_")) or name.endswith("_LIMIT")


def _module_constants(path: Path) -> set[str]:
    names = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name) and _is_limit_name(name.id):
                    names.add(name.id)
    return names


def test_no_input_limit_is_defined_outside_limits_py():
    elsewhere = {
        name: path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if path != Path(limits.__file__)
        for name in _module_constants(path)
    }
    assert set(elsewhere) == set(NOT_INPUT_LIMITS), elsewhere


def test_the_upload_limit_is_what_a_lesson_file_needs():
    config = (PACKAGE.parent / ".streamlit" / "config.toml").read_text(encoding="utf-8")
    megabytes = next(int(line.split("=")[1]) for line in config.splitlines() if line.startswith("maxUploadSize"))
    assert megabytes * 2**20 >= limits.MAX_LESSON_FILE_BYTES  # a lesson file is read whole, as bytes


def _called(call: ast.Call) -> str:
    """The name a call is known by, seeing through ``partial(check.whole, ...)``."""
    func = call.args[0] if getattr(call.func, "id", None) == "partial" and call.args else call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _numbers_in_place(call: ast.Call) -> list:
    bounds = [*call.args, *(kw.value for kw in call.keywords if kw.arg in ("low", "high", "max_chars"))]
    return [
        arg.value
        for arg in bounds
        if isinstance(arg, ast.Constant) and type(arg.value) in (int, float) and arg.value not in (0, 1)
    ]  # 0 and 1: a count's or a position's own bounds, not a limit anyone chose


def _where(find) -> dict[str, list]:
    """``find(tree)``'s findings in every product file that has any, by the file's path."""
    found = {path.relative_to(PACKAGE.parent).as_posix(): find(ast.parse(path.read_text("utf-8"))) for path in PRODUCT}
    return {path: findings for path, findings in found.items() if findings}


def test_no_check_or_widget_is_bounded_by_a_number_written_in_place():
    def written(tree) -> list:
        return [
            (node.lineno, _called(node), _numbers_in_place(node))
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and (_called(node) in BOUNDED_CALLS or any(kw.arg == "max_chars" for kw in node.keywords))
            and _numbers_in_place(node)
        ]

    assert _where(written) == {}


def test_every_limit_is_used_from_limits_py():
    """Not through another module that happens to import it; the models' public API (``attnviz.models``) names the
    two limits a model holds to, for a notebook."""
    limit_names = {name for name in vars(limits) if name.isupper()}

    def elsewhere(tree) -> list:
        found = []
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module not in ("attnviz.core.limits", "attnviz.models"):
                found += [(node.lineno, alias.name) for alias in node.names if alias.name in limit_names]
            if isinstance(node, ast.Attribute) and node.attr in limit_names and getattr(node.value, "id", "") != "limits":
                found.append((node.lineno, ast.unparse(node)))
        return found

    assert _where(elsewhere) == {}
