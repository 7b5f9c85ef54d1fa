"""A cache with room for a whole class: one process serves every student, and each session's current state and the
one before it (which decides the changed cells) must both stay in it between two of that student's moves.

Small states (the usual sentence, up to ``SMALL_TOKENS`` tokens) get room for a class of 60 and more; large ones
(up to 128 tokens, a megabyte a view) get a few entries, so memory stays bounded whatever the class types.
"""

from __future__ import annotations

from functools import lru_cache, wraps

SMALL_TOKENS = 24
CLASS_ROOM = 512  # entries for small states: 60 sessions × 2 states × 4 views is 480
FEW = 32


def cached_for_a_class(function):
    """``function(state, *rest)``, cached by its arguments: in one LRU cache when ``state.n`` is small, else in a
    small one. Arguments must be hashable (a PlaygroundState is)."""
    small, large = lru_cache(maxsize=CLASS_ROOM)(function), lru_cache(maxsize=FEW)(function)

    @wraps(function)
    def cached(state, *rest):
        return (small if state.n <= SMALL_TOKENS else large)(state, *rest)

    return cached
