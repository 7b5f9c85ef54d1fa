"""Multi-head page: sizes, heads, seed, mask, the tie exercise and X edits, checked against the core."""

import numpy as np
import pytest

from attnviz import multi_head_attention
from attnviz.core import random as heads
from attnviz.lessons import costs
from tests.support.apptest import as_read, chart, chart_keys, open_page, setting_key, texts, trace, type_cells

PAGE = "pages/multi_head.py"
N = 12  # the Playground's default sentence


@pytest.fixture
def page():
    return open_page(PAGE)


def expected(d_model=8, n_heads=2, seed=0, causal=False, tie_qk=False, X=None):
    X = heads.random_embeddings(N, d_model, seed) if X is None else X
    return multi_head_attention(X, *heads.random_projections(d_model, seed, tie_qk=tie_qk), n_heads, causal=causal)


def test_defaults_two_heads_match_the_core(page):
    result = expected()
    assert page.selectbox(key=setting_key("multi_head", "heads")).options == ["1", "2", "4", "8"]
    for h in range(2):
        np.testing.assert_allclose(trace(page, f"mh_head_{h}", 0, "z"), result.heads[h].weights, rtol=1e-12)
    np.testing.assert_allclose(trace(page, "mh_concat", 0, "z"), result.concat, rtol=1e-12)
    np.testing.assert_allclose(trace(page, "mh_output", 0, "z"), result.output, rtol=1e-12)
    assert len(chart(page, "mh_concat")["layout"]["shapes"]) == 1  # one boundary between two heads
    assert "Total **256**" in texts(page.markdown)  # 4 · 8²
    flops = page.dataframe[-1].value  # the first is the X editor
    assert flops["FLOPs"].tolist() == [4608, 2304, 2304, 1536, 10752]  # 6nd², 2n²d, 2n²d, 2nd² at n = 12, d = 8


def test_heads_selector_offers_only_divisors_and_redraws(page):
    page.slider(key=setting_key("multi_head", "d_model")).set_value(12).run()
    assert page.selectbox(key=setting_key("multi_head", "heads")).options == [str(h) for h in costs.divisors(12)]
    page.selectbox(key=setting_key("multi_head", "heads")).set_value(3).run()
    assert not page.exception
    result = expected(d_model=12, n_heads=3)
    assert [k for k in chart_keys(page) if k.startswith("mh_head_")] == ["mh_head_0", "mh_head_1", "mh_head_2"]
    np.testing.assert_allclose(trace(page, "mh_head_2", 0, "z"), result.heads[2].weights, rtol=1e-12)
    assert "X has 12×12 = 144 numbers" in texts(page.caption)  # too big to edit: drawn instead
    assert "Total **576**" in texts(page.markdown)


def test_many_heads_draws_the_first_eight(page):
    page.slider(key=setting_key("multi_head", "d_model")).set_value(16).run()
    page.selectbox(key=setting_key("multi_head", "heads")).set_value(16).run()
    assert not page.exception
    assert sum(k.startswith("mh_head_") for k in chart_keys(page)) == 8
    assert "first 8 of 16 heads" in texts(page.caption)


def test_seed_and_causal(page):
    page.number_input(key=setting_key("multi_head", "seed")).set_value(5).run()
    page.checkbox(key=setting_key("multi_head", "causal")).check().run()
    assert not page.exception
    result = expected(seed=5, causal=True)
    weights = trace(page, "mh_head_1", 0, "z")
    np.testing.assert_allclose(np.nan_to_num(weights), result.heads[1].weights, rtol=1e-12)
    assert np.isnan(weights[np.triu_indices(N, 1)]).all()  # masked cells drawn as −∞, not a colour


def test_tying_wq_and_wk_makes_the_scores_symmetric(page):
    assert "Scores are not symmetric now" in texts(page.markdown)
    page.checkbox(key=setting_key("multi_head", "tie")).check().run()
    assert not page.exception
    scores = trace(page, "mh_scores", 0, "z")
    np.testing.assert_allclose(scores, scores.T, atol=1e-12)
    np.testing.assert_allclose(scores, expected(tie_qk=True).heads[0].scores, rtol=1e-12)
    assert "symmetric: the largest |S − Sᵀ| over all heads is 0. " in texts(page.success)


def test_editing_x_flows_through_and_bad_cells_are_explained(page):
    type_cells(page, "x.0.8", {(0, 0): "2.5", (1, 1): None}, [f"x{c + 1}" for c in range(8)])
    assert not page.exception
    X = heads.random_embeddings(N, 8, 0)
    X[0, 0] = 2.5  # the empty cell keeps its value
    np.testing.assert_allclose(trace(page, "mh_output", 0, "z"), expected(X=X).output, rtol=1e-12)
    assert "X[1, dimension 2]: a cell was left empty; the previous value is kept." in as_read(texts(page.warning))
    # The edit is kept across a change of seed and back, and across a visit to another page.
    page.number_input(key=setting_key("multi_head", "seed")).set_value(3).run()
    page.number_input(key=setting_key("multi_head", "seed")).set_value(0).run()
    page.switch_page("pages/playground.py").run()
    page.switch_page("pages/multi_head.py").run()
    np.testing.assert_allclose(trace(page, "mh_output", 0, "z"), expected(X=X).output, rtol=1e-12)


def test_masked_head_weights_read_zero_not_minus_infinity(page):
    page.checkbox(key=setting_key("multi_head", "causal")).check().run()
    text = np.array(chart(page, "mh_head_0")["data"][0]["text"], dtype=object)  # (n, n) what each cell says
    assert (text[np.triu_indices(N, 1)] == "0.00").all()  # a masked weight is 0; −∞ belongs to the scores
    assert "−∞" not in text
