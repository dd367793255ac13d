"""The Python API's collection diagnostics: topic-set stability (:func:`stability_report`)
and pool quality (:func:`pool_report`), in this process or on a Dask cluster
(``client=``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from yardstick.api.client import executor_of
from yardstick.api.evaluation import engine_requests, evaluations, read_qrels, read_runs

if TYPE_CHECKING:
    from yardstick.analysis.pool.report import PoolReport
    from yardstick.analysis.stability.report import StabilityReport

__all__ = ["stability_report", "pool_report"]


def stability_report(qrels: Any, runs: Any, measures: Sequence[str] = ("map",),
              analyses: Sequence[str] = ("swap", "error-rate"), samples: int = 1000,
              seed: int = 0, client: Any = None, **settings) -> StabilityReport:
    """Topic-set stability analyses (:mod:`yardstick.analysis.stability`); a ``StabilityReport``.

    Its ``tables`` are DataFrames (``report.table(name)``, ``report.to_frame()``).
    ``client``: a ``distributed.Client`` to run the runs' evaluation and the analyses on
    (one task per analysis, measure and topic set), or ``"local"``, ``"local:N"``,
    ``"tcp://HOST:PORT"`` as ``--dask`` takes them (:func:`yardstick.api.client.executor_of`);
    the report is the same, bit for bit.
    """
    from yardstick.analysis.stability.report import StabilitySettings, run_stability, score_matrices
    from yardstick.common.progress import run_sync
    from yardstick.evaluation.measures.column_names import column_name

    measures = [measures] if isinstance(measures, str) else list(measures)
    st = StabilitySettings(samples=samples, seed=seed, **settings)
    with executor_of(client) as ex:
        evs = evaluations(qrels, runs, sorted({*engine_requests(measures), "map"}), client=ex)
        mats, tie_break = score_matrices(evs, [column_name(m) for m in measures])
        topics = list(next(iter(mats.values())).index)
        # None: run_stability's own default, a thread per core (as `yardstick stability`)
        return run_sync(run_stability(mats, list(analyses), {"all": topics}, st, tie_break,
                                      ex))


def pool_report(qrels: Any, runs: Any, depth: int | None = None,
                pooled: Iterable[str] | None = None, groups: Mapping[str, str] | None = None,
                analyses: Sequence[str] = ("stats",), client: Any = None,
                **settings) -> PoolReport:
    """Pool-quality diagnostics (:mod:`yardstick.analysis.pool`); a ``PoolReport`` whose
    ``tables()`` are DataFrames.

    ``pooled`` / ``depth`` default to the pool inferred from the runs' judged depths
    (:func:`yardstick.analysis.pool.pool_choice.choose_pool`; every run to depth 100,
    said as assumed, where the data cannot tell); ``groups`` to a guess from run names.
    ``report.assumptions`` says which, ``report.inferred`` holds the evidence.
    ``client``: a ``distributed.Client`` (or a ``--dask`` string:
    :func:`yardstick.api.client.executor_of`) to run uniques and the simulations on; the
    report is the same."""
    from yardstick.analysis.assumptions import Assumptions, runs_statement
    from yardstick.analysis.pool.pool_choice import choose_pool
    from yardstick.analysis.pool.report import PoolSettings, iter_pool_report
    from yardstick.common.memory import release_freed_memory
    from yardstick.common.progress import run_sync
    from yardstick.evaluation.measures.column_names import column_name
    from yardstick.inputs.run_names import guessed_groups
    from yardstick.judging.judged_runs_build import build_judged_runs

    if "measure" in settings:
        settings["measure"] = column_name(settings["measure"])
    if "sim_measures" in settings:
        settings["sim_measures"] = tuple(column_name(m) for m in settings["sim_measures"])
    rs = read_runs(runs)
    source = "guess" if groups is None else "given"
    groups = guessed_groups(rs) if groups is None else groups
    index = build_judged_runs(rs, read_qrels(qrels), pooled=pooled, groups=groups)
    choice = choose_pool(index, None if pooled is None else index.pooled, depth,
                         groups_source=source, group_of=groups,
                         assumptions=Assumptions(runs=runs_statement([r.name for r in rs])))
    # the analyses read documents as the index's codes: runs read here from files lose
    # their docnos (what the caller holds is untouched)
    index = choice.index.with_scores_only()
    del rs
    choice = replace(choice, index=None)
    release_freed_memory()
    with executor_of(client) as ex:
        return run_sync(iter_pool_report(
            index, PoolSettings(depth=choice.depth, default_depth=choice.default_depth,
                                analyses=tuple(analyses), **settings),
            assumptions=choice.assumptions, inferred=choice.inferred,
            executor=ex))      # (None: iter_pool_report's default, a thread per core)
