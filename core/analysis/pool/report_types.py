"""What a pool report computes and holds: :class:`PoolSettings` and :class:`PoolReport`.

The analyses are registered in :mod:`yardstick.analysis.pool.analyses` and run by
:func:`yardstick.analysis.pool.report.iter_pool_report`; these two classes sit apart
so that the registry can name them in its type hints without an import cycle.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass, field

import pandas as pd

from yardstick.analysis.assumptions import Assumptions
from yardstick.analysis.pool.characteristics import CollectionCharacteristics
from yardstick.analysis.pool.inferred_pool import InferredPool
from yardstick.analysis.pool.reconstruction import PoolStatistics
from yardstick.analysis.pool.relevant_sources import DepthCurve, EarliestRanks
from yardstick.analysis.pool.simulation import SIM_MEASURES, SimulationResult
from yardstick.analysis.pool.titlestat import JudgmentComparison, TitlestatResult
from yardstick.analysis.pool.titlestat_pool import TitlestatRank
from yardstick.analysis.pool.uniques import UniquesResult
from yardstick.common.progress import Progress

__all__ = ["PoolSettings", "PoolReport", "PoolAnalysis", "REGISTRY", "default_levels",
           "pool_analysis"]


def _all_analyses() -> tuple[str, ...]:
    return tuple(REGISTRY)


@dataclass(frozen=True)
class PoolSettings:
    """What to compute.

    Attributes
    ----------
    depth : int or {topic: depth}
        Pool depth (per topic when a mapping; ``default_depth`` for the rest).
    default_depth : int or None
    analyses : names of :data:`~yardstick.analysis.pool.analyses.ANALYSES`
        (the registry :data:`REGISTRY`)
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
    analyses: tuple[str, ...] = field(default_factory=_all_analyses)
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
    """Results of :func:`~yardstick.analysis.pool.report.iter_pool_report` (None where not
    computed)."""

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
    #: what the result assumed (runs, pooled runs and depth, groups ...), stated once
    assumptions: Assumptions | None = None
    #: the pool inferred from judged depths (its evidence), when it was looked for
    inferred: InferredPool | None = None

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every table by a file-friendly name (the assumptions and the inferred pool's
        evidence first, each analysis's, then the Table 1 row)."""
        t: dict[str, pd.DataFrame] = {}
        if self.assumptions is not None:
            t["assumptions"] = self.assumptions.to_frame()
        if self.inferred is not None:
            t["inferred_pool_runs"] = self.inferred.runs
            t["inferred_pool_topics"] = self.inferred.topics
        for analysis in REGISTRY.values():
            t.update(analysis.tables(self))
        if self.characteristics is not None:
            t["characteristics"] = self.characteristics.to_frame()
        return t

    def summary(self) -> str:
        """One line per analysis that has one, and the notes (the panel's status line)."""
        parts = [line for a in REGISTRY.values() for line in a.summary(self)]
        return " ".join(parts + list(self.notes))


@dataclass(frozen=True)
class PoolAnalysis:
    """One pool analysis: how to run it and what it adds to a :class:`PoolReport`.

    ``compute(ctx)`` (ctx a :class:`~yardstick.analysis.pool.analyses.PoolContext`) is a
    progress generator returning the report fields it fills;
    ``weight(settings)`` its share of the job's progress; ``tables(report)`` its
    tables by file name; ``summary(report)`` its sentences for a status line.
    """

    name: str
    title: str
    compute: Callable[..., Generator[Progress, None, dict]]
    tables: Callable[[PoolReport], dict[str, pd.DataFrame]]
    weight: Callable[[PoolSettings], float] = lambda s: 1.0
    summary: Callable[[PoolReport], list[str]] = lambda r: []


#: every pool analysis by name, in the order they run (the CLI's --analysis choices,
#: the panel's check boxes)
REGISTRY: dict[str, PoolAnalysis] = {}


def pool_analysis(analysis: PoolAnalysis) -> PoolAnalysis:
    REGISTRY[analysis.name] = analysis
    return analysis
