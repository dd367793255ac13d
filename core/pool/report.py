"""Every pool diagnostic in one background job: what the CLI prints and the panel shows.

:func:`iter_pool_report` runs the analyses chosen in :class:`PoolSettings`
over one :class:`~yardstick.judged_runs.JudgedRuns` (and, for titlestat, one
:class:`~core.pool.titlestat.TitleIndex`), yielding progress, and returns a
:class:`PoolReport` whose :meth:`PoolReport.tables` names every table for
export.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from yardstick.pool.characteristics import CollectionCharacteristics, collection_characteristics
from yardstick.judged_runs import JudgedRuns
from yardstick.pool.reconstruction import PoolStatistics, pool_statistics, reconstruct_pool
from yardstick.pool.relevant_sources import (DepthCurve, EarliestRanks, earliest_ranks,
                                        relevance_by_rank, relevant_by_depth)
from yardstick.pool.simulation import SIM_MEASURES, SimulationResult, iter_simulate
from yardstick.pool.titlestat import (JudgmentComparison, TitleIndex, TitlestatResult,
                                 compare_judgment_sets, titlestat_rel)
from yardstick.pool.titlestat_pool import (TitlestatRank, titlestat_rank, titlestat_runs,
                                      titlestat_uniques)
from yardstick.pool.uniques import UniquesResult, iter_leave_out_uniques
from yardstick.progress import Progress
from yardstick.qrels import Qrels

ANALYSES = ("stats", "sources", "uniques", "titlestat", "simulate")


@dataclass(frozen=True)
class PoolSettings:
    """What to compute.

    Attributes
    ----------
    depth : int or {topic: depth}
        Pool depth (per topic when a mapping; ``default_depth`` for the rest).
    default_depth : int or None
    analyses : subset of :data:`ANALYSES`
    measure : str
        Measure of the uniques test (``map`` in the papers).
    min_score : float or None
        Uniques test: runs below it are left out of the mean/max.
    max_rank : int
        Ranks shown for P(relevant) (Fig. 2).
    titlestat_max_rank : int
        Ranks of titlestat_rank (Fig. 1/3).
    strategies : simulation strategies to run
    levels : {strategy: levels}; missing strategies get :func:`default_levels`
    sim_measures : measures re-scored by the simulations
    seed : int
    collection : str
        Name for the characteristics row.
    """

    depth: int | Mapping[str, int] = 100
    default_depth: int | None = None
    analyses: tuple[str, ...] = ANALYSES
    measure: str = "map"
    min_score: float | None = None
    max_rank: int = 1000
    titlestat_max_rank: int = 100
    strategies: tuple[str, ...] = ("depth", "mtf", "random")
    levels: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    sim_measures: tuple[str, ...] = SIM_MEASURES
    seed: int = 0
    collection: str = "collection"


def default_levels(strategy: str, depth: int, mean_pool: float, n_units: int) -> tuple[int, ...]:
    """Levels used when none are given: depths up to the pool depth, budgets up to
    the mean pool size, 1..all pooled groups."""
    if strategy == "depth":
        return tuple(sorted({d for d in (1, 5, 10, 20, 30, 50, 75, 100, depth) if d <= depth}))
    if strategy == "runs":
        return tuple(sorted({max(1, round(n_units * f)) for f in (0.1, 0.25, 0.5, 0.75, 1.0)}))
    return tuple(sorted({max(1, int(round(mean_pool * f)))
                         for f in (0.05, 0.1, 0.2, 0.35, 0.5, 0.75, 1.0)}))


@dataclass(frozen=True, eq=False)
class PoolReport:
    """Results of :func:`iter_pool_report` (None where not computed)."""

    settings: PoolSettings
    stats: PoolStatistics | None = None
    earliest: EarliestRanks | None = None
    p_rel: pd.DataFrame | None = None
    depth_curve: DepthCurve | None = None
    uniques_run: UniquesResult | None = None
    uniques_group: UniquesResult | None = None
    titlestat_rel: TitlestatResult | None = None
    titlestat_runs: pd.DataFrame | None = None
    titlestat_uniques: pd.DataFrame | None = None
    titlestat_rank: TitlestatRank | None = None
    titlestat_compare: JudgmentComparison | None = None
    simulations: dict[str, SimulationResult] = field(default_factory=dict)
    characteristics: CollectionCharacteristics | None = None
    notes: tuple[str, ...] = ()

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every table by a file-friendly name."""
        t: dict[str, pd.DataFrame] = {}
        if self.stats is not None:
            t["pool_summary"] = self.stats.summary.to_frame("value")
            t["pool_per_topic"] = self.stats.per_topic
            t["pool_per_run"] = self.stats.per_run
            t["judged_outside_pool"] = self.stats.outside
            t["pooled_not_in_qrels"] = self.stats.missing
        if self.earliest is not None:
            t["earliest_rank"] = self.earliest.frame
            t["earliest_rank_histogram"] = self.earliest.histogram(10)
        if self.p_rel is not None:
            t["p_rel_by_rank"] = self.p_rel
        if self.depth_curve is not None:
            t["relevant_by_depth"] = self.depth_curve.curve
            t["deeper_pool_estimate"] = self.depth_curve.extrapolated
        for name, u in (("uniques_run", self.uniques_run), ("uniques_group", self.uniques_group)):
            if u is not None:
                t[name] = u.frame
                t[f"{name}_summary"] = u.summary.to_frame("value")
                t[f"{name}_units"] = u.per_unit
                if u.removed is not None:
                    t[f"{name}_removed"] = u.removed
        if self.titlestat_rel is not None:
            t["titlestat_rel"] = self.titlestat_rel.per_topic
        if self.titlestat_runs is not None:
            t["titlestat_runs"] = self.titlestat_runs
        if self.titlestat_uniques is not None:
            t["titlestat_uniques"] = self.titlestat_uniques
        if self.titlestat_rank is not None:
            t["titlestat_rank"] = self.titlestat_rank.frame
        if self.titlestat_compare is not None:
            c = self.titlestat_compare
            t["titlestat_compare"] = c.per_topic
            t["titlestat_compare_test"] = pd.Series({
                "a": c.names[0], "b": c.names[1], "topics": c.topics, "a_higher": c.a_higher,
                "mean_a": c.per_topic["a"].mean(), "mean_b": c.per_topic["b"].mean(),
                "t": c.t_statistic, "p_value": c.p_value}).to_frame("value")
        for name, s in self.simulations.items():
            t[f"simulation_{name}"] = s.levels
        if self.characteristics is not None:
            t["characteristics"] = self.characteristics.to_frame()
        return t


def iter_pool_report(index: JudgedRuns, settings: PoolSettings,
                     title_index: TitleIndex | None = None, documents: int | None = None,
                     compare_qrels=None) -> Generator[Progress, None, PoolReport]:
    """Run the selected analyses, yielding progress (fractions of the whole job).

    ``compare_qrels``: a second judgment set on the same documents and topics,
    compared with the loaded qrels by titlestat_rel (Buckley et al. Fig. 4).
    """
    s = settings
    wanted = [a for a in ANALYSES if a in s.analyses]
    unknown = set(s.analyses) - set(ANALYSES)
    if unknown:
        raise ValueError(f"unknown analyses: {', '.join(sorted(unknown))}")
    depth = index.depth_array(s.depth, s.default_depth)
    k = int(depth.max()) if len(depth) else 0
    weights = {"stats": 1, "sources": 1, "uniques": 2, "titlestat": 2,
               "simulate": 4 * max(1, len(s.strategies))}
    total = float(sum(weights[a] for a in wanted)) or 1.0
    done = 0.0
    out: dict = {"settings": s}
    notes: list[str] = []

    def sub(gen, share: float, label: str):
        nonlocal done
        start = done
        while True:
            try:
                p = next(gen)
            except StopIteration as stop:
                done = start + share
                return stop.value
            yield Progress(start + share * p.fraction, total, f"{label}: {p.message}")

    yield Progress(0, total, "rebuilding the pool")
    pool = reconstruct_pool(index, depth)
    if "stats" in wanted:
        out["stats"] = pool_statistics(index, depth, pool=pool)
        done += weights["stats"]
        yield Progress(done, total, "pool statistics")
    if "sources" in wanted:
        er = earliest_ranks(index, depth)
        out["earliest"] = er
        out["p_rel"] = relevance_by_rank(index, s.max_rank)
        if k > 0:
            out["depth_curve"] = relevant_by_depth(er)
        done += weights["sources"]
        yield Progress(done, total, "sources of relevant documents")
    if "uniques" in wanted:
        for unit in ("run", "group"):
            res = yield from sub(iter_leave_out_uniques(index, depth, unit, s.measure,
                                                        s.min_score, pool), 1.0,
                                 f"uniques by {unit}")
            out[f"uniques_{unit}"] = res
    if "titlestat" in wanted:
        if title_index is None:
            notes.append("titlestat needs documents and topics with titles")
        else:
            qrels_frame = index.qrels_frame()
            out["titlestat_rel"] = titlestat_rel(title_index, Qrels.from_frame(qrels_frame),
                                                 index.relevance_level)
            yield Progress(done + 0.5, total, "titlestat of runs")
            out["titlestat_runs"] = titlestat_runs(title_index, index, depth=None)
            out["titlestat_uniques"] = titlestat_uniques(title_index, index, depth, "group", pool)
            yield Progress(done + 1.5, total, "titlestat by rank")
            out["titlestat_rank"] = titlestat_rank(title_index, index, s.titlestat_max_rank, k)
            if compare_qrels is not None:
                out["titlestat_compare"] = compare_judgment_sets(
                    title_index, Qrels.from_frame(qrels_frame, name=index.qrels_name),
                    compare_qrels, relevance_level=index.relevance_level)
        done += weights["titlestat"]
        yield Progress(done, total, "titlestat")
    if "simulate" in wanted:
        mean_pool = float(np.bincount(index.key_topic(pool.keys), minlength=index.n_topics)
                          [depth > 0].mean()) if (depth > 0).any() else 0.0
        n_units = len(set(index.run_group[index.pooled].tolist()))
        share = weights["simulate"] / max(1, len(s.strategies))
        sims = {}
        for strat in s.strategies:
            levels = s.levels.get(strat) or default_levels(strat, k, mean_pool, n_units)
            sims[strat] = yield from sub(iter_simulate(index, depth, strat, levels,
                                                       s.sim_measures, s.measure, s.seed),
                                         share, f"simulation {strat}")
        out["simulations"] = sims
    out["characteristics"] = collection_characteristics(
        s.collection, out.get("stats"), out.get("uniques_group"), out.get("titlestat_rel"),
        documents=documents)
    out["notes"] = tuple(notes)
    yield Progress(total, total, "done")
    return PoolReport(**out)
