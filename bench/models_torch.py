"""The PyTorch side of ``python -m bench models``, run by a Python that has torch and transformers (bench/README.md:
a venv of its own, outside the app's dependencies). It imports nothing of attnviz.

One JSON request a line on stdin, one JSON answer a line on stdout:
- ``{"load": "encoder" | "decoder", "folder": ...}``: load that model folder (the very files attnviz reads) in
  float32 with eager attention, so that attention weights come back as attnviz gives them; answers its parameters.
- ``{"run": "encoder" | "decoder", "ids": [...]}``: one forward pass with every layer's attention (the decoder's
  logits at the last position only, as attnviz computes them); answers its milliseconds, of the clock and of this
  thread's CPU time (one thread: the work itself, whatever else the machine runs).
"""

from __future__ import annotations

import json
import sys
import time


def main() -> None:
    # Imported here, not at the top: the app's own venv imports every bench module (tests/bench/test_imports.py),
    # and has neither.
    import torch
    from transformers import AutoModel, AutoModelForCausalLM

    torch.set_num_threads(1)  # as attnviz: one thread each
    torch.set_grad_enabled(False)
    models = {}
    for line in sys.stdin:
        request = json.loads(line)
        if "load" in request:
            kind = request["load"]
            loader = AutoModelForCausalLM if kind == "decoder" else AutoModel
            model = loader.from_pretrained(request["folder"], dtype=torch.float32, attn_implementation="eager")
            models[kind] = model.eval()
            answer = {"parameters": sum(p.numel() for p in model.parameters()), "torch": torch.__version__}
        else:
            kind = request["run"]
            ids = torch.tensor([request["ids"]])
            extra = {"logits_to_keep": 1} if kind == "decoder" else {}
            started, cpu = time.perf_counter(), time.thread_time()
            models[kind](ids, output_attentions=True, **extra)
            answer = {"ms": (time.perf_counter() - started) * 1000, "cpu_ms": (time.thread_time() - cpu) * 1000}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
