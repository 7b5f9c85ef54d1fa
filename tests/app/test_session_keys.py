"""Each feature keeps its own keys of st.session_state: a widget key or a kept object's key is written as a string
in one module only, its feature's (a page passes through that module's function or constant), pages never touch
st.session_state, and after a walk through every page the session holds the known typed objects and widget values
only."""

from __future__ import annotations

import ast
from pathlib import Path

from attnviz.lessons.challenges import CHALLENGES
from attnviz.pages import PAGES, page_named
from attnviz.playground.session import Session
from attnviz.ui.challenges import TRIED, Tried
from attnviz.ui.class_join import BOX, CLASS, Joined
from attnviz.ui.class_question import ASKING, Asking
from attnviz.ui.lesson_plan import LESSON, Lesson
from attnviz.ui.model_runs import OPENED, Opened
from attnviz.ui.playground_host import PLAYGROUND
from attnviz.ui.presenter import PRESENTER
from attnviz.ui.state import CHOSEN, SAID, TABLE_MESSAGES, TABLE_VERSION, VIEWS, VISIT, Chosen, Said, Visit
from attnviz.ui.training_run import RUNS, Runs
from tests.app.test_lesson_plans import present_ready
from tests.support.apptest import open_app, use_control

REPO = Path(__file__).resolve().parents[2]
STATE = REPO / "attnviz" / "ui" / "state.py"
SCANNED = sorted([REPO / "app.py", *(REPO / "pages").glob("*.py"), *(REPO / "attnviz" / "ui").glob("*.py")])
# Every object kept under a key of its own, by its key: the features' and state.py's own.
TYPED = {
    PLAYGROUND: Session,
    RUNS: Runs,
    TRIED: Tried,
    CLASS: Joined,
    ASKING: Asking,
    LESSON: Lesson,
    OPENED: Opened,
    SAID: Said,
    VISIT: Visit,
    CHOSEN: Chosen,
    TABLE_VERSION: int,
    TABLE_MESSAGES: list,
    PRESENTER: bool,  # presenter mode's switch, a widget whose value outlives a page switch
}


def _is_session_state(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "session_state"


def _key_expressions(tree: ast.AST):
    """(how the key is used, its expression) for every key of a widget (``key=``, ``{"key": …}``, or what a function
    named ``…_key`` or ``…_key_at`` returns) or of st.session_state (a subscript, ``get``, ``pop``, ``setdefault``,
    ``in``) in ``tree``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            yield from (("widget", v) for k, v in zip(node.keys, node.values, strict=True) if _is_text(k, "key"))
        elif isinstance(node, ast.FunctionDef) and node.name.endswith(("_key", "_key_at")):
            yield from (("widget", r.value) for r in ast.walk(node) if isinstance(r, ast.Return) and r.value)
        elif isinstance(node, ast.Call):
            yield from (("widget", k.value) for k in node.keywords if k.arg == "key")
            func = node.func
            if isinstance(func, ast.Attribute) and _is_session_state(func.value) and node.args:
                yield "state", node.args[0]
        elif isinstance(node, ast.Subscript) and _is_session_state(node.value):
            yield "state", node.slice
        elif isinstance(node, ast.Compare) and any(_is_session_state(c) for c in node.comparators):
            yield "state", node.left


def _ui_modules(tree: ast.Module) -> dict[str, Path]:
    """The names a module gives the modules of attnviz.ui it imports (``from attnviz.ui import state``), with
    their files."""
    found = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "attnviz.ui":
            found.update(
                {alias.asname or alias.name: REPO / "attnviz" / "ui" / f"{alias.name}.py" for alias in node.names}
            )
    return found


def _is_text(node: ast.AST | None, text: str) -> bool:
    return isinstance(node, ast.Constant) and node.value == text


def _constants(tree: ast.Module) -> dict[str, str]:
    """A module's top-level ``NAME = "text"``."""
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            found.update({target.id: node.value.value for target in node.targets if isinstance(target, ast.Name)})
    return found


def _written(expression: ast.AST, constants: dict[str, str]) -> str | None:
    """The text a key expression writes in its own module: a literal, the literal head of an f-string or of a sum, or
    one of the module's own constants. None for a name passed in, or another module's constant (``state.VIEWS``):
    the text is written where that name is."""
    if isinstance(expression, ast.Constant) and isinstance(expression.value, str):
        return expression.value
    if isinstance(expression, ast.JoinedStr) and expression.values:
        return _written(expression.values[0], constants)
    if isinstance(expression, ast.FormattedValue):
        return _written(expression.value, constants)
    if isinstance(expression, ast.BinOp):
        return _written(expression.left, constants)
    if isinstance(expression, ast.Name):
        return constants.get(expression.id)
    return None


def key_texts(files=SCANNED) -> dict[str, dict[str, set[str]]]:
    """Each key text written, by kind ("widget" or "state"), with the modules that write it."""
    texts: dict[str, dict[str, set[str]]] = {"widget": {}, "state": {}}
    for file in files:
        tree = ast.parse(file.read_text(encoding="utf-8"))
        constants = _constants(tree)
        modules = _ui_modules(tree)
        for kind, expression in _key_expressions(tree):
            owner = file
            if isinstance(expression, ast.Attribute) and isinstance(expression.value, ast.Name):
                owner = modules.get(expression.value.id, file)  # another module's constant: written there
                expression = ast.Name(expression.attr) if owner != file else expression
                constants_there = _constants(ast.parse(owner.read_text(encoding="utf-8"))) if owner != file else {}
            else:
                constants_there = constants
            if (text := _written(expression, constants_there)) is not None:
                texts[kind].setdefault(text, set()).add(owner.name if owner.parent.name == "pages" else str(owner))
    return texts


def test_every_key_is_written_in_its_features_module_only():
    """A key written again in another module ("class.join" in a page, "lesson" in class_join.py) is a second owner:
    the page, or the other feature, must call the feature's own function or name its constant."""
    texts = key_texts()
    owners: dict[str, set[str]] = {}
    for by_text in texts.values():
        for text, files in by_text.items():
            owners.setdefault(text, set()).update(files)
    shared = {text: sorted(files) for text, files in owners.items() if len(files) > 1}
    assert not shared, f"keys written in more than one module: {shared}"
    assert len(owners) > 60  # the scan finds the app's keys (a broken scan would pass with none)


def test_the_session_s_keys_are_the_typed_objects_and_state_py_keeps_only_its_own():
    """A key of st.session_state written with no object of its own type (``st.session_state["lesson.moved"]``) is a
    generic store again: it fails here until it is a field of its feature's object. state.py writes the keys of what
    no feature keeps (messages said once, this session's flags, tab bars, tables, page settings) and the Playground's
    widget prefix and views, whose host is attnviz.ui.playground_host."""
    texts = key_texts()
    widgets = set(texts["widget"])  # a widget's value, set by its feature (presenter mode's switch among them)
    assert set(texts["state"]) - widgets == set(TYPED) - widgets
    in_state = {text for by_text in texts.values() for text, files in by_text.items() if str(STATE) in files}
    assert in_state == {SAID, VISIT, CHOSEN, TABLE_MESSAGES, TABLE_VERSION, "tabs.", "table.", "setting.", "pg.", VIEWS}


def test_pages_never_touch_session_state():
    for file in (REPO / "pages").glob("*.py"):
        tree = ast.parse(file.read_text(encoding="utf-8"))
        assert not any(_is_session_state(node) for node in ast.walk(tree)), file.name


def test_the_scan_catches_a_key_written_outside_its_feature(tmp_path):
    """The scan itself: a page that writes the class code box's key, or reads a feature's object by its text."""
    page = tmp_path / "page.py"
    page.write_text(f'st.text_input("Code", key="{BOX}")\nst.session_state["{LESSON}"]\n', encoding="utf-8")
    texts = key_texts([*SCANNED, page])
    assert len(texts["widget"][BOX]) == 2 and len(texts["state"][LESSON]) == 2


def _walk():
    """Every page, with each feature used once: a lesson presented and asked to the class, a student who joins it, a
    challenge tried, predict mode on the Playground."""
    teacher = present_ready("Attention in 15 minutes")
    teacher.button(key="lesson.ask").click().run()
    at = open_app()
    use_control(at, "predict", "most")
    at.text_input(key=BOX).input(teacher.session_state[ASKING].code).run()
    for page in PAGES:
        at.switch_page(page.file).run(timeout=60)
        assert not at.exception, page.name
    at.switch_page(page_named("challenges").file).run()
    at.button(key=f"challenge.{next(iter(CHALLENGES))}").click().run()
    return teacher, at


def test_after_a_walk_through_every_page_the_session_holds_typed_objects_and_widget_values_only():
    walked = _walk()
    widgets = tuple(key_texts()["widget"])
    for at in walked:
        for key in at.session_state:
            if key in TYPED:
                assert isinstance(at.session_state[key], TYPED[key]), key
            else:
                assert str(key).startswith(widgets), f"{key!r} is neither a known typed key nor a widget's"
    teacher, student = walked
    assert teacher.session_state[LESSON].run is not None and student.session_state[CLASS].code is not None
    assert student.session_state[TRIED].active is not None
