"""Every bad setting is refused with a plain message before any training starts."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attnviz import AttnvizInputError
from attnviz.train import TrainConfig, Training, train

BAD_SETTINGS = [
    ({"samples": 0}, "The number of samples must be between 1 and 20,000 on this server; it is 0."),
    ({"samples": -5}, "The number of samples must be between 1 and 20,000 on this server; it is -5."),
    ({"samples": 20_001}, "The number of samples must be between 1 and 20,000 on this server; it is 20,001."),
    ({"samples": 100.0}, "The number of samples must be a whole number, not 100.0."),
    ({"samples": True}, "The number of samples must be a whole number, not True."),
    ({"epochs": 0}, "The number of epochs must be between 1 and 50 on this server; it is 0."),
    ({"epochs": 51}, "The number of epochs must be between 1 and 50 on this server; it is 51."),
    ({"batch_size": 0}, "The batch size must be between 1 and 1,024; it is 0."),
    ({"batch_size": "32"}, "The batch size must be a whole number, not '32'."),
    (
        {"learning_rate": 0.0},
        "The learning rate must be between 1e-05 and 1 (Adam usually learns well near 0.001 to 0.01); it is 0.",
    ),
    (
        {"learning_rate": -0.01},
        "The learning rate must be between 1e-05 and 1 (Adam usually learns well near 0.001 to 0.01); it is -0.01.",
    ),
    (
        {"learning_rate": 50},
        "The learning rate must be between 1e-05 and 1 (Adam usually learns well near 0.001 to 0.01); it is 50.",
    ),
    (
        {"learning_rate": math.inf},
        "The learning rate must be between 1e-05 and 1 (Adam usually learns well near 0.001 to 0.01); it is inf.",
    ),
    ({"learning_rate": math.nan}, "The learning rate must be a number, not nan."),
    ({"learning_rate": "fast"}, "The learning rate must be a number, not 'fast'."),
    ({"d_model": 1}, "The model width d_model must be between 2 and 32; it is 1."),
    ({"d_model": 64}, "The model width d_model must be between 2 and 32; it is 64."),
    (
        {"target_position": 0},
        "The target position must be between 1 and 6 (index 0 is [CLS], 1 to 6 the tokens); it is 0.",
    ),
    (
        {"target_position": 7},
        "The target position must be between 1 and 6 (index 0 is [CLS], 1 to 6 the tokens); it is 7.",
    ),
    ({"target_value": 0}, "The target value must be between 1 and 50 (the tokens are 1 to 50); it is 0."),
    ({"target_value": 51}, "The target value must be between 1 and 50 (the tokens are 1 to 50); it is 51."),
    ({"balanced": "yes"}, "Balanced sampling must be on or off (True or False), not 'yes'."),
    ({"seed": -1}, "The seed must be between 0 and 4,294,967,295; it is -1."),
    ({"seed": 1.5}, "The seed must be a whole number, not 1.5."),
    ({"log_points": 0}, "The number of log points must be between 1 and 200; it is 0."),
    ({"log_points": 201}, "The number of log points must be between 1 and 200; it is 201."),
    (
        {"samples": 20_000, "epochs": 7},
        "20,000 samples × 7 epochs is 140,000 sample passes; this server allows 120,000 so a run stays short. "
        "Use fewer samples or fewer epochs.",
    ),
    (
        {"samples": 8000, "epochs": 10, "batch_size": 16},
        "A batch size of 16 makes 5,000 training steps; this server allows 4,000. "
        "Use a larger batch, fewer samples or fewer epochs.",
    ),
]


@pytest.mark.parametrize(("changes", "message"), BAD_SETTINGS, ids=[str(changes) for changes, _ in BAD_SETTINGS])
def test_bad_setting_is_refused_with_a_plain_message(changes, message):
    with pytest.raises(AttnvizInputError) as error:
        train(TrainConfig(**changes))
    assert str(error.value) == message


def test_the_reference_setting_and_the_limits_are_accepted():
    assert TrainConfig() == TrainConfig(samples=8000, epochs=10, batch_size=32, d_model=8, target_position=4)
    assert TrainConfig().total_steps == 2500
    for config in (
        TrainConfig(samples=12_000, epochs=10, batch_size=30),  # exactly 120,000 passes and 4,000 steps
        TrainConfig(samples=1, epochs=1, batch_size=1024, learning_rate=1.0, d_model=32, target_position=6),
        TrainConfig(target_value=np.int64(50), seed=np.uint32(4_294_967_295), balanced=np.bool_(True)),
    ):
        Training(config)  # validates and builds; no error
