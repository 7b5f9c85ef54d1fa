"""Every input limit lives in attnviz/core/limits.py: a MAX_ or MIN_ constant anywhere else must be one of the few
that bound what is drawn or how much the server holds, never what a student or a browser may send."""

import ast
from pathlib import Path

import attnviz
from attnviz.core import limits

PACKAGE = Path(attnviz.__file__).parent
NOT_INPUT_LIMITS = {  # name: why it is not an input limit
    "MAX_TERMS": "a formula's terms written out; the rest are summed",
    "MAX_HEADS_DRAWN": "heads drawn as maps; every head is still computed",
    "MAX_OVERVIEW_HEIGHT": "pixels",
    "MIN_LINE_WEIGHT": "lines fainter than this are not drawn",
    "MAX_LINES_DRAWN": "lines of the line view drawn; the faint ones are left out",
    "MAX_LOG_POINTS": "training curve points kept",
    "MAX_UNFINISHED_RUNS": "the training worker's queue",
    "MAX_WAITING": "the model worker's queue",
    "_MAX_KEPT": "sessions the edge remembers for its log",
}


def _module_constants(path: Path) -> set[str]:
    names = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name) and name.id.lstrip("_").startswith(("MAX_", "MIN_")):
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
