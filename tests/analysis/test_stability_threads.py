"""In-process threads (``InProcess(threads=2)``) give the report of ``threads=1``, table
for table, and a task's stop event cancels it at its next progress point."""

from __future__ import annotations

import threading

import numpy as np
import pandas as pd
import pytest

from yardstick.analysis.stability.report import StabilitySettings, run_stability
from yardstick.common.executor import InProcess
from yardstick.common.progress import Cancelled, Progress, run_sync, stop_event


def _matrix(seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    vals = np.clip(rng.beta(2, 5, (30, 1)) + np.linspace(0, 0.2, 12) + rng.normal(0, .1, (30, 12)),
                   0, 1)
    return pd.DataFrame(vals, index=[f"t{i}" for i in range(30)],
                        columns=[f"r{j}" for j in range(12)])


def test_two_threads_give_the_sequential_report():
    mats = {"map": _matrix(1), "P_10": _matrix(2)}
    topics = list(mats["map"].index)
    st = StabilitySettings(samples=40, seed=7)
    analyses = ["swap", "bootstrap", "error-rate", "discriminative"]
    reports = []
    for threads in (1, 2):
        with InProcess(threads=threads) as ex:
            reports.append(run_sync(run_stability(mats, analyses, {"all": topics}, st,
                                                  mats["map"], ex)))
    one, two = reports
    assert [t.name for t in one.tables] == [t.name for t in two.tables]
    for a, b in zip(one.tables, two.tables):
        pd.testing.assert_frame_equal(a.frame, b.frame, check_exact=True)
    assert one.notes == two.notes


def test_tasks_submitted_ahead_give_the_sequential_report_notes_and_progress():
    # every resampling analysis's tasks go to the threads before the first result is read;
    # a measure an analysis skips (area: not a topic mean) keeps its note and place
    mats = {"map": _matrix(3), "area": _matrix(4)}
    topics = list(mats["map"].index)
    st = StabilitySettings(samples=30, seed=5)
    analyses = ["swap", "discriminative", "topic-set-size", "error-rate"]
    with InProcess(threads=1) as ex:
        one = run_sync(run_stability(mats, analyses, {"all": topics}, st, mats["map"], ex))
    seen: list[Progress] = []

    class Counting(InProcess):
        submitted_before_first_result = None

        def results(self, futures):
            if Counting.submitted_before_first_result is None:
                Counting.submitted_before_first_result = self.stats.tasks
            yield from super().results(futures)

    with Counting(threads=2) as ex:
        two = run_sync(run_stability(mats, analyses, {"all": topics}, st, mats["map"], ex),
                       on_progress=seen.append)
    assert Counting.submitted_before_first_result == 2 + 1 + 2     # discriminative: map only
    assert [t.name for t in one.tables] == [t.name for t in two.tables]
    for a, b in zip(one.tables, two.tables):
        pd.testing.assert_frame_equal(a.frame, b.frame, check_exact=True)
    assert one.notes == two.notes and any("area skipped" in n for n in two.notes)
    fractions = [p.done / p.total for p in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0


def test_stop_event_cancels_run_sync():
    def job():
        yield Progress(0, 2)
        yield Progress(1, 2)
        return "done"

    ev = threading.Event()
    with stop_event(ev):
        assert run_sync(job()) == "done"
        ev.set()
        with pytest.raises(Cancelled):
            run_sync(job())
    assert run_sync(job()) == "done"          # outside the context the event is not seen
