"""Every challenge a student can solve, by key, in the order the Challenges page lists them: the Playground's, then
the guided pages', then the Real model's. What a challenge is: attnviz.lessons.challenge."""

from __future__ import annotations

from attnviz.lessons import guided_challenges, model_challenges, playground_challenges
from attnviz.lessons.challenge import Challenge

CHALLENGES: dict[str, Challenge] = {
    challenge.key: challenge
    for challenge in playground_challenges.CHALLENGES + guided_challenges.CHALLENGES + model_challenges.CHALLENGES
}



def progress_words(solved: int) -> str:
    """How many of the challenges a student solved, in bold: "**3 of 19 solved.**"."""
    return f"**{solved} of {len(CHALLENGES)} solved.**"


def goal_line(goal: str, solved: bool) -> str:
    """A challenge in the list: its goal, and "(solved)" once it is."""
    return goal + (" *(solved)*" if solved else "")


# The Challenges page's first words. Progress is the session's: a share link carries a setup, never what was solved.
INTRODUCTION = (
    "Each challenge is a goal on a page: reach it by moving that page's controls or typing numbers. The page checks "
    "the goal from its own numbers as you go. **Check** gives a hint when you are not there yet; **Show me** plays "
    "a solution one move at a time (Undo takes the Playground's moves back). Your progress is kept for this visit "
    "only: a reload or another browser starts at 0 solved. A share link does not carry your progress either."
)
