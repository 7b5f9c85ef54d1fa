"""The registry of the app's sentence functions: every public function or method of attnviz.lessons that
returns words (a str, or a list or tuple of them) is one, found by its return annotation, and each is either checked
by a property test over generated states (marked ``@covers(...)``, at least MIN_EXAMPLES of them) or listed below
with the reason it writes nothing from a state. tests/lessons/test_sentence_registry.py holds the two to each other.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections import defaultdict

import attnviz.lessons

MIN_EXAMPLES = 300  # generated states each property test runs at least
PROPERTY_MODULES = (  # the modules whose @covers tests the registry counts
    "tests.lessons.test_sentence_properties",
    "tests.lessons.test_digits_rule",
    "tests.lessons.test_sentence_claims",
    "tests.lessons.test_induction_words",
    "tests.lessons.test_training",
    "tests.lessons.test_lesson_steps",
    "tests.lessons.test_table_words",
    "tests.lessons.test_app_words",
)

# Words that no state changes, or a label no claim rides on: a name, a unit, a fixed option, a timer.
NOT_FROM_A_STATE = {
    "explanations.percent": "a share as a percentage, one decimal: a format, no claim",
    "explanations.view_title": "a view's title from its name, layer and head",
    "geometry.degrees_text": "an angle's degrees, a format",
    "geometry.cos_text": "a cosine, a format",
    "geometry.number_text": "a number, a format",
    "induction.head_name": "a head's name from its layer and number",
    "lesson_steps.cover_label": "a cover choice's label, fixed",
    "multi_head.head_title": "a head's title from its number",
    "predictions.kind_of": "the question kind a class tally counts, a key",
    "predictions.options": "a class's answer options, fixed per question",
    "real_model.model_label": "a model's name from its id or folder",
    "real_model.head_name": "a head's name from its layer and number",
    "real_model.visible_token": "a token as a label (⏎, ⇥, ␣)",
    "real_model.group_names": "the overview's token labels",
    "real_model.kind": "encoder or decoder and its family, from the model's config",
    "real_model.progress_text": "a waiting page's seconds so far",
    "training.percent": "a share as a percentage, a format",
    "training.progress_text": "a run's epoch and seconds so far",
    "training.queue_message": "the queue's place, a count",
    "training.sample_labels": "fixed column labels",
    "training.sample_title": "a table's title",
    "training.sample_help": "a table's help, fixed",
    "induction.progress_text": "a run's step and seconds so far",
    "stages.Walkthrough.dims": "column labels dim 1, dim 2, …",
    "scaling.uniform_text": "log₂ n worked out, for the row length chosen",
    "questions.Question.cover": "the protocol's signature: RowQuestion's and PlaygroundQuestion's are checked",
    "questions.Question.reveal": "the protocol's signature: RowQuestion's and PlaygroundQuestion's are checked",
}

# Sentence functions written from a state that have no property test yet: the work left, listed so that
# nothing new lands unseen. Each one taken off this list needs its @covers test.
PENDING: set[str] = set()

COVERED: dict[str, set[str]] = defaultdict(set)  # "module.function" → the property tests that check it


def name_of(function) -> str:
    """``playground.describe_change``, ``questions.RowQuestion.reveal``: a function's name under attnviz.lessons."""
    return f"{function.__module__.removeprefix('attnviz.lessons.')}.{function.__qualname__}"


TESTS: list = []  # every @covers test, to count its generated states once all its decorators are on


def covers(*functions):
    """Marks a property test as the check of ``functions`` (the registry test checks it runs at least MIN_EXAMPLES
    generated states, whichever order its decorators come in)."""

    def mark(test):
        for function in functions:
            COVERED[name_of(function)].add(test.__name__)
        TESTS.append(test)
        return test

    return mark


def examples_of(test) -> int:
    """How many generated states a hypothesis test runs: its own @settings (hypothesis's record of them)."""
    inner = getattr(test, "hypothesis", None)
    settings = getattr(test, "_hypothesis_internal_use_settings", None)
    if settings is None and inner is not None:
        settings = getattr(inner.inner_test, "_hypothesis_internal_use_settings", None)
    return settings.max_examples if settings is not None else 0


def _says_words(function) -> bool:
    returned = inspect.signature(function).return_annotation
    return isinstance(returned, str) and "str" in returned and "dict" not in returned


def sentence_functions() -> set[str]:
    """Every public function and method of attnviz.lessons that returns words, by name."""
    found = set()
    for info in pkgutil.iter_modules(attnviz.lessons.__path__):
        module = importlib.import_module(f"attnviz.lessons.{info.name}")
        for name, value in vars(module).items():
            if name.startswith("_") or getattr(value, "__module__", None) != module.__name__:
                continue
            if inspect.isfunction(value) and _says_words(value):
                found.add(name_of(value))
            elif inspect.isclass(value):
                found |= {
                    name_of(method)
                    for key, method in vars(value).items()
                    if not key.startswith("_") and inspect.isfunction(method) and _says_words(method)
                }
    return found


def load_property_tests() -> dict[str, set[str]]:
    for module in PROPERTY_MODULES:
        importlib.import_module(module)
    return COVERED
