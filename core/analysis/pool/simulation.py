"""Cheaper judgment sets simulated from the full qrels, and how the ranking of runs moves.

Buckley et al. 2007, §6 (“Bias and the limits of pooling for large collections”, Information
Retrieval 2007) weigh ways to spend a judging budget
differently: shallower pools, move-to-front pooling (Cormack, Palmer & Clarke,
SIGIR 1998) and random sampling (Aslam et al. 2005/2006), with bpref to
evaluate on partial judgments.  Here every strategy judges a subset of the
documents the full qrels already judge, at growing *levels*:

* ``depth`` — pool depth d (the depth-d pool of the pooled runs);
* ``runs`` — the first n pooled groups (or runs) of a seeded random order;
* ``mtf`` — move-to-front pooling, a budget of b documents per topic.  As
  Buckley et al. describe it: every pooled run starts with the same (maximum)
  priority; the next document judged is the highest-ranked unjudged document
  of the run with the highest priority; a non-relevant document lowers that
  run's priority by one, a relevant one gives it the maximum priority again.
  Ties go to the run just judged, else to the first tied run in a seeded
  random order of the runs (the runs' own order when ``seed`` is None).  A document
  the full qrels do not judge costs budget and counts as non-relevant;
* ``random`` — a uniform random sample of b documents per topic from the pool
  (seeded); the pool documents left out are marked "pooled but unjudged"
  (trec_eval's negative qrels value) so that infAP (Yilmaz & Aslam 2006) can
  use them; a sampled document the full qrels lack stays unjudged.

Each level's judgments re-score every run (no file is written): with
unjudged documents taken as non-relevant (``map``), on the condensed list of
judged documents only (``map_judged``: trec_eval ``-J``, Sakai SIGIR 2007),
``bpref`` and ``infAP``; the ranking of runs is compared with the one the
full qrels give (MAP by default) by Kendall's tau and tau_AP (Yilmaz, Aslam &
Robertson 2008; :mod:`yardstick.analysis.stability.rank_correlation`).  Topics stay those
of the full qrels; a topic left with no relevant document scores 0.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from yardstick.analysis.pool import scoring
from yardstick.analysis.pool.judging_orders import (  # noqa: F401 (the orders, named here too)
    JudgingOrder,
    iter_order_move_to_front,
    order_by_depth,
    order_by_runs,
    order_move_to_front,
    order_random,
)
from yardstick.analysis.pool.placed_order import PlacedOrder, iter_place_order
from yardstick.analysis.pool.reconstruction import Depth, reconstruct_pool
from yardstick.analysis.stability.rank_correlation import kendall_tau, system_ranking, tau_ap
from yardstick.common.progress import Progress, run_sync
from yardstick.evaluation.results import mean_over_topics
from yardstick.inputs.io.read_progress import scaled
from yardstick.judging.judged_runs import NONPOOL, JudgedRuns
from yardstick.judging.judged_subset import (
    qrels_entries,
)

STRATEGIES = ("depth", "runs", "mtf", "random")
SIM_MEASURES = ("map", "map_judged", "bpref", "infAP")

def judgments_at(index: JudgedRuns, order: JudgingOrder, level: int
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-entry judgments, R and N per topic under one level of a judging order.

    Returns
    -------
    rel : per entry (original value where judged at this level, else -1; -2 for
        unsampled members of a random sample's pool)
    num_rel, num_nonrel : per topic, among the simulated judgments
    """
    rel, levels = simulated_judgments(index, order, level)
    lvl = min(max(index.relevance_level, 0), levels.shape[1])
    return rel, levels[:, lvl:].sum(axis=1), levels[:, :lvl].sum(axis=1)


def simulated_judgments(index: JudgedRuns, order: JudgingOrder, level: int
                        ) -> tuple[np.ndarray, np.ndarray]:
    """Per-entry judgments and the ``(n_topics, L)`` judgment counts per level (what
    :meth:`JudgedRuns.judged` takes) under one level of a judging order."""
    located = run_sync(iter_place_order(index, order))
    rel_c, levels, entries = located.at(level)
    rel = np.full(index.n_entries, NONPOOL, index.e_rel.dtype)
    rel[entries.idx] = rel_c
    return rel, levels


@dataclass(frozen=True, eq=False)
class SimulationResult:
    """Rank agreement with the full qrels at each level of one strategy.

    Attributes
    ----------
    strategy : str
    reference : str
        Measure of the full-qrels ranking.
    levels : pandas.DataFrame
        One row per (level, measure): judged (mean per topic), relevant
        (found, all topics), share_relevant (of the relevant documents the
        strategy can reach: the official pool, or for move-to-front everything
        the pooled runs retrieved; at most 1), kendall_tau, tau_ap.
    scores : pandas.DataFrame
        Long form: level, measure, run, score; level ``full`` holds the
        full-qrels scores.
    seed : int or None
        The seed of the judging order (None for ``depth``, which is not random):
        the same seed gives the same result.
    """

    strategy: str
    reference: str
    levels: pd.DataFrame
    scores: pd.DataFrame
    seed: int | None = None

    def to_frame(self) -> pd.DataFrame:
        return self.levels


@dataclass(frozen=True, eq=False)
class SimulationSetup:
    """What every level of one strategy reads: its judging order placed on the entries,
    the reference ranking, the relevant documents it can reach (:func:`iter_setup`)."""

    strategy: str
    located: PlacedOrder
    full: pd.DataFrame        # the reference scores (level "full" of ``scores``)
    ref_rank: pd.Series
    reachable: int


def iter_setup(index: JudgedRuns, depth: Depth, strategy: str, levels: Sequence[int],
               reference: str = "map", seed: int = 0, unit: str = "group", total: float = 1
               ) -> Generator[Progress, None, SimulationSetup]:
    """The judging order of ``strategy`` for ``levels``, placed on the entries, and the
    reference ranking (a progress generator over ``0 .. 1`` of ``total``)."""
    levels = _levels(strategy, levels)
    yield Progress(0, total, f"{strategy}: ordering the judgments")
    if strategy == "depth":
        order = order_by_depth(index, max(max(levels), int(index.depth_array(depth).max())))
    elif strategy == "runs":
        order = order_by_runs(index, depth, unit=unit, seed=seed)
    elif strategy == "random":
        order = order_random(index, depth, seed=seed)
    else:
        order = yield from scaled(iter_order_move_to_front(index, max(levels), seed=seed),
                                  0, 2 * total)   # the first half of step 0
    yield Progress(0.5, total, f"{strategy}: locating the judgments")
    located = yield from iter_place_order(index, order, 0.5, total,
                                      f"{strategy}: locating the judgments")
    names = list(index.run_names)
    full = yield from scoring.iter_full_scores(index, reference, 0.6, total,
                                               f"{strategy}: scoring with the full qrels")
    ref = pd.Series(mean_over_topics(full, index.evaluated(), axis=1), index=names)
    yield Progress(0.8, total, f"{strategy}: the reachable relevant documents")
    # the denominator of share_relevant: what the strategy could judge at most (the
    # official pool; move-to-front reads the pooled runs to their full depth)
    reachable = (_relevant_retrieved(index) if strategy == "mtf"
                 else _reachable_relevant(index, reconstruct_pool(index, depth).keys))
    return SimulationSetup(strategy, located, pd.DataFrame(
        {"level": "full", "measure": reference, "run": names, "score": ref.to_numpy()}),
        system_ranking(ref), reachable)


def iter_levels(index: JudgedRuns, setup: SimulationSetup, levels: Sequence[int],
                measures: Sequence[str] = SIM_MEASURES, step: float = 1, total: float = 1
                ) -> Generator[Progress, None, tuple[list[dict], list[pd.DataFrame]]]:
    """The rows of :attr:`SimulationResult.levels` and :attr:`SimulationResult.scores` of
    some ``levels`` of a strategy (each level apart from the others: any subset gives
    the same rows), progress from ``step``, one a level."""
    evaluated = index.evaluated()
    names = list(index.run_names)
    strategy, ref_rank, reachable = setup.strategy, setup.ref_rank, setup.reachable
    located = setup.located.complete(index)     # (a copy that travelled: made whole)
    rows, score_rows = [], []
    for i, level in enumerate(levels):
        yield Progress(step + i, total, f"{strategy}: level {level}")
        rel, counts, entries = located.at(level)
        lvl = min(max(index.relevance_level, 0), counts.shape[1])
        num_rel, num_nonrel = counts[:, lvl:].sum(axis=1), counts[:, :lvl].sum(axis=1)
        judged_per_topic = (num_rel + num_nonrel)[index.in_qrels].mean()
        per_topic = yield from scoring.iter_score_subset(
            index, entries, measures, rel, counts, step + i, total,
            f"{strategy}: level {level}")
        for m in measures:
            s = pd.Series(mean_over_topics(per_topic[m], evaluated, axis=1), index=names)
            rank = system_ranking(s)
            tau = kendall_tau(ref_rank, rank)[0] if len(names) > 1 else np.nan
            tap = tau_ap(ref_rank, rank) if len(names) > 1 else np.nan
            rows.append({"level": level, "measure": m, "judged": judged_per_topic,
                         "relevant": int(num_rel.sum()),
                         "share_relevant": num_rel.sum() / reachable if reachable else np.nan,
                         "kendall_tau": tau, "tau_ap": tap})
            score_rows.append(pd.DataFrame({"level": str(level), "measure": m, "run": names,
                                            "score": s.to_numpy()}))
    return rows, score_rows


def simulation_result(strategy: str, reference: str, seed: int, full: pd.DataFrame,
                      parts: Sequence[tuple[list[dict], list[pd.DataFrame]]]
                      ) -> SimulationResult:
    """One :class:`SimulationResult` from the :func:`iter_levels` rows of its levels, in
    level order, whether computed at once or a level at a time."""
    rows = [r for p in parts for r in p[0]]
    score_rows = [full] + [f for p in parts for f in p[1]]
    return SimulationResult(strategy=strategy, reference=reference,
                            levels=pd.DataFrame(rows), scores=pd.concat(score_rows,
                                                                        ignore_index=True),
                            seed=None if strategy == "depth" else seed)


def _levels(strategy: str, levels: Sequence[int]) -> list[int]:
    levels = sorted({int(x) for x in levels})
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}")
    if not levels:
        raise ValueError("at least one level is needed")
    return levels


def iter_simulate(index: JudgedRuns, depth: Depth, strategy: str, levels: Sequence[int],
                  measures: Sequence[str] = SIM_MEASURES, reference: str = "map",
                  seed: int = 0, unit: str = "group"
                  ) -> Generator[Progress, None, SimulationResult]:
    """Simulate one strategy at several levels (progress generator); see the module docstring.

    Parameters
    ----------
    index : JudgedRuns
    depth : the official pool depth (candidates of depth/runs/random)
    strategy : one of :data:`STRATEGIES`
    levels : depths (``depth``), numbers of groups/runs (``runs``) or budgets
        per topic (``mtf``, ``random``)
    measures : any of :data:`SIM_MEASURES` (or ``P_k``)
    reference : measure scored with the full qrels for the reference ranking
    seed : for ``runs``, ``mtf`` and ``random``
    unit : ``group`` or ``run`` for the ``runs`` strategy
    """
    levels = _levels(strategy, levels)
    total = len(levels) + 1
    setup = yield from iter_setup(index, depth, strategy, levels, reference, seed, unit, total)
    part = yield from iter_levels(index, setup, levels, measures, 1, total)
    yield Progress(total, total, "done")
    return simulation_result(strategy, reference, seed, setup.full, [part])


def simulate(index: JudgedRuns, depth: Depth, strategy: str, levels: Sequence[int],
             measures: Sequence[str] = SIM_MEASURES, reference: str = "map", seed: int = 0,
             unit: str = "group") -> SimulationResult:
    """See :func:`iter_simulate`."""
    return run_sync(iter_simulate(index, depth, strategy, levels, measures, reference, seed, unit))


def _relevant_retrieved(index: JudgedRuns) -> int:
    """Relevant documents any pooled run retrieved, at any depth (what move-to-front can
    reach): distinct keys of the pooled entries judged relevant, marked by their judgment's
    position in the qrels (the qrels' entries know it: no sort of the entries' keys, which
    took a quarter of move-to-front's setup on 110 runs x 250 topics)."""
    entries = qrels_entries(index)
    if index.relevance_level < 0 or entries.qpos is None:     # (not the qrels' entries)
        sel = np.flatnonzero(index.e_rel >= index.relevance_level)
        sel = sel[index.pooled[index.entry_run(sel)]]
        return len(np.unique(index.entry_keys(sel)))
    # a relevant entry (>= 0) is one the qrels hold; the pooled runs' segments, per entry
    keep = np.repeat(np.repeat(index.pooled, index.n_topics), np.diff(entries.start))
    keep &= index.e_rel[entries.idx] >= index.relevance_level
    judged = np.zeros(len(index.q_key), bool)
    judged[entries.qpos[keep]] = True
    return int(judged.sum())


def _reachable_relevant(index: JudgedRuns, pool_keys: np.ndarray) -> int:
    """Relevant documents of the official pool (the denominator of share_relevant)."""
    found, v = index.lookup(pool_keys)
    return int((found & (v >= index.relevance_level)).sum())
