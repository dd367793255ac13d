"""The pool analyses, each registered once: how each runs, its tables, its summary line.

:data:`REGISTRY` names every analysis in the order
:func:`yardstick.analysis.pool.report.iter_pool_report` runs them (the CLI's
``--analysis`` choices, the panel's check boxes); each :class:`PoolAnalysis` reads one
:class:`PoolContext` (the judged runs, the settings, the pool rebuilt once) and fills
fields of a :class:`~yardstick.analysis.pool.report_types.PoolReport`.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from yardstick.analysis.pool import scoring
from yardstick.analysis.pool.reconstruction import pool_statistics
from yardstick.analysis.pool.report_types import (
    REGISTRY,
    PoolAnalysis,
    PoolReport,
    PoolSettings,
    default_levels,
    pool_analysis,
)
from yardstick.analysis.pool.simulation import iter_simulate, simulation_result
from yardstick.analysis.pool.tasks import (
    iter_sources,
    levels_task,
    setup_task,
    shipment,
    sources_task,
    uniques_task,
)
from yardstick.analysis.pool.titlestat import TitleIndex, compare_judgment_sets, titlestat_rel
from yardstick.analysis.pool.titlestat_pool import titlestat_rank, titlestat_runs, titlestat_uniques
from yardstick.analysis.pool.uniques import iter_leave_out_uniques
from yardstick.common.executor import Executor
from yardstick.common.progress import Progress, run_sync
from yardstick.evaluation.results import mean_over_topics
from yardstick.inputs.io.read_progress import scaled
from yardstick.inputs.qrels import Qrels
from yardstick.judging.judged_runs import JudgedRuns

__all__ = ["ANALYSES", "REGISTRY", "PoolAnalysis", "PoolContext", "pool_analysis",
           "send_heavy_parts"]


@dataclass
class PoolContext:
    """What every analysis of one report reads: the judged runs, the settings, the
    per-topic depth and the pool rebuilt once."""

    index: JudgedRuns
    settings: PoolSettings
    depth: np.ndarray
    pool: object
    title_index: TitleIndex | None = None
    documents: int | None = None
    compare_qrels: Qrels | None = None
    notes: list[str] = field(default_factory=list)
    #: executor futures of the analyses sent elsewhere, by (analysis, part)
    remote: dict = field(default_factory=dict)
    executor: Executor | None = None

    def part(self, key: tuple[str, str], compute: Generator):
        """The result of one part of an analysis: its executor task's when it was sent
        (waited for here), else ``compute`` run here."""
        if key not in self.remote:
            return (yield from compute)
        for _, value, error in self.executor.results([self.remote.pop(key)]):
            if error is not None:
                raise error
            return value

    @property
    def max_depth(self) -> int:
        return int(self.depth.max()) if len(self.depth) else 0


def _stats(ctx: PoolContext):
    yield Progress(0, 1, "pool statistics")
    return {"stats": pool_statistics(ctx.index, ctx.depth, pool=ctx.pool)}


def _stats_tables(r: PoolReport) -> dict[str, pd.DataFrame]:
    if r.stats is None:
        return {}
    return {"pool_summary": r.stats.summary.to_frame("value"),
            "pool_per_topic": r.stats.per_topic, "pool_per_run": r.stats.per_run,
            "judged_outside_pool": r.stats.outside, "pooled_not_in_qrels": r.stats.missing}


def _stats_summary(r: PoolReport) -> list[str]:
    if r.stats is None:
        return []
    s = r.stats.summary
    return [f"Mean pool {s['mean_pool_size']:.1f} documents, {100 * s['share_judged']:.1f}% "
            f"judged, {100 * s['share_relevant']:.1f}% relevant; "
            f"{int(s['pooled_not_in_qrels'])} pooled documents not in the qrels."]


def _sources(ctx: PoolContext):
    return (yield from ctx.part(("sources", "all"), iter_sources(ctx.index, ctx.depth,
                                                                 ctx.settings.max_rank)))


def _sources_tables(r: PoolReport) -> dict[str, pd.DataFrame]:
    t = {}
    if r.earliest is not None:
        t["earliest_rank"] = r.earliest.frame
        t["earliest_rank_histogram"] = r.earliest.histogram(10)
    if r.p_rel is not None:
        t["p_rel_by_rank"] = r.p_rel
    if r.depth_curve is not None:
        t["relevant_by_depth"] = r.depth_curve.curve
        t["deeper_pool_estimate"] = r.depth_curve.extrapolated
    return t


def _uniques(ctx: PoolContext):
    s, out = ctx.settings, {}
    for i, unit in enumerate(("run", "group")):
        out[f"uniques_{unit}"] = yield from ctx.part(("uniques", unit), scaled(
            iter_leave_out_uniques(ctx.index, ctx.depth, unit, s.measure, s.min_score,
                                   ctx.pool), i, 2, prefix=f"uniques by {unit}: "))
    return out


def _uniques_tables(r: PoolReport) -> dict[str, pd.DataFrame]:
    t = {}
    for name, u in (("uniques_run", r.uniques_run), ("uniques_group", r.uniques_group)):
        if u is not None:
            t[name] = u.frame
            t[f"{name}_summary"] = u.summary.to_frame("value")
            t[f"{name}_units"] = u.per_unit
            if u.removed is not None:
                t[f"{name}_removed"] = u.removed
    return t


def _uniques_summary(r: PoolReport) -> list[str]:
    return [f"Uniques by {u.unit}: mean {u.summary['mean_percent']:.2f}%, "
            f"max {u.summary['max_percent']:.2f}%, {u.summary['red_flags']} over 5%."
            for u in (r.uniques_run, r.uniques_group) if u is not None]


def _titlestat(ctx: PoolContext):
    index, s, out = ctx.index, ctx.settings, {}
    if ctx.title_index is None:
        ctx.notes.append("titlestat needs documents and topics with titles")
        return out
    qrels_frame = index.qrels_frame()
    out["titlestat_rel"] = titlestat_rel(ctx.title_index, Qrels.from_frame(qrels_frame),
                                         index.relevance_level)
    yield Progress(0.25, 1, "titlestat of runs")
    out["titlestat_runs"] = titlestat_runs(ctx.title_index, index, depth=None)
    out["titlestat_uniques"] = titlestat_uniques(ctx.title_index, index, ctx.depth, "group",
                                                 ctx.pool)
    yield Progress(0.75, 1, "titlestat by rank")
    out["titlestat_rank"] = titlestat_rank(ctx.title_index, index, s.titlestat_max_rank,
                                           ctx.max_depth)
    if ctx.compare_qrels is not None:
        out["titlestat_compare"] = compare_judgment_sets(
            ctx.title_index, Qrels.from_frame(qrels_frame, name=index.qrels_name),
            ctx.compare_qrels, relevance_level=index.relevance_level)
    return out


def _titlestat_tables(r: PoolReport) -> dict[str, pd.DataFrame]:
    t = {}
    if r.titlestat_rel is not None:
        t["titlestat_rel"] = r.titlestat_rel.per_topic
    if r.titlestat_runs is not None:
        t["titlestat_runs"] = r.titlestat_runs
    if r.titlestat_uniques is not None:
        t["titlestat_uniques"] = r.titlestat_uniques
    if r.titlestat_rank is not None:
        t["titlestat_rank"] = r.titlestat_rank.frame
    if r.titlestat_compare is not None:
        c = r.titlestat_compare
        t["titlestat_compare"] = c.per_topic
        t["titlestat_compare_test"] = pd.Series({
            "a": c.names[0], "b": c.names[1], "topics": c.topics, "a_higher": c.a_higher,
            "mean_a": c.per_topic["a"].mean(), "mean_b": c.per_topic["b"].mean(),
            "t": c.t_statistic, "p_value": c.p_value}).to_frame("value")
    return t


def _titlestat_summary(r: PoolReport) -> list[str]:
    return [] if r.titlestat_rel is None else [f"titlestat_rel {r.titlestat_rel.mean:.3f}."]


def _simulate(ctx: PoolContext):
    index, s, depth = ctx.index, ctx.settings, ctx.depth
    n = max(1, len(s.strategies))
    sims = {}
    for i, (strat, levels) in enumerate(_simulation_levels(ctx).items()):
        if ("simulate", strat) in ctx.remote:     # a task per level, sent elsewhere
            full, futures = ctx.remote.pop(("simulate", strat))
            parts = [None] * len(futures)
            for k, (pos, value, error) in enumerate(ctx.executor.results(futures)):
                if error is not None:
                    raise error
                parts[pos] = value
                yield Progress(i + (k + 1) / len(futures), n, f"simulation {strat}")
            sims[strat] = simulation_result(strat, s.measure, s.seed, full, parts)
            continue
        sims[strat] = yield from scaled(
            iter_simulate(index, depth, strat, levels, s.sim_measures, s.measure, s.seed),
            i, n, prefix=f"simulation {strat}: ")
    return {"simulations": sims}


def _simulation_levels(ctx: PoolContext) -> dict[str, tuple[int, ...]]:
    """The levels each simulated strategy runs at."""
    index, s, depth, pool = ctx.index, ctx.settings, ctx.depth, ctx.pool
    mean_pool = float(np.bincount(index.key_topic(pool.keys), minlength=index.n_topics)
                      [depth > 0].mean()) if (depth > 0).any() else 0.0
    n_units = len(set(index.run_group[index.pooled].tolist()))
    return {strat: s.levels.get(strat) or default_levels(strat, ctx.max_depth, mean_pool,
                                                         n_units)
            for strat in s.strategies}


def send_heavy_parts(ctx: PoolContext, wanted: set[str]) -> None:
    """Start the parts that need no runs on the executor: the sources of relevant
    documents, leave-out-uniques by run and by group, and each simulated strategy as a
    setup task and a task per level, the deepest levels first (the longest tasks first
    keep the workers evenly busy); the judged runs are sent to every worker once
    (:func:`yardstick.analysis.pool.tasks.shipment`, broadcast: a task then starts on
    any worker without waiting for a copy).  Each part is the same call as here, so the
    report is the same; this process is left the pool statistics (they read the runs)."""
    ex, s = ctx.executor, ctx.settings
    if not {"sources", "uniques", "simulate"} & wanted:
        return
    handle = ex.scatter(shipment(ctx.index, [s.measure], ctx.pool), broadcast=True)
    todo = []
    if "simulate" in wanted:      # the setups first (their levels wait for them), the
        # longest first: move-to-front's, then the random sample's
        full = pd.DataFrame({"level": "full", "measure": s.measure,
                             "run": list(ctx.index.run_names), "score": scoring_reference(ctx)})
        for strat, levels in sorted(_simulation_levels(ctx).items(),
                                    key=lambda x: _SETUP_FIRST.get(x[0], len(_SETUP_FIRST))):
            levels = sorted({int(x) for x in levels})
            setup = ex.submit(setup_task, handle, ctx.depth, strat, levels, s.measure, s.seed)
            futures = [None] * len(levels)
            ctx.remote[("simulate", strat)] = (full, futures)
            todo += [(level / max(levels), strat, setup, k, level)
                     for k, level in enumerate(levels)]
    if "uniques" in wanted:       # then uniques and the sources, while the setups run
        for unit in ("run", "group"):
            ctx.remote[("uniques", unit)] = ex.submit(uniques_task, handle, ctx.depth, unit,
                                                      s.measure, s.min_score)
    if "sources" in wanted:
        ctx.remote[("sources", "all")] = ex.submit(sources_task, handle, ctx.depth,
                                                   s.max_rank)
    # then the levels, deepest first, those of every strategy interleaved by their share of
    # the strategy's deepest
    for _, strat, setup, k, level in sorted(todo, key=lambda t: -t[0]):
        ctx.remote[("simulate", strat)][1][k] = ex.submit(levels_task, handle, setup, (level,),
                                                          s.sim_measures)


#: the order the strategies' setup tasks start in (the longest first)
_SETUP_FIRST = {"mtf": 0, "random": 1, "runs": 2, "depth": 3}


def scoring_reference(ctx: PoolContext) -> np.ndarray:
    """Per run, the mean full-qrels score of the reference measure (what each
    simulation's level "full" lists)."""
    full = run_sync(scoring.iter_full_scores(ctx.index, ctx.settings.measure))
    return mean_over_topics(full, ctx.index.evaluated(), axis=1)


def _simulate_tables(r: PoolReport) -> dict[str, pd.DataFrame]:
    return {f"simulation_{name}": sim.levels for name, sim in r.simulations.items()}


pool_analysis(PoolAnalysis("stats", "Pool statistics", _stats, _stats_tables,
                           summary=_stats_summary))
pool_analysis(PoolAnalysis("sources", "Sources of relevant documents", _sources,
                           _sources_tables))
pool_analysis(PoolAnalysis("uniques", "Leave-out-uniques", _uniques, _uniques_tables,
                           weight=lambda s: 2.0, summary=_uniques_summary))
pool_analysis(PoolAnalysis("titlestat", "titlestat", _titlestat, _titlestat_tables,
                           weight=lambda s: 2.0, summary=_titlestat_summary))
pool_analysis(PoolAnalysis("simulate", "Pool simulation", _simulate, _simulate_tables,
                           weight=lambda s: 4.0 * max(1, len(s.strategies))))

#: the analyses' names, in the order they run
ANALYSES = tuple(REGISTRY)
