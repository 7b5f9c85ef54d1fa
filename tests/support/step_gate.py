"""The writing end of a training worker's step gate (ATTNVIZ_TRAIN_STEP_GATE, attnviz/train/background.py): a test
holds a run at a log point, however fast the machine trains, and lets it on a byte at a time."""

from __future__ import annotations

import errno
import os
import time


def open_gate(fifo, *, timeout_s: float = 60) -> int:
    """The writing end of the gate, once the worker holds the reading end (it opens it at its first log point)."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as error:  # ENXIO: no reader yet
            if error.errno != errno.ENXIO or time.monotonic() > deadline:
                raise
        time.sleep(0.05)
