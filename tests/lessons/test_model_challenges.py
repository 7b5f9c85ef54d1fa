"""The Real model's challenges, checked against numpy written out here from the runs' own arrays (not
attnviz.models.explain), and their hints against the numbers they describe."""

import numpy as np
import pytest

from attnviz.lessons.challenge import at
from attnviz.lessons.challenges import CHALLENGES
from attnviz.lessons.model_challenges import CAPITAL, SENTENCE


def arrives(run, layer, head, query) -> np.ndarray:
    row = run.attention[layer, head, query] * run.value_norms[layer, head]
    return row / row.sum()


def probabilities(logits) -> np.ndarray:
    e = np.exp(logits.astype(float) - logits.max())
    return e / e.sum()


def test_value_shrinks_is_the_largest_raw_keys_share_of_what_arrives(encoder):
    challenge, run = CHALLENGES["value_shrinks"], encoder.run(SENTENCE)
    start = challenge.start()
    for layer, head in ((0, 0), (0, 2), (3, 7), (5, 11)):
        row = run.attention[layer, head, 13]
        expected = arrives(run, layer, head, 13)[row.argmax()] < 0.1
        assert challenge.solved(at(start, layer=layer, head=head, view="value")) == expected
        assert not challenge.solved(at(start, layer=layer, head=head, view="raw"))  # seen value-weighted only
    assert run.tokens[13] == "tired"


def test_sinks_pass_little_reads_both_shares(encoder):
    challenge, run = CHALLENGES["sinks_pass_little"], encoder.run(SENTENCE)
    solved = challenge.solution(challenge.start())[-1][1]
    layer, head = solved.settings["layer"], solved.settings["head"]
    raw = run.attention[layer, head][:, [0, 15]].sum(axis=1).mean()
    value = np.mean([arrives(run, layer, head, q)[[0, 15]].sum() for q in range(16)])
    assert raw > 0.5 and value < 0.2


def test_top_word_changes_and_its_hint_hold_for_the_decoder(decoder):
    challenge, run = CHALLENGES["top_word_changes"], decoder.run(CAPITAL)
    most = {int(run.attention[-1, h, -1].argmax()) for h in range(9)}
    assert most <= {0, 4} and run.tokens[4] == " is"  # the hint: the first token and “ is”
    for index in range(1, 5):
        changed = (
            probabilities(run.last_logits).argmax() != probabilities(decoder.run(CAPITAL, index).last_logits).argmax()
        )
        assert challenge.solved(at(challenge.start(), removed=index)) == (changed and index not in most)
    assert not challenge.solved(at(challenge.start(), removed=99))  # a token the sentence lacks: no error, not met


@pytest.mark.parametrize("index", [0, 2, 10])
def test_embedding_turns_is_the_cosine_of_the_mean_pooled_embeddings(encoder, index):
    challenge, run = CHALLENGES["embedding_turns"], encoder.run(SENTENCE)
    a, b = run.hidden.astype(float).mean(0), encoder.run(SENTENCE, index).hidden.astype(float).mean(0)
    cosine = a @ b / np.linalg.norm(a) / np.linalg.norm(b)
    assert challenge.solved(at(challenge.start(), removed=index)) == (cosine < 0.9)
