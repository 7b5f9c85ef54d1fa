"""A real model's head on the Playground: import_head, the ImportedHead it holds, and every move on such a state.

Expected weights come from tests/reference.py (plain loops), never from the core the Playground calls.
"""

from dataclasses import replace

import numpy as np
import pytest

from attnviz import AttnvizInputError
from attnviz.core.imported_head import MAX_TITLE_CHARS, ImportedHead
from attnviz.core.limits import MAX_DIM, MAX_TOKENS, VALUE_LIMIT
from attnviz.core.playground_state import (
    IMPORTED,
    RANDOM,
    PlaygroundState,
    apply_edits,
    example_options,
    import_head,
    load_example,
    randomise,
    set_dim,
    set_sentence,
)
from attnviz.lessons.playground import example_note, example_title
from tests.reference import naive_attention

TOKENS = ("[CLS]", "the", "walk", "##ing", "dog", "[SEP]")
TITLE = "all-MiniLM-L6-v2, layer 2, head 7"


def head_vectors(n=6, d_k=32, d_v=32, seed=0):
    """float32 Q, K, V like a model's: irrational-looking values, a few of them large."""
    rng = np.random.default_rng(seed)
    return tuple((rng.standard_normal((n, d)) * 3).astype(np.float32) for d in (d_k, d_k, d_v))


def imported(causal=False, **overrides):
    Q, K, V = head_vectors(**overrides)
    return import_head(PlaygroundState(), TOKENS, Q, K, V, causal=causal, title=TITLE, sentence="the walking dog")


@pytest.mark.parametrize("causal", [False, True])
def test_an_imported_head_gives_the_models_weights(causal):
    Q, K, V = head_vectors()
    state = import_head(PlaygroundState(), TOKENS, Q, K, V, causal=causal, title=TITLE, sentence="the walking dog")
    assert state.tokens == TOKENS and state.labels[3] == "3: ##ing"
    assert (state.d_k, state.d_v, state.causal, state.scale, state.temperature) == (32, 32, causal, True, 1.0)
    assert state.example == IMPORTED and state.sentence == "the walking dog" and state.blocked_keys == ()
    for shown, given in zip(state.matrices(), (Q, K, V), strict=True):
        assert np.array_equal(shown, given.astype(np.float64))  # every float32, exactly
    _, weights, output = naive_attention(Q.tolist(), K.tolist(), V.tolist(), causal=causal)
    np.testing.assert_allclose(state.result().weights, weights, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(state.result().output, output, rtol=1e-9, atol=1e-12)


def test_numbers_are_rounded_to_float32_and_the_head_is_read_only():
    head = ImportedHead(TITLE, [[0.1, 1 / 3]], [[2.0, 3.0]], [[1e-40]])
    assert head.Q[0, 0] == float(np.float32(0.1)) and head.Q[0, 1] == float(np.float32(1 / 3))
    assert head.V[0, 0] == float(np.float32(1e-40))  # a float32 subnormal survives
    with pytest.raises(ValueError, match="read-only"):
        head.Q[0, 0] = 5.0


def test_heads_are_equal_and_hash_equal_by_their_numbers():
    one, same = ImportedHead(TITLE, *head_vectors()), ImportedHead(TITLE, *head_vectors())
    assert one == same and hash(one) == hash(same) and len({one, same}) == 1
    assert one != ImportedHead(TITLE, *head_vectors(seed=1))
    assert one != ImportedHead("another title", *head_vectors())
    assert imported() == imported() and imported() != imported(causal=True)


def test_the_seed_and_a_fitting_focus_are_kept():
    Q, K, V = head_vectors()
    state = import_head(PlaygroundState(seed=7, focus=4), TOKENS, Q, K, V, causal=False, title=TITLE)
    assert (state.seed, state.focus, state.sentence) == (7, 4, " ".join(TOKENS))
    state = import_head(PlaygroundState(focus=11), TOKENS, Q, K, V, causal=False, title=TITLE)
    assert state.focus == len(TOKENS) - 1


@pytest.mark.parametrize(
    ("tokens", "vectors", "title", "message"),
    [
        (TOKENS[:5], head_vectors(), TITLE, "6 rows of vectors but 5 tokens"),
        (TOKENS, head_vectors(d_k=MAX_DIM + 1), TITLE, f"1 to {MAX_DIM} dimensions"),
        (("a",) * (MAX_TOKENS + 1), head_vectors(n=MAX_TOKENS + 1), TITLE, f"1 to {MAX_TOKENS} tokens"),
        (TOKENS, (np.ones((6, 4)), np.ones((6, 5)), np.ones((6, 4))), TITLE, "Q and K the same width"),
        (TOKENS, (np.ones((6, 4)), np.ones((5, 4)), np.ones((6, 4))), TITLE, "one row per token"),
        (TOKENS, (np.full((6, 4), np.nan), np.ones((6, 4)), np.ones((6, 4))), TITLE, "not finite"),
        (TOKENS, (np.full((6, 4), 1e300), np.ones((6, 4)), np.ones((6, 4))), TITLE, f"−{VALUE_LIMIT:g} to"),
        (TOKENS, (np.ones(6), np.ones((6, 4)), np.ones((6, 4))), TITLE, "rows × columns"),
        (TOKENS, ([["a"] * 4] * 6, np.ones((6, 4)), np.ones((6, 4))), TITLE, "table of numbers"),
        (TOKENS, head_vectors(), "x" * (MAX_TITLE_CHARS + 1), "title"),
        (("x" * 101, *TOKENS[1:]), head_vectors(), TITLE, "longer than 100 characters"),
    ],
)
def test_a_head_the_playground_cannot_hold_is_refused_in_plain_words(tokens, vectors, title, message):
    with pytest.raises(AttnvizInputError, match=message):
        import_head(PlaygroundState(), tokens, *vectors, causal=False, title=title)


def test_the_example_is_imported_exactly_when_the_source_is_a_head():
    held = PlaygroundState(source=ImportedHead(TITLE, *head_vectors()))
    assert held.example == IMPORTED and held.imported is held.source
    for key in ("random", "words", "cat_sat"):
        assert PlaygroundState(source=key).example == key and PlaygroundState(source=key).imported is None


def test_a_new_sentence_brings_its_own_tokens_and_keeps_the_vectors_by_position():
    state = imported()
    new, message = set_sentence(state, "Dogs bark")
    assert message is None and new.tokens == ("Dogs", "bark") and new.model_tokens is None
    Q, _, V = new.matrices()
    assert np.array_equal(Q, state.imported.Q[:2]) and np.array_equal(V, state.imported.V[:2])
    longer, _ = set_sentence(state, "one two three four five six seven eight")
    assert np.array_equal(longer.matrices()[1][:6], state.imported.K) and not longer.matrices()[1][6:].any()


def test_random_vectors_or_a_new_seed_replace_the_head_and_keep_the_models_tokens():
    state, _ = apply_edits(imported(), "Q", {(0, 0): "5"})
    for new in (load_example(state, RANDOM), randomise(state, 3)):
        assert new.imported is None and new.example == RANDOM and new.edits == ()
        assert new.tokens == TOKENS  # the tokens are not the vectors: they stay
        assert not np.array_equal(new.matrices()[0], state.matrices()[0])
    preset = load_example(state, "cat_sat")
    assert preset.imported is None and preset.model_tokens is None


def test_choosing_the_imported_head_again_undoes_the_edits_made_to_it():
    state, _ = apply_edits(imported(), "K", {(2, 3): "1.5"})
    assert state.matrices()[1][2, 3] == 1.5
    again = load_example(state, IMPORTED)
    assert again.edits == () and np.array_equal(again.matrices()[1], state.imported.K)
    plain = PlaygroundState()
    assert load_example(plain, IMPORTED) is plain  # nothing imported: nothing to choose


def test_narrower_d_k_keeps_the_surviving_columns_and_wider_adds_zeros():
    state = imported(d_k=8, d_v=8)
    narrow = set_dim(state, 3, which="d_k")
    assert np.array_equal(narrow.matrices()[0], state.imported.Q[:, :3])
    wide = set_dim(narrow, 10, which="d_k")
    assert np.array_equal(wide.matrices()[0][:, :8], state.imported.Q) and not wide.matrices()[0][:, 8:].any()


def test_the_example_selector_offers_and_names_the_imported_head():
    state = imported()
    assert example_options(state)[-1] == IMPORTED and IMPORTED not in example_options(PlaygroundState())
    assert example_title(state, IMPORTED) == TITLE
    assert example_title(state, RANDOM) == "Random vectors by position (seed)"


def test_the_note_says_whose_weights_these_are_until_something_changes():
    state = imported(causal=True)
    assert example_note(state).startswith(f"{TITLE}: the model's own Q, K and V")
    assert "causal mask" in example_note(state) and "no longer" not in example_note(state)
    for changed in (
        apply_edits(state, "V", {(0, 0): "1"})[0],
        replace(state, scale=False),
        replace(state, temperature=0.5),
        set_dim(state, 4, which="d_v"),
        set_sentence(state, "Dogs bark")[0],
    ):
        assert "no longer the model's weights" in example_note(changed)
