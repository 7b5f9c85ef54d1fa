"""Every challenge a student can solve, by key, in the order the Challenges page lists them: the Playground's, then
the guided pages', then the Real model's. What a challenge is: attnviz.lessons.challenge."""

from __future__ import annotations

from attnviz.lessons import guided_challenges, model_challenges, playground_challenges
from attnviz.lessons.challenge import Challenge

CHALLENGES: dict[str, Challenge] = {
    challenge.key: challenge
    for challenge in playground_challenges.CHALLENGES + guided_challenges.CHALLENGES + model_challenges.CHALLENGES
}
