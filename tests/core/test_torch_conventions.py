"""attnviz against outputs stored from real PyTorch 2.13 (tests/tools/make_torch_fixtures.py regenerates them),
and against a numpy re-statement of nn.MultiheadAttention's packed-weight layout."""

from pathlib import Path

import numpy as np
import pytest

from attnviz import AttnvizInputError, attention, multi_head_attention, project
from tests.reference import naive_attention

torch_ref = np.load(Path(__file__).resolve().parents[1] / "fixtures" / "torch_reference.npz")


SDPA_CASES = {  # stored output: the settings it was made with, for the naive reference
    "sdpa_default": {},
    "sdpa_causal": {"causal": True},
    "sdpa_unscaled": {"scale": False},
    "sdpa_masked": {"allowed": torch_ref["sdpa_allow"].tolist()},
}


@pytest.mark.parametrize("stored", SDPA_CASES)
def test_each_stored_output_is_attention_of_the_stored_inputs(stored):
    """The fixture's outputs are what the naive loops compute from the fixture's own inputs, so they are real
    attention outputs of those inputs (not, say, zeros, or outputs of other inputs), and a later test that
    compares attnviz with them compares like with like. The naive loops share no code with attnviz."""
    q, k, v = (torch_ref[name].tolist() for name in ("sdpa_q", "sdpa_k", "sdpa_v"))
    _, _, output = naive_attention(q, k, v, **SDPA_CASES[stored])
    np.testing.assert_allclose(torch_ref[stored], output, rtol=1e-12, atol=1e-12)


def test_the_stored_cases_differ_so_each_setting_is_really_exercised():
    """Causal, unscaled and masked each change the output, and the mask blocks some pairs but leaves every row a
    key (PyTorch gives NaN for a row with none): otherwise a test against that case could not see its setting."""
    outputs = [torch_ref[name] for name in SDPA_CASES]
    for a in range(len(outputs)):
        for b in range(a + 1, len(outputs)):
            assert np.abs(outputs[a] - outputs[b]).max() > 1e-3
    allow = torch_ref["sdpa_allow"]
    assert allow.dtype == bool and 0 < allow.sum() < allow.size and allow.any(axis=1).all()
    assert torch_ref["mha_causal_output"].shape == torch_ref["mha_output"].shape
    assert np.abs(torch_ref["mha_causal_output"] - torch_ref["mha_output"]).max() > 1e-3


def test_stored_multihead_outputs_follow_from_the_stored_weights():
    """nn.MultiheadAttention's stored outputs and per-head weights against the numpy restatement of its layout
    (below), and the averaged weights it returns by default against the mean of the per-head ones."""
    expected_out, expected_w = numpy_torch_layout_mha(
        torch_ref["mha_x"], torch_ref["mha_in_proj_weight"], torch_ref["mha_out_proj_weight"], n_heads=2
    )
    np.testing.assert_allclose(torch_ref["mha_output"], expected_out, atol=1e-12)
    np.testing.assert_allclose(torch_ref["mha_head_weights"], expected_w, atol=1e-12)
    np.testing.assert_allclose(torch_ref["mha_mean_weights"], expected_w.mean(axis=0), atol=1e-12)
    causal_out, causal_w = numpy_torch_layout_mha(
        torch_ref["mha_x"], torch_ref["mha_in_proj_weight"], torch_ref["mha_out_proj_weight"], n_heads=2, causal=True
    )
    np.testing.assert_allclose(torch_ref["mha_causal_output"], causal_out, atol=1e-12)
    np.testing.assert_allclose(torch_ref["mha_causal_head_weights"], causal_w, atol=1e-12)


@pytest.mark.parametrize(
    ("expected", "kwargs"),
    [
        ("sdpa_default", {}),
        ("sdpa_causal", {"causal": True}),
        ("sdpa_unscaled", {"scale": False}),
        ("sdpa_masked", {"mask": torch_ref["sdpa_allow"]}),
    ],
)
def test_matches_scaled_dot_product_attention(expected, kwargs):
    result = attention(torch_ref["sdpa_q"], torch_ref["sdpa_k"], torch_ref["sdpa_v"], **kwargs)
    np.testing.assert_allclose(result.output, torch_ref[expected], atol=1e-12)


def _split_packed(in_proj_weight):
    """nn.MultiheadAttention packs W_q, W_k, W_v as (3E, E) rows in (out, in) layout; attnviz takes (in, out)."""
    W_q, W_k, W_v = np.split(in_proj_weight, 3)
    return W_q.T, W_k.T, W_v.T


def test_matches_multihead_attention():
    W_q, W_k, W_v = _split_packed(torch_ref["mha_in_proj_weight"])
    W_o = torch_ref["mha_out_proj_weight"].T
    result = multi_head_attention(torch_ref["mha_x"], W_q, W_k, W_v, W_o, n_heads=2)
    np.testing.assert_allclose(result.output, torch_ref["mha_output"], atol=1e-12)
    np.testing.assert_allclose(result.weights, torch_ref["mha_head_weights"], atol=1e-12)
    np.testing.assert_allclose(result.mean_weights, torch_ref["mha_mean_weights"], atol=1e-12)


def test_matches_causal_multihead_attention():
    W_q, W_k, W_v = _split_packed(torch_ref["mha_in_proj_weight"])
    W_o = torch_ref["mha_out_proj_weight"].T
    result = multi_head_attention(torch_ref["mha_x"], W_q, W_k, W_v, W_o, n_heads=2, causal=True)
    np.testing.assert_allclose(result.output, torch_ref["mha_causal_output"], atol=1e-12)
    np.testing.assert_allclose(result.weights, torch_ref["mha_causal_head_weights"], atol=1e-12)


def numpy_torch_layout_mha(x, in_proj_weight, out_proj_weight, n_heads, causal=False):
    """nn.MultiheadAttention's forward restated: x @ Wᵀ, view as (n, heads, d_head), attend per head, merge."""
    n, E = x.shape
    d_head = E // n_heads
    q, k, v = (x @ w.T for w in np.split(in_proj_weight, 3))  # (n, E) each
    q, k, v = (t.reshape(n, n_heads, d_head).transpose(1, 0, 2) for t in (q, k, v))  # (h, n, d_head)
    logits = q @ k.transpose(0, 2, 1) / np.sqrt(d_head)  # (h, n, n)
    if causal:
        logits = np.where(np.triu(np.ones((n, n), dtype=bool), k=1), -np.inf, logits)  # torch's attn_mask: True = not
    w = np.exp(logits - logits.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    merged = (w @ v).transpose(1, 0, 2).reshape(n, E)  # (n, E)
    return merged @ out_proj_weight.T, w


@pytest.mark.parametrize("n_heads", [1, 2, 3, 6])
def test_matches_restated_layout_for_any_head_count(n_heads):
    rng = np.random.default_rng(n_heads)
    E, n = 6, 5
    x, in_proj, out_proj = rng.standard_normal((n, E)), rng.standard_normal((3 * E, E)), rng.standard_normal((E, E))
    expected_out, expected_w = numpy_torch_layout_mha(x, in_proj, out_proj, n_heads)
    result = multi_head_attention(x, *_split_packed(in_proj), out_proj.T, n_heads)
    np.testing.assert_allclose(result.output, expected_out, atol=1e-10)
    np.testing.assert_allclose(result.weights, expected_w, atol=1e-12)
    assert result.concat.shape == (n, E) and result.head_outputs.shape == (n_heads, n, E // n_heads)


def test_one_head_equals_single_head_attention():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((4, 4))
    W_q, W_k, W_v = (rng.standard_normal((4, 4)) for _ in range(3))
    result = multi_head_attention(x, W_q, W_k, W_v, np.eye(4), n_heads=1, causal=True)
    single = attention(x @ W_q, x @ W_k, x @ W_v, causal=True)
    np.testing.assert_allclose(result.output, single.output, atol=1e-12)
    np.testing.assert_allclose(result.weights[0], single.weights, atol=1e-15)


@pytest.mark.parametrize(
    ("n_heads", "message"),
    [
        (3, "The number of heads (3) must divide d_model (4)"),
        (0, "The number of heads (0) must divide"),
        (2.0, "must divide"),
    ],
)
def test_heads_must_divide_d_model(n_heads, message):
    eye = np.eye(4)
    with pytest.raises(AttnvizInputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        multi_head_attention(eye, eye, eye, eye, eye, n_heads=n_heads)


def test_projection_shapes_must_match():
    with pytest.raises(AttnvizInputError, match="W_O must be 4×4"):
        multi_head_attention(np.eye(4), np.eye(4), np.eye(4), np.eye(4), np.eye(3), n_heads=2)


eye4 = np.eye(4)
NOT_2D = "X must be a table of numbers (2-D: one row a token), but it has 1 dimension(s)."


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: project(np.ones(3), eye4, eye4, eye4), NOT_2D),
        (lambda: project(eye4, np.ones((3, 2)), eye4, eye4), "X has 4 columns but W_Q has 3 rows: they must match to multiply."),
        (lambda: project(eye4, eye4, np.ones((3, 4)), eye4), "X has 4 columns but W_K has 3 rows: they must match to multiply."),
        (lambda: project(eye4, eye4, eye4, np.ones((5, 4))), "X has 4 columns but W_V has 5 rows: they must match to multiply."),
        (
            lambda: project(eye4, eye4, eye4, [[np.nan] * 4] * 4),
            "W_V has a value that is not a finite number (NaN or infinity) at row 0, column 0.",
        ),
        (lambda: multi_head_attention(np.ones(4), eye4, eye4, eye4, eye4, 2), NOT_2D),
        (lambda: multi_head_attention(eye4, eye4, eye4, eye4, np.ones((4, 3)), 2), "W_O must be 4×4 (d_model × d_model), but it is 4×3."),
        (lambda: multi_head_attention(eye4, eye4, eye4, eye4, np.ones((3, 4)), 2), "W_O must be 4×4 (d_model × d_model), but it is 3×4."),
        (
            lambda: multi_head_attention(eye4, eye4, [[1, 2, 3, np.inf]] + [[0] * 4] * 3, eye4, eye4, 2),
            "W_K has a value that is not a finite number (NaN or infinity) at row 0, column 3.",
        ),
    ],
)
def test_projection_errors_name_the_matrix(call, message):
    with pytest.raises(AttnvizInputError) as caught:
        call()
    assert str(caught.value) == message


def test_project_multiplies_each_weight_by_hand():
    X = np.array([[1.0, 2.0], [0.0, -1.0]])
    W_q, W_k, W_v = np.array([[1.0], [1.0]]), np.array([[2.0, 0.0], [0.0, 3.0]]), np.array([[0.5], [-1.0]])
    Q, K, V = project(X, W_q, W_k, W_v)
    np.testing.assert_array_equal(Q, [[3.0], [-1.0]])  # 1 + 2, 0 − 1
    np.testing.assert_array_equal(K, [[2.0, 6.0], [0.0, -3.0]])
    np.testing.assert_array_equal(V, [[-1.5], [1.0]])  # 0.5 − 2, 0 + 1


def test_multi_head_keeps_its_projections_and_passes_the_scale_setting_to_every_head():
    rng = np.random.default_rng(5)
    X = rng.standard_normal((3, 4))
    W_q, W_k, W_v, W_o = (rng.standard_normal((4, 4)) for _ in range(4))
    result = multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads=2, scale=False)
    np.testing.assert_allclose(result.Q, X @ W_q, rtol=1e-12)
    np.testing.assert_allclose(result.K, X @ W_k, rtol=1e-12)
    np.testing.assert_allclose(result.V, X @ W_v, rtol=1e-12)
    for h, head in enumerate(result.heads):
        cols = slice(2 * h, 2 * h + 2)
        Q, K, V = ((X @ W)[:, cols].tolist() for W in (W_q, W_k, W_v))
        _, weights, _ = naive_attention(Q, K, V, scale=False)
        np.testing.assert_allclose(head.weights, weights, rtol=1e-9)
        assert head.scale_factor == 1.0
