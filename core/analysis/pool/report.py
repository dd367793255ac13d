"""Every pool diagnostic in one background job: what the CLI prints and the panel shows.

:func:`iter_pool_report` runs the analyses chosen in :class:`PoolSettings`
over one :class:`~yardstick.judging.judged_runs.JudgedRuns` (and, for titlestat, one
:class:`~yardstick.analysis.pool.titlestat.TitleIndex`), yielding progress, and returns a
:class:`PoolReport` whose :meth:`PoolReport.tables` names every table for
export.
"""

from __future__ import annotations

from collections.abc import Generator

from yardstick.analysis.assumptions import Assumptions
from yardstick.analysis.pool.analyses import (  # noqa: F401 (the report's names, one import)
    ANALYSES,
    REGISTRY,
    PoolAnalysis,
    PoolContext,
    pool_analysis,
    send_heavy_parts,
)
from yardstick.analysis.pool.characteristics import collection_characteristics
from yardstick.analysis.pool.inferred_pool import InferredPool
from yardstick.analysis.pool.reconstruction import reconstruct_pool
from yardstick.analysis.pool.report_types import (  # noqa: F401
    PoolReport,
    PoolSettings,
    default_levels,
)
from yardstick.analysis.pool.titlestat import TitleIndex
from yardstick.common.executor import Executor, InProcess
from yardstick.common.progress import Progress
from yardstick.inputs.io.read_progress import scaled
from yardstick.judging.judged_runs import JudgedRuns

__all__ = ["ANALYSES", "REGISTRY", "PoolReport", "PoolSettings", "default_levels",
           "iter_pool_report"]


def iter_pool_report(index: JudgedRuns, settings: PoolSettings,
                     title_index: TitleIndex | None = None, documents: int | None = None,
                     compare_qrels=None, assumptions: Assumptions | None = None,
                     inferred: InferredPool | None = None, executor: Executor | None = None,
                     ) -> Generator[Progress, None, PoolReport]:
    """Run the selected analyses of :data:`REGISTRY`, yielding progress (fractions of
    the whole job).

    ``executor``: where the heavy parts run (:mod:`yardstick.common.executor`); by
    default a thread per core here (``InProcess(threads=None)``; ``IN_PROCESS``: one part
    after the other).  On threads or Dask, uniques by run and by group, the sources and
    each simulated strategy's setup and levels are tasks started at once (on Dask the
    judged runs sent to the workers once); the report is the same.

    ``compare_qrels``: a second judgment set on the same documents and topics,
    compared with the loaded qrels by titlestat_rel (Buckley et al. Fig. 4).
    """
    s = settings
    unknown = set(s.analyses) - set(REGISTRY)
    if unknown:
        raise ValueError(f"unknown analyses: {', '.join(sorted(unknown))}")
    wanted = [a for name, a in REGISTRY.items() if name in s.analyses]
    total = float(sum(a.weight(s) for a in wanted)) or 1.0
    yield Progress(0, total, "rebuilding the pool")
    owned = executor is None       # the default: a thread per core, as run_stability's
    if owned:
        executor = InProcess(threads=None)
    try:
        return (yield from _report(index, s, wanted, total, title_index, documents,
                                   compare_qrels, assumptions, inferred, executor))
    finally:
        if owned:
            executor.close()


def _report(index, s, wanted, total, title_index, documents, compare_qrels, assumptions,
            inferred, executor: Executor):
    depth = index.depth_array(s.depth, s.default_depth)
    ctx = PoolContext(index, s, depth, reconstruct_pool(index, depth), title_index, documents,
                      compare_qrels, executor=executor)
    if not executor.local or getattr(executor, "parallel", False):
        # on Dask or threads: uniques, sources and every simulated level as tasks started
        # at once (on threads the "shipment" is the same arrays, not a copy)
        send_heavy_parts(ctx, {a.name for a in wanted})
    out: dict = {"settings": s}
    done = 0.0
    try:
        for a in wanted:
            share = a.weight(s)
            out.update((yield from scaled(a.compute(ctx), done / share, total / share)))
            done += share
            yield Progress(done, total, a.title)
    finally:        # (also when cancelled: the tasks not yet read stop, workers freed)
        if ctx.remote:
            executor.cancel([f for v in ctx.remote.values()
                             for f in (v[1] if isinstance(v, tuple) else [v])])
    out["characteristics"] = collection_characteristics(
        s.collection, out.get("stats"), out.get("uniques_group"), out.get("titlestat_rel"),
        documents=documents)
    out["notes"] = tuple(ctx.notes)
    out["assumptions"], out["inferred"] = assumptions, inferred
    yield Progress(total, total, "done")
    return PoolReport(**out)
