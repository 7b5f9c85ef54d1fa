"""Train the reference text's tiny transformer in numpy and watch [CLS]'s attention settle on the deciding position.

>>> from attnviz.train import TrainConfig, train
>>> result = train(TrainConfig(seed=0))   # 8,000 samples, 10 epochs, batch 32
>>> result.balanced_accuracy, result.cls_attention   # held-out; (7,) mean [CLS] row

Never imports streamlit: a page drives ``Training(config).steps()`` and draws each ``Progress``.
"""

from attnviz.train.config import TrainConfig
from attnviz.train.metrics import Confusion
from attnviz.train.run import Progress, Snapshot, Training, TrainResult, train

__all__ = ["Confusion", "Progress", "Snapshot", "TrainConfig", "TrainResult", "Training", "train"]
