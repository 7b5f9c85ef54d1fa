"""A pytest plugin for `make mutate` (pyproject.toml's [tool.mutmut] loads it): a mutant is tested by its own area's
fast tests only, so a mutant in the class code does not wait for the maths' properties that happen to call it, and a
run of one area takes minutes (README: Mutation testing). mutmut names the mutant under test in MUTANT_UNDER_TEST;
outside a mutant's run (mutmut's stats, its clean run, a plain pytest) nothing is deselected."""

from __future__ import annotations

import os

AREAS = {  # a mutant's module prefix → the tests that guard it
    "attnviz.core.": ("tests/core/", "tests/lessons/"),
    "attnviz.lessons.": ("tests/core/", "tests/lessons/"),
    "attnviz.classroom.": ("tests/classroom/",),
    "attnviz.playground.": ("tests/classroom/",),
    "attnviz.notebook.": ("tests/notebook/",),
    "attnviz.models.explain.": ("tests/models/test_explain.py", "tests/models/test_explain_observed.py"),
    "attnviz.ui.class_join.": ("tests/app/test_class_join.py", "tests/app/test_class_join_observed.py"),
}


def pytest_collection_modifyitems(config, items):
    mutant = os.environ.get("MUTANT_UNDER_TEST", "")
    tests = next((paths for prefix, paths in AREAS.items() if mutant.startswith(prefix)), None)
    if tests is None:
        return
    kept = [item for item in items if item.nodeid.startswith(tests)]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if item not in kept])
        items[:] = kept
