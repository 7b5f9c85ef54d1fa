"""A token bucket: at most ``burst`` at once, then ``per_s`` a second. Immutable, and the time is passed in as
``now``, so a session keeps its buckets in its state and a test needs no clock."""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Bucket:
    burst: float
    per_s: float
    tokens: float = 0.0
    at: float = float("-inf")  # never used: full

    def take(self, now: float) -> tuple[bool, Bucket]:
        """(whether one more is allowed at ``now``, the bucket after it). A clock that steps back refills nothing."""
        tokens = min(self.burst, self.tokens + max(0.0, now - self.at) * self.per_s)
        allowed = tokens >= 1
        return allowed, replace(self, tokens=tokens - allowed, at=max(now, self.at))
