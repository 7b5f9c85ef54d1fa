"""The worst-moves table covers every page, at the limits the app really allows."""

from attnviz.core.limits import MAX_DIM, MAX_TOKENS
from attnviz.pages import PAGE_NAMES
from bench.worst_moves import AT_LIMITS, PENDING, long_sentence, moves


def test_every_page_has_a_worst_move_or_a_named_hook():
    measured = {move.page for move in moves() if not move.floor}
    missing = set(PAGE_NAMES) - measured
    assert not missing, (
        f"pages without a worst move: {sorted(missing)}; add them to bench.worst_moves.moves() "
        f"(or fill in one of its hooks: {', '.join(hook.__name__ for hook in PENDING.values())})"
    )


def test_the_moves_are_made_at_the_limits():
    assert AT_LIMITS.n == MAX_TOKENS and AT_LIMITS.d_k == AT_LIMITS.d_v == MAX_DIM
    assert len(long_sentence(MAX_TOKENS + 1).split(" ", 1)[1].split()) == MAX_TOKENS  # the other sentence
    assert [move.page for move in moves() if move.floor] == ["playground"]
    assert all(move.acts for move in moves())


def test_the_classroom_pages_moves_are_made_again_and_again():
    """bench.worst makes a move's acts in turn from the page its setup left, a warm-up and then each sample: every
    press finds its button (Try it leaves the Challenges page, so each sample goes back to it first, untimed; a lesson's
    step buttons are there once its setup has run the page)."""
    from bench.worst import measure

    for move in (m for m in moves() if m.page in ("challenges", "lesson_plans")):
        runs, _ = measure(move, samples=3)
        assert len(runs) == 3, move.name
