"""Every sentence function has a property test: the registry (tests/lessons/sentence_registry.py) against
attnviz.lessons as it is. A new function that returns words fails here until a @covers test checks it over generated
states, or it is listed as writing nothing from a state."""

import sys

from tests.lessons.sentence_registry import (
    MIN_EXAMPLES,
    NOT_FROM_A_STATE,
    PENDING,
    TESTS,
    examples_of,
    load_property_tests,
    sentence_functions,
)


def test_every_sentence_function_has_a_property_test():
    covered = load_property_tests()
    missing = sentence_functions() - set(covered) - set(NOT_FROM_A_STATE) - PENDING
    assert not missing, f"sentence functions with no property test: {sorted(missing)}"


def test_the_registry_names_only_functions_that_exist_and_each_once():
    covered, found = set(load_property_tests()), sentence_functions()
    listed = [covered, set(NOT_FROM_A_STATE), PENDING]
    assert all(names <= found for names in listed), [sorted(names - found) for names in listed]
    assert not (covered & set(NOT_FROM_A_STATE)) and not (covered & PENDING) and not (PENDING & set(NOT_FROM_A_STATE))


def test_each_property_test_runs_at_least_300_generated_states():
    load_property_tests()
    for marked in TESTS:  # the test as its module holds it: every decorator on
        test = getattr(sys.modules[marked.__module__], marked.__name__)
        assert examples_of(test) >= MIN_EXAMPLES, f"{marked.__name__} runs {examples_of(test)} generated states"
