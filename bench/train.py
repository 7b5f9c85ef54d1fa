"""Training benchmark (issue 12): the reference text's setting must train in 10 s or less on this machine, with
progress events often enough for a page to redraw at least twice a second; the largest run the caps allow too.
"""

from __future__ import annotations

import itertools
import statistics
import time

from attnviz.train import TrainConfig, train

TEXT_SETTING = TrainConfig(seed=0)  # 8,000 samples, 10 epochs, batch 32: 2,500 steps
LARGEST = TrainConfig(samples=12_000, epochs=10, batch_size=30)  # at both caps: 120,000 sample passes, 4,000 steps


def _timed_run(config: TrainConfig) -> tuple[float, list[float]]:
    """Seconds for the whole run (data, training, held-out verdict) and the time of every progress event."""
    event_times: list[float] = []
    started = time.perf_counter()
    train(config, lambda _progress: event_times.append(time.perf_counter()))
    return time.perf_counter() - started, [t - started for t in event_times]


def _row(measure: str, values: list[float], unit: str, target: float | None, detail: str) -> dict:
    value = statistics.median(values)
    return {
        "measure": measure,
        "value": value,
        "unit": unit,
        "target": None if target is None else (f"≥ {target:g}" if unit == "events/s" else f"≤ {target:g} {unit}"),
        "met": None if target is None else (value >= target if unit == "events/s" else value <= target),
        "n": len(values),
        "detail": detail,
    }


def run(repeat: int = 5, largest_repeat: int = 3) -> list[dict]:
    runs = [_timed_run(TEXT_SETTING) for _ in range(repeat)]
    seconds = [total for total, _ in runs]
    rates = [(len(events) - 1) / (events[-1] - events[0]) for _, events in runs]
    waits = [[b - a for a, b in itertools.pairwise([0.0, *events, total])] for total, events in runs]  # start to end
    gaps = [max(run_waits) for run_waits in waits]
    largest = [_timed_run(LARGEST)[0] for _ in range(largest_repeat)]
    steps = TEXT_SETTING.total_steps
    return [
        _row(
            "train: text setting (8,000 samples, 10 epochs, batch 32)",
            seconds,
            "s",
            10,
            f"{steps} steps, {statistics.median(seconds) / steps * 1e3:.2f} ms/step; min {min(seconds):.2f} s",
        ),
        _row("train: progress events while training", rates, "events/s", 2, f"{len(runs[0][1])} events per run"),
        _row("train: longest wait without a progress event", gaps, "s", 0.5, "start, events and the final verdict"),
        _row(
            f"train: largest allowed run ({LARGEST.samples:,} samples, {LARGEST.epochs} epochs, "
            f"batch {LARGEST.batch_size})",
            largest,
            "s",
            10,
            f"{LARGEST.total_steps:,} steps; min {min(largest):.2f} s",
        ),
    ]
