"""The pool report's heavy parts as executor tasks (:mod:`yardstick.common.executor`).

Each is the call the report makes in-process, run to the end on a worker: the
same arguments give the same result wherever it runs (the simulations' random
orders are seeded by the report's seed).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from yardstick.analysis.pool.reconstruction import reconstruct_pool
from yardstick.analysis.pool.simulation import iter_simulate
from yardstick.analysis.pool.uniques import iter_leave_out_uniques
from yardstick.common.progress import run_sync
from yardstick.evaluation.runs_on_executor import travelling
from yardstick.judging.judged_runs import JudgedRuns

__all__ = ["uniques_task", "simulate_task", "portable"]


def uniques_task(index: JudgedRuns, depth: np.ndarray, unit: str, measure: str,
                  min_score: float | None):
    """Leave-out-uniques by one unit, as an executor task (the pool rebuilt there)."""
    return run_sync(iter_leave_out_uniques(index, depth, unit, measure, min_score,
                                           reconstruct_pool(index, depth)))


def simulate_task(index: JudgedRuns, depth: np.ndarray, strategy: str, levels, measures,
                   reference: str, seed: int):
    """One simulated strategy at all its levels, as an executor task."""
    return run_sync(iter_simulate(index, depth, strategy, levels, measures, reference, seed))


def portable(index: JudgedRuns) -> JudgedRuns:
    """``index`` with what cannot travel to another process left out: per-run caches in
    ``Run.meta`` that hold weak references (the judgments cached per qrels); the tasks
    rebuild any cache they need."""
    return replace(index, runs=tuple(travelling(r) for r in index.runs))
