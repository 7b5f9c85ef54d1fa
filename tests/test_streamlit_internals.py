"""Every use of a Streamlit internal, listed in one place, each with the test that fails loudly when an upgrade breaks
it. Run by `make test` and so by `make upgrade`: a red test here names the internal and where the project leans on it.

| internal                                                    | used by                                                |
|-------------------------------------------------------------|--------------------------------------------------------|
| ``PagesManager.uses_pages_directory`` (legacy ``pages/``)   | attnviz/ui/__init__.py; tests/app/conftest.py          |
| hidden option ``global.minCachedMessageSize``               | .streamlit/config.toml (the message cache off)         |
| hidden option ``runner.postScriptGC``                       | .streamlit/config.toml (no gc.collect() a rerun)       |
| ``bidi_component.main._make_trigger_id`` and the "events"   | bench/harness/triggers.py (AppTest helper, load client)|
| aggregator of a v2 component                                |                                                        |
| ``AppTest._run(widget_states)`` and ``AppTest._tree``       | tests/support/apptest.py (a v2 component's trigger)    |
| ``SessionState.set_widgets_from_proto`` (where a browser's  | attnviz/ui/edge.py (crafted values refused;            |
| values arrive), ``_new_widget_state``,                      | tests/load/test_attack.py)                             |
| ``WStates.__getitem__`` (where one is decoded),             |                                                        |
| ``Serialized``, ``Value``, how a value is unpacked          |                                                        |
| (``is_array_value_field_name``), ``is_element_id``,         |                                                        |
| ``STREAMLIT_INTERNAL_KEY_PREFIX``, ``DataEditorSerde``      |                                                        |
| the log lines Streamlit writes for a message it refuses     | attnviz/ui/edge.py (one short line each;               |
| and its websocket handler's name                            | tests/load/test_attack.py)                             |
| ``policies.check_session_state_rules``                      | tests/app/test_lesson_settings.py                      |
| ``ScriptRunner._run_script``                                | bench/worst.py, bench/profile.py (timing script runs)  |
| ``StreamlitPage._can_be_called`` (set by st.navigation on   | attnviz/ui/routes.py (pages made once, copied a run)   |
| the chosen page, for one run)                               |                                                        |
| the browser protocol: ``/_stcore/stream``, ``BackMsg``,     | bench/st_client.py (the load client)                   |
| ``ForwardMsg`` fields                                       |                                                        |
| the frontend's DOM: ``data-test-script-state`` on          | attnviz/ui/keyboard.js (a key held while a run is in   |
| ``stApp``, the ``stSkipToContent`` link, ``stButton``,      | flight; the focus a rerun drops; a table's header row  |
| ``stHorizontalBlock``, ``st-key-<key>`` classes,            | does not sort); tests/e2e/test_keyboard_in_flight.py,  |
| ``stDataFrame`` (the data editor's 35 px header row)        | tests/e2e/test_tables.py                               |
| the data grid's ``data-grid-canvas`` and the ``table`` of   | attnviz/ui/keyboard.js (each table's name for readers);|
| role ``grid`` inside it                                     | tests/e2e/test_keyboard_walk.py                        |
| every ``data-testid`` the product's CSS and JS name, and    | attnviz/ui/text.py, lesson_screen.py, presenter.py,    |
| the ``st-key-<key>`` class made of a key (trimmed, other    | lesson_subject.js, keyboard.js (sticky bars, layout,   |
| characters than letters, digits, _ and - made -)            | the keyboard's buttons)                                |

Each is checked for what the project relies on, not just that a name imports; the behaviour behind it is also covered
by the tests named in each assertion's message.
"""

from __future__ import annotations

import inspect

import pytest
from streamlit import config


def broke(internal: str, user: str) -> str:
    return f"Streamlit's internal {internal} changed; {user} relies on it (README: Upgrading)."


@pytest.mark.parametrize(
    ("option", "value"), [("global.minCachedMessageSize", 1e12), ("runner.postScriptGC", False)]
)
def test_the_hidden_options_in_the_config_file_still_exist_and_are_read(option, value):
    try:
        read = config.get_option(option)  # the repository's .streamlit/config.toml (pytest runs from the root)
    except RuntimeError as error:
        pytest.fail(broke(f"option {option}", ".streamlit/config.toml") + f" ({error})")
    assert read == value, broke(f"option {option}", ".streamlit/config.toml")


def test_the_legacy_pages_switch_is_still_a_class_flag():
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.testing.v1 import app_test

    why = broke("PagesManager.uses_pages_directory", "attnviz/ui/__init__.py (tests/app/test_router.py)")
    assert "uses_pages_directory" in vars(PagesManager), why
    assert app_test.PagesManager is PagesManager, broke("app_test.PagesManager", "tests/app/conftest.py")


def test_a_v2_component_trigger_id_is_still_made_the_same_way():
    from streamlit.components.v2.bidi_component.main import _make_trigger_id

    why = broke("_make_trigger_id", "bench/harness/triggers.py (every Playground control test, the load client)")
    assert _make_trigger_id("$$ID-abc", "events") == "$$STREAMLIT_INTERNAL_KEY_$$ID-abc__events", why


def test_apptest_still_runs_with_given_widget_states():
    from streamlit.testing.v1 import AppTest

    parameters = list(inspect.signature(AppTest._run).parameters)
    assert parameters[:2] == ["self", "widget_state"], broke("AppTest._run", "tests/support/apptest.py use_control")
    assert hasattr(AppTest.from_string("import streamlit"), "_tree"), broke("AppTest._tree", "tests/support/apptest.py")


def test_the_session_state_rule_check_keeps_its_signature():
    from streamlit.elements.lib import policies

    parameters = list(inspect.signature(policies.check_session_state_rules).parameters)
    assert parameters == ["default_value", "key", "writes_allowed"], broke(
        "policies.check_session_state_rules", "tests/app/test_lesson_settings.py"
    )


def test_the_script_runner_still_runs_a_script_in_one_method():
    from streamlit.runtime.scriptrunner import script_runner

    parameters = list(inspect.signature(script_runner.ScriptRunner._run_script).parameters)
    assert parameters == ["self", "rerun_data"], broke("ScriptRunner._run_script", "bench/worst.py, bench/profile.py")


def test_the_browser_protocol_still_has_the_fields_the_load_client_uses():
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    why = broke("BackMsg/ForwardMsg", "bench/st_client.py (make load, tests/load)")
    rerun = BackMsg().rerun_script
    assert {"widget_states", "fragment_id", "page_script_hash", "query_string"} <= set(rerun.DESCRIPTOR.fields_by_name), why
    assert {"delta", "script_finished", "ref_hash", "metadata"} <= set(ForwardMsg.DESCRIPTOR.fields_by_name), why
    from streamlit.proto.Element_pb2 import Element

    texts = Element()  # the class question's code and link are read from a markdown and a code block
    assert "body" in texts.markdown.DESCRIPTOR.fields_by_name and "code_text" in texts.code.DESCRIPTOR.fields_by_name, why


def test_every_widget_value_still_arrives_and_is_decoded_where_the_edge_checks_it():
    from streamlit.proto.WidgetStates_pb2 import WidgetState, WidgetStates
    from streamlit.runtime.state.common import WidgetMetadata
    from streamlit.runtime.state.session_state import SessionState, Value

    from attnviz.ui.edge import guard_the_edge

    guard_the_edge()
    why = broke("SessionState.set_widgets_from_proto or WStates.__getitem__", "attnviz/ui/edge.py (tests/load)")
    session = SessionState()
    table = "$$ID-0-table"
    session._new_widget_state.set_widget_metadata(
        WidgetMetadata(table, lambda value: value or {}, lambda value: value, "json_value")
    )
    crafted = [WidgetState(id="w0", int_value=1), WidgetState(id=table, json_value="[" * 100_000 + "]" * 100_000)]
    session.set_widgets_from_proto(WidgetStates(widgets=crafted))
    assert dict(session._new_widget_state.states) == {}, why  # both refused as they arrived
    new_widget = WidgetState(id=table, json_value="[" * 100_000 + "]" * 100_000)
    session._new_widget_state.states.clear()
    session._new_widget_state.set_widget_from_proto(new_widget)  # as a widget not drawn yet holds it
    assert session._new_widget_state[table] == {} and session._new_widget_state.states[table] == Value({}), why


def test_the_edge_unpacks_a_value_as_streamlit_does():
    from streamlit.proto.WidgetStates_pb2 import WidgetState
    from streamlit.runtime.state.common import unpack_widget_state_value

    from attnviz.ui.edge import _unpacked

    states = [
        WidgetState(id="w", json_value='{"a": [1]}'),
        WidgetState(id="w", string_value="x"),
        WidgetState(id="w", double_array_value={"data": [1.5]}),
        WidgetState(id="w", string_trigger_value={"data": "t"}),
        WidgetState(id="w", bool_value=True),
        WidgetState(id="w"),
    ]
    for state in states:
        assert _unpacked(state) == unpack_widget_state_value(state), broke(
            "unpack_widget_state_value", "attnviz/ui/edge.py _unpacked (every value checked as it arrives)"
        )


def test_the_table_still_decodes_through_an_object_the_edge_reads():
    from streamlit.elements.widgets.data_editor import DataEditorSerde

    state = DataEditorSerde().deserialize('{"edited_rows": {"0": {"q1": "2"}}}')
    assert state == {"edited_rows": {0: {"q1": "2"}}, "added_rows": [], "deleted_rows": []}, broke(
        "DataEditorSerde", "attnviz/ui/edge.py (a table's edits checked)"
    )


def test_streamlit_still_writes_the_lines_the_edge_shortens():
    from streamlit.runtime import app_session
    from streamlit.runtime.state import query_params
    from streamlit.web.server.starlette import starlette_websocket

    from attnviz.ui import edge

    why = broke("a log line about a refused message", "attnviz/ui/edge.py _STREAMLIT_REFUSALS (tests/load)")
    for module in (app_session, query_params, starlette_websocket):
        assert module.__name__ in edge._STREAMLIT_REFUSALS, why
        assert all(said in inspect.getsource(module) for said in edge._STREAMLIT_REFUSALS[module.__name__]), why
    assert f"def {edge._WEBSOCKET_HANDLER}(" in inspect.getsource(starlette_websocket), why


def test_a_page_is_marked_runnable_per_object_so_a_copy_per_run_keeps_sessions_apart():
    from streamlit.navigation.page import StreamlitPage

    why = broke("StreamlitPage._can_be_called", "attnviz/ui/routes.py (tests/app/test_router.py)")
    assert "self._can_be_called = False" in inspect.getsource(StreamlitPage.run), why


def frontend_bundle(files: str) -> str:
    """The text of Streamlit's frontend scripts named like ``files``."""
    from pathlib import Path

    import streamlit

    folder = Path(streamlit.__file__).parent / "static" / "static" / "js"
    return "".join(path.read_text(encoding="utf-8", errors="ignore") for path in folder.glob(files))


def test_the_frontend_still_marks_what_the_keyboard_helpers_read():
    """keyboard.js reads the script's state from stApp's attribute, skips Streamlit's skip link and finds a button
    again by its widget's ``st-key-`` class: each still appears in Streamlit's frontend bundle."""
    bundle = frontend_bundle("*.js")
    hooks = ("data-test-script-state", "stSkipToContent", "stButton", "stHorizontalBlock", "st-key-", "running", "stDataFrame")
    for hook in hooks:
        assert hook in bundle, broke(f"DOM hook {hook!r}", "attnviz/ui/keyboard.js")


def _product_sources(*suffixes: str) -> list:
    from pathlib import Path

    repo = Path(__file__).resolve().parents[1]
    python = [repo / "app.py", *(repo / "pages").glob("*.py"), *(repo / "attnviz").rglob("*.py")]
    return python + [path for suffix in suffixes for path in (repo / "attnviz").rglob(f"*.{suffix}")]


def _keys_the_app_gives() -> set[str]:
    """Every text a ``key=`` argument in the product can be, or begin with: its literals (an f-string's opening part),
    and the module constants it names."""
    import ast

    trees = [ast.parse(path.read_text(encoding="utf-8")) for path in _product_sources()]
    constants = {}
    for node in (node for tree in trees for node in ast.walk(tree)):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            constants.update({target.id: node.value.value for target in node.targets if isinstance(target, ast.Name)})
    keys = set()
    for keyword in (node for tree in trees for node in ast.walk(tree) if isinstance(node, ast.keyword)):
        for part in ast.walk(keyword.value) if keyword.arg == "key" else ():
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                keys.add(part.value)
            named = getattr(part, "id", None) or getattr(part, "attr", None)
            if named in constants:
                keys.add(constants[named])
    return keys


def test_every_data_testid_the_product_styles_or_reads_is_still_in_streamlits_frontend():
    """The app's CSS and JS find Streamlit's elements by their ``data-testid`` (stLayoutWrapper, stColumn, …). Every
    one named in the product's code, found by scanning it, must still be in the frontend bundle: a renamed test id
    would silently unstyle a sticky bar or lose a keyboard hook."""
    import re

    bundle = frontend_bundle("*.js")
    named = {
        testid: "/".join(path.parts[-2:])
        for path in _product_sources("js", "css")
        for testid in re.findall(r'data-testid=\\?"?(st[A-Za-z]+)', path.read_text(encoding="utf-8"))
    }
    assert len(named) >= 15  # the scan finds what the product uses (stApp, stMain, stLayoutWrapper, …)
    for testid, where in sorted(named.items()):
        assert re.search(f"[`\"']{testid}[`\"']", bundle), broke(f"the data-testid {testid!r}", where)


def test_every_st_key_class_the_product_styles_or_reads_is_made_from_a_key_the_app_gives():
    """The app's CSS and JS find its own containers by the class Streamlit makes of a widget's or a container's key,
    ``st-key-`` and the key trimmed, any character but a letter, a digit, _ or - made a -: that rule must still be
    in the frontend bundle, and every ``.st-key-…`` the product names must be a key it gives (a renamed key would
    silently unstyle a sticky bar or lose the keyboard's hold on a button)."""
    import re

    rule = re.search(r"`st-key-`\+\w+\.trim\(\)\.replaceAll\(/\[\^a-zA-Z0-9_-\]/g,`-`\)", frontend_bundle("*.js"))
    assert rule, broke("the st-key-<key> class a keyed element gets", "attnviz/ui/text.py, lesson_screen.py, keyboard.js")
    classes = {re.sub(r"[^a-zA-Z0-9_-]", "-", key.strip()) for key in _keys_the_app_gives()}
    styled = {
        name: "/".join(path.parts[-2:])
        for path in _product_sources("js", "css")
        for name in re.findall(r"st-key-([A-Za-z0-9_-]+)", path.read_text(encoding="utf-8"))
    }
    assert len(styled) >= 15  # the scan finds what the product styles (lesson_bar, challenge_bar, keyboard, …)
    not_made = {  # a name ending in - is a prefix ([class*="st-key-named-table-"]): some key must begin with it
        name: where
        for name, where in styled.items()
        if not any(made == name or (name.endswith("-") and made.startswith(name)) for made in classes)
    }
    assert not_made == {}


def test_apptest_still_runs_a_page_alone_after_its_first_run_where_there_is_a_pages_folder(tmp_path):
    """The smallest reproduction of why tests/app/conftest.py installs RouterAlreadyRan (README: Tests): AppTest
    resets the legacy pages/ switch before each run, so its second run runs the page's file without app.py."""
    from streamlit.testing.v1 import AppTest

    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "other.py").write_text('import streamlit as st\nst.write("the page")\n', encoding="utf-8")
    (tmp_path / "app.py").write_text(
        'import streamlit as st\nst.write("the router")\nst.navigation([st.Page("pages/other.py")]).run()\n',
        encoding="utf-8",
    )
    at = AppTest.from_file(str(tmp_path / "app.py"))
    first = [markdown.value for markdown in at.run().markdown]
    second = [markdown.value for markdown in at.run().markdown]
    why = broke("AppTest's legacy pages/ mode on every run", "tests/app/conftest.py (RouterAlreadyRan): delete it")
    assert first == ["the router", "the page"] and second == ["the page"], why


def test_the_data_grid_is_still_a_canvas_holding_a_grid_table_that_keyboard_js_names():
    """keyboard.js names each data grid (attnviz.ui.text.named_table) by its canvas, ``data-grid-canvas``, and the
    ``table`` of role ``grid`` the canvas holds for readers (tests/e2e/test_keyboard_walk.py checks the names)."""
    bundle = frontend_bundle("DataFrame.*.js")
    for hook in ("data-grid-canvas", "createElement(`table`,{key:`access-tree`,role:`grid`"):
        assert hook in bundle, broke(f"DOM hook {hook!r}", "attnviz/ui/keyboard.js (the tables' names)")
