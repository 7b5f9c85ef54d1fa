"""The sentences the app's Streamlit parts (attnviz/ui, pages) say about their state: a challenge's bar, the class
question's boxes, a lesson's end, a share link refused, a move's confirmation, One token up close's headings. Each is
a function of the state it speaks of, property-tested over generated states (tests/lessons/test_app_words.py).

Text the student or teacher wrote (a goal, a title, an option) arrives already made safe for markdown by the caller
(attnviz.ui.text.literal), and is quoted as it came."""

from __future__ import annotations

SOLVED = " · :material/check_circle: **Solved!** The numbers on this page meet the goal."
SHARE_CAPTION = (
    "Opening this link shows this page with the Playground's setup: its sentence, every setting and every edited value."
)


def challenge_bar_line(goal: str, solved: bool) -> str:
    """The challenge bar's first words: the goal, and that it is solved once the page's numbers meet it."""
    return f"**Challenge:** {goal}{SOLVED if solved else ''}"


def not_yet_line(hint: str) -> str:
    """After Check, while the goal is not met: the challenge's hint."""
    return f"Not yet. Hint: {hint}"


def shown_moves_line(played: list[str] | tuple[str, ...], more_to_come: bool) -> str:
    """Show me's moves played so far, in order; "…" while more are to come, a full stop once all are played."""
    return "Show me: " + "; then ".join(played) + ("…" if more_to_come else ".")


def not_the_asked_setup(code: str) -> str:
    """To a student whose Playground is no longer the setup the class question ``code`` asks about."""
    return (
        f"This is not the setup the class question {code} asks about: answers here are not counted. "
        "Your answer to the asked setup stands."
    )


def class_code_line(code: str) -> str:
    """The class question's code, for the back row."""
    return f"Class code **{code}**"


def right_answer_line(option: str) -> str:
    """Under the class's bars after Answer: the right option, marked ✓ in the bars."""
    return f"Right answer: **{option}** (✓ in the bars)."


def link_refused(problem: str) -> str:
    """A share link that cannot be opened: why (``problem``, a sentence), and what is shown instead."""
    return f"{problem} The default settings are shown instead."


def lesson_end(title: str, steps: int) -> str:
    """The screen after a lesson's last step."""
    shown = "its one step shown" if steps == 1 else f"all {steps} steps shown"
    return f"**{title}** · the end: {shown}. Back shows the last."


def step_added(steps: int) -> str:
    """The setup just added to the lesson being built is its step ``steps`` (counted from 1)."""
    return f"Added as step {steps} of your lesson (see Lesson plans)."


def randomised(seed: int) -> str:
    """Randomise's confirmation: the new seed, and that Undo brings back the vectors before."""
    return f"New random vectors from seed {seed}. Undo brings back the ones before."


def head_imported(title: str) -> str:
    """A real model's head opened in the Playground."""
    return (
        f"{title} is on the Playground: its own Q, K and V, so the weights are the model's. "
        "Undo brings back what was here before."
    )


def weights_heading(token: str) -> str:
    """One token up close: the heading of the focus row's path from scores to weights."""
    return f"**From scores to weights for “{token}”**"


def blend_heading(token: str) -> str:
    """One token up close: the heading of the focus token's output, its values blended by the weights."""
    return f"**The output of “{token}” blends the values by these weights: Σⱼ wⱼ · vⱼ**"


def not_a_choice(sent: str) -> str:
    """A selector's value the browser sent that is not one of its choices (its first 40 characters, quoted)."""
    return f"“{sent}” is not one of the choices offered, so it was ignored."
