"""Training benchmark: the reference text's setting must train in 10 s or less on this machine, with
progress events often enough for a page to redraw at least twice a second; the largest run the caps allow too.
"""

from __future__ import annotations

import itertools
import math
import statistics
import time

from attnviz.train import TrainConfig, train
from attnviz.train.config import MAX_SAMPLE_PASSES, MAX_TRAIN_STEPS

TEXT_SETTING = TrainConfig(seed=0)  # the reference text's setting: TrainConfig's defaults
CAPPED_EPOCHS = TEXT_SETTING.epochs
CAPPED_SAMPLES = MAX_SAMPLE_PASSES // CAPPED_EPOCHS  # as many samples as the cap on sample passes allows
# At both caps: every sample pass the server allows, in the smallest batches its cap on steps allows.
LARGEST = TrainConfig(
    samples=CAPPED_SAMPLES,
    epochs=CAPPED_EPOCHS,
    batch_size=math.ceil(CAPPED_SAMPLES / (MAX_TRAIN_STEPS // CAPPED_EPOCHS)),
)


def _timed_run(config: TrainConfig) -> tuple[float, list[float], float]:
    """Seconds for the whole run (data, training, held-out verdict), the time of every progress event, and the CPU
    seconds of this process (less sensitive than the wall clock to other work on a shared machine)."""
    event_times: list[float] = []
    started, cpu_started = time.perf_counter(), time.process_time()
    train(config, lambda _progress: event_times.append(time.perf_counter()))
    return time.perf_counter() - started, [t - started for t in event_times], time.process_time() - cpu_started


def _row(measure: str, values: list[float], unit: str, detail: str, *, at_most=None, at_least=None) -> dict:
    value = statistics.median(values)
    if at_most is not None:
        target, met = f"≤ {at_most:g} {unit}", value <= at_most
    else:
        target, met = f"≥ {at_least:g} {unit}", value >= at_least
    return {
        "measure": measure,
        "value": value,
        "unit": unit,
        "target": target,
        "met": met,
        "n": len(values),
        "detail": detail,
    }


def run(repeat: int = 5, largest_repeat: int = 3) -> list[dict]:
    runs = [_timed_run(TEXT_SETTING) for _ in range(repeat)]
    seconds = [total for total, _, _ in runs]
    cpu = statistics.median(cpu_seconds for _, _, cpu_seconds in runs)
    rates = [(len(events) - 1) / (events[-1] - events[0]) for _, events, _ in runs]
    waits = [[b - a for a, b in itertools.pairwise([0.0, *events, total])] for total, events, _ in runs]  # start to end
    gaps = [max(run_waits) for run_waits in waits]
    largest_runs = [_timed_run(LARGEST) for _ in range(largest_repeat)]
    largest = [total for total, _, _ in largest_runs]
    largest_cpu = statistics.median(cpu_seconds for _, _, cpu_seconds in largest_runs)
    steps = TEXT_SETTING.total_steps
    return [
        _row(
            f"train: text setting ({TEXT_SETTING.samples:,} samples, {TEXT_SETTING.epochs} epochs, "
            f"batch {TEXT_SETTING.batch_size})",
            seconds,
            "s",
            f"{steps} steps, {statistics.median(seconds) / steps * 1e3:.2f} ms/step; min {min(seconds):.2f} s; "
            f"CPU {cpu:.2f} s",
            at_most=10,
        ),
        _row("train: progress events while training", rates, "events/s", f"{len(runs[0][1])} a run", at_least=2),
        _row("train: longest wait without a progress event", gaps, "s", "start, events, final verdict", at_most=0.5),
        _row(
            f"train: largest allowed run ({LARGEST.samples:,} samples, {LARGEST.epochs} epochs, "
            f"batch {LARGEST.batch_size})",
            largest,
            "s",
            f"{LARGEST.total_steps:,} steps; min {min(largest):.2f} s; CPU {largest_cpu:.2f} s",
            at_most=10,
        ),
    ]
