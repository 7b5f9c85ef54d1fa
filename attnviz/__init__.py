"""attnviz: self-attention written out in numpy, with every intermediate kept for teaching.

>>> import attnviz
>>> result = attnviz.attention(Q, K, V, causal=True)
>>> result.weights  # (n, n), each row sums to 1
"""

from attnviz.core import *  # noqa: F403  (the public API is the core's: attention, softmax, presets, errors, …)
from attnviz.core import __all__  # noqa: F401
