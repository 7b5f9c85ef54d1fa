"""Regenerates tests/fixtures/torch_reference.npz with real PyTorch (not needed to run the tests).

    python3 -m venv /work/torchvenv && /work/torchvenv/bin/pip install torch==2.13.0 numpy  # pinned: the CPU wheel
    /work/torchvenv/bin/python tests/tools/make_torch_fixtures.py

The test suite compares attnviz against these stored outputs, so it needs no PyTorch itself.
"""

from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

torch.manual_seed(0)
out = {"torch_version": np.array(torch.__version__)}

# scaled_dot_product_attention: boolean allow-mask, causal flag, explicit and default scale.
n, d_k, d_v = 5, 4, 3
q, k, v = (
    torch.randn(n, d_k, dtype=torch.float64),
    torch.randn(n, d_k, dtype=torch.float64),
    torch.randn(n, d_v, dtype=torch.float64),
)
allow = torch.rand(n, n) > 0.3
allow[:, 0] = True  # keep every row alive: torch gives NaN for a fully masked row
out |= {"sdpa_q": q.numpy(), "sdpa_k": k.numpy(), "sdpa_v": v.numpy(), "sdpa_allow": allow.numpy()}
out["sdpa_default"] = F.scaled_dot_product_attention(q, k, v).numpy()
out["sdpa_causal"] = F.scaled_dot_product_attention(q, k, v, is_causal=True).numpy()
out["sdpa_masked"] = F.scaled_dot_product_attention(q, k, v, attn_mask=allow).numpy()
out["sdpa_unscaled"] = F.scaled_dot_product_attention(q, k, v, scale=1.0).numpy()

# nn.MultiheadAttention without biases; weights are stored (out, in), attnviz takes (in, out).
embed_dim, heads, n = 8, 2, 4
mha = torch.nn.MultiheadAttention(embed_dim, heads, bias=False, batch_first=True, dtype=torch.float64)
x = torch.randn(1, n, embed_dim, dtype=torch.float64)
with torch.no_grad():
    y, w_mean = mha(x, x, x)
    _, w_heads = mha(x, x, x, average_attn_weights=False)
    causal_blocked = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)  # torch: True = NOT allowed here
    y_causal, w_causal = mha(x, x, x, attn_mask=causal_blocked, average_attn_weights=False)
out |= {
    "mha_x": x[0].numpy(),
    "mha_in_proj_weight": mha.in_proj_weight.detach().numpy(),
    "mha_out_proj_weight": mha.out_proj.weight.detach().numpy(),
    "mha_output": y[0].numpy(),
    "mha_mean_weights": w_mean[0].numpy(),
    "mha_head_weights": w_heads[0].numpy(),
    "mha_causal_output": y_causal[0].numpy(),
    "mha_causal_head_weights": w_causal[0].numpy(),
}
target = Path(__file__).resolve().parents[1] / "fixtures" / "torch_reference.npz"
np.savez(target, **out)
print(f"wrote {target} with torch {torch.__version__}")
