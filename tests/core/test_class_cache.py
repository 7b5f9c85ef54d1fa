"""The class-sized cache: a whole class's small states stay in it between two moves; large ones get a few places."""

from dataclasses import dataclass

from attnviz.core.class_cache import CLASS_ROOM, FEW, SMALL_TOKENS, cached_for_a_class


@dataclass(frozen=True)
class State:
    n: int
    student: int


def counting():
    calls = []

    @cached_for_a_class
    def view(state, name):
        calls.append((state, name))
        return (state.student, name)

    return view, calls


def test_sixty_students_current_and_previous_states_of_four_views_all_stay_cached():
    view, calls = counting()
    states = [State(8, student) for student in range(60)] + [State(8, 100 + student) for student in range(60)]
    for state in states:
        for name in ("scores", "scaled", "weights", "output"):
            assert view(state, name) == (state.student, name)
    assert len(calls) == 480 <= CLASS_ROOM
    for state in states:  # every student's next move reads both of its states again: nothing is computed
        for name in ("scores", "scaled", "weights", "output"):
            view(state, name)
    assert len(calls) == 480


def test_large_states_have_a_few_places_of_their_own_and_do_not_push_the_class_out():
    view, calls = counting()
    view(State(SMALL_TOKENS, 1), "weights")
    for student in range(FEW + 1):
        view(State(SMALL_TOKENS + 1, student), "weights")
    view(State(SMALL_TOKENS + 1, FEW), "weights")  # the newest large one is still there
    view(State(SMALL_TOKENS, 1), "weights")  # and so is the small one
    assert len(calls) == 1 + FEW + 1
    view(State(SMALL_TOKENS + 1, 0), "weights")  # the oldest large one made way
    assert len(calls) == 1 + FEW + 2
