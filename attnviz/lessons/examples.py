"""What each worked example (attnviz.core.presets) is called and what it shows, in words; the note quotes its
numbers only while its setup is untouched (attnviz.lessons.playground.example_note)."""

from __future__ import annotations

# key: (title in the Example box, the note shown when it is loaded)
EXAMPLES: dict[str, tuple[str, str]] = {
    "movie_negation": (
        "Movie review: “not good”",
        "“good” attends to “not” (0.67) and “amazing” (0.33), so its output carries the negation.",
    ),
    "pronoun_it": (
        "What does “it” refer to?",
        "The query of “it”, [3, 1], matches the key of “animal” best: weights 0.87, 0.10 and 0.03.",
    ),
    "cat_sat": (
        "The cat sat",
        "Three tokens with 2-D vectors, small enough to check every number by hand.",
    ),
    "notebook_causal": (
        "Random 4×8 decoder (causal)",
        "Random 8-D vectors with the causal mask: each token sees only itself and the tokens before it.",
    ),
    "identical_keys": (
        "Identical keys",
        "Every key is the same, so every query scores them equally: the weights are uniform (0.25 each).",
    ),
    "causal_movie": (
        "Movie review, causal (decoder)",
        "With the causal mask a token sees only itself and earlier tokens, so the first row is always [1, 0, …].",
    ),
}
