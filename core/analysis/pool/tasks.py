"""The pool report's heavy parts as executor tasks (:mod:`yardstick.common.executor`).

Each is the call the report makes in-process, run on a worker: the same arguments give
the same result wherever it runs (the simulations' random orders are seeded by the
report's seed).  What they read goes to the workers once, as a :class:`Shipment`: the
judged runs as plain arrays (:meth:`~yardstick.judging.judged_runs.JudgedRuns.compact`,
a few bytes per ranked document: docno code, judgment, segment offsets) with what every
task would otherwise compute again there (the entries the qrels hold and the full-qrels
scores).  A simulated strategy is one setup task (its judging order placed on the
entries) and a task per level reading that setup, so that the tasks are of similar sizes
and the levels of one strategy run on several workers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from yardstick.analysis.pool import scoring
from yardstick.analysis.pool.reconstruction import Pool, reconstruct_pool, share_pool
from yardstick.analysis.pool.relevant_sources import (
    earliest_ranks,
    relevance_by_rank,
    relevant_by_depth,
)
from yardstick.analysis.pool.simulation import SimulationSetup, iter_levels, iter_setup
from yardstick.analysis.pool.uniques import iter_leave_out_uniques
from yardstick.common.progress import Progress, run_sync
from yardstick.judging.judged_runs import JudgedRuns
from yardstick.judging.judged_subset import SubsetEntries, qrels_entries, share_qrels_entries

__all__ = ["Shipment", "shipment", "uniques_task", "setup_task", "levels_task",
           "sources_task", "iter_sources"]


@dataclass(frozen=True, eq=False)
class Shipment:
    """What the pool's tasks read, sent to each worker once."""

    index: JudgedRuns
    entries: SubsetEntries
    full: dict
    pool: Pool | None = None

    def judged_runs(self) -> JudgedRuns:
        """The index, with the entries, full-qrels scores and pool sent along as its
        caches."""
        share_qrels_entries(self.index, self.entries)
        scoring.share_full_scores(self.index, self.full)
        if self.pool is not None:
            share_pool(self.index, self.pool)
        return self.index


def shipment(index: JudgedRuns, measures: Sequence[str], pool: Pool | None = None
             ) -> Shipment:
    """``index`` as a :class:`Shipment`, with the full-qrels scores of ``measures``
    (computed here once when not yet known: the report's own analyses read them too) and
    the report's rebuilt ``pool`` (every worker would otherwise rebuild it)."""
    for m in dict.fromkeys(measures):
        run_sync(scoring.iter_full_scores(index, m))
    return Shipment(index.compact(), qrels_entries(index), scoring.known_full_scores(index),
                    pool)


def uniques_task(ship: Shipment, depth: np.ndarray, unit: str, measure: str,
                 min_score: float | None):
    """Leave-out-uniques by one unit, as an executor task (the pool rebuilt there)."""
    index = ship.judged_runs()
    return run_sync(iter_leave_out_uniques(index, depth, unit, measure, min_score,
                                           reconstruct_pool(index, depth)))


def setup_task(ship: Shipment, depth: np.ndarray, strategy: str, levels, reference: str,
               seed: int) -> SimulationSetup:
    """A simulated strategy's judging order placed on the entries (for its level tasks)."""
    return run_sync(iter_setup(ship.judged_runs(), depth, strategy, levels, reference, seed))


def levels_task(ship: Shipment, setup: SimulationSetup, levels, measures):
    """Some levels of a simulated strategy: the rows of its tables."""
    return run_sync(iter_levels(ship.judged_runs(), setup, levels, measures))


def iter_sources(index: JudgedRuns, depth: np.ndarray, max_rank: int):
    """The sources of relevant documents (a progress generator, a cancellation point
    between its parts): earliest ranks, P(relevant) by rank and, for a pool depth above
    0, relevant documents by pool depth (the report's fields)."""
    yield Progress(0, 3, "sources of relevant documents")
    er = earliest_ranks(index, depth)
    yield Progress(1, 3, "P(relevant) by rank")
    out = {"earliest": er, "p_rel": relevance_by_rank(index, max_rank)}
    yield Progress(2, 3, "relevant documents by pool depth")
    if len(depth) and int(depth.max()) > 0:
        out["depth_curve"] = relevant_by_depth(er)
    return out


def sources_task(ship: Shipment, depth: np.ndarray, max_rank: int) -> dict:
    """:func:`iter_sources` as an executor task."""
    return run_sync(iter_sources(ship.judged_runs(), depth, max_rank))
