"""The Pool panel's job: plain data in (:class:`PoolJobInput`), a
:class:`yardstick.analysis.pool.report.PoolReport` out, with progress; no widget.

The judged runs are built once per (runs, qrels, -l) and the title index once per
(documents, topics, text options): the panel keeps both between runs (``cache``), and
pooled flags, groups and names are applied to the kept index.  The report's heavy parts run
on ``executor`` when the compute preference names a Dask scheduler
(:mod:`yardstick.gui.compute_place`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from yardstick.analysis.pool.report import PoolSettings, iter_pool_report
from yardstick.analysis.pool.text import TextOptions
from yardstick.analysis.pool.titlestat import iter_build_title_index
from yardstick.common.progress import Progress
from yardstick.judging.judged_runs_build import iter_build_judged_runs, with_runs_flags


@dataclass(frozen=True)
class PoolJobInput:
    """What a pool job reads (taken from the workspace and the panel's choices)."""

    runs: list
    qrels: Any
    pooled: list[bool]
    groups: dict[str, str]
    level: int
    settings: PoolSettings
    given: bool                     # the pool from the runs' flags (else inferred)
    infer_depth: bool
    documents: Any
    topics: Any
    text: TextOptions
    compare_path: str | None
    want_title: bool


def pool_job(a: PoolJobInput, cache: dict, executor=None):
    """Progress generator -> ``(report, (index key, judged runs), (title key, title
    index))``; the panel keeps the last two in ``cache``."""
    total = 4.0
    ikey = index_key(a.runs, a.qrels, a.level)
    tkey = (id(a.documents), id(a.topics), a.text)
    if cache.get("index", (None,))[0] == ikey:
        index = with_runs_flags(cache["index"][1], a.pooled, a.groups, a.runs)
    else:
        gen = iter_build_judged_runs(a.runs, a.qrels, a.pooled, a.groups, a.level)
        index = yield from _scaled(gen, 0.0, 1.0, total, "encoding runs")
    tindex = None
    if a.want_title:
        if cache.get("title", (None,))[0] == tkey:
            tindex = cache["title"][1]
        else:
            gen = iter_build_title_index(a.documents, a.topics, a.text)
            tindex = yield from _scaled(gen, 1.0, 1.0, total, "title words")
    other = None
    if a.compare_path:
        from yardstick.inputs.io import read_qrels

        other = read_qrels(a.compare_path)
    s = a.settings
    choice = _choice(index, a.runs, a.groups, a.pooled if a.given else None,
                     None if a.infer_depth else s.depth, s)
    used = replace(s, depth=choice.depth, default_depth=choice.default_depth)
    docs = len(a.documents) if a.documents is not None else None
    rep = yield from _scaled(iter_pool_report(choice.index, used, tindex, docs, other,
                                              choice.assumptions, choice.inferred, executor),
                             2.0, 2.0, total, "")
    return rep, (ikey, index), (tkey, tindex)


def _choice(index, runs, groups, pooled, depth, settings):
    """The pool to analyse (:func:`yardstick.analysis.pool.pool_choice.choose_pool`): the
    runs' flags when ``pooled`` is given, else inferred; groups named as a guess when they
    are the guess from run names."""
    from yardstick.analysis.assumptions import Assumptions, runs_statement
    from yardstick.analysis.pool.pool_choice import choose_pool
    from yardstick.inputs.run_names import guess_groups

    guess = guess_groups([r.tag or r.name for r in runs])
    guessed = all(groups[n] == (g or n) for n, g in zip(groups, guess))
    return choose_pool(index, pooled, depth, pooled_how="the runs' pooled flags",
                       depth_how="the panel's depth", group_of=groups,
                       groups_source="guess" if guessed else "given",
                       assumptions=Assumptions(runs=runs_statement(list(groups)),
                                               measure=f"{settings.measure} (uniques test)",
                                               seed=settings.seed))


def index_key(runs, qrels, level) -> tuple:
    """What the pool's judged runs depend on: the runs' data and the qrels (by identity)
    and -l.  A renamed or regrouped run (``Run.renamed``) keeps its arrays, and with them
    what was derived from them (:mod:`yardstick.inputs.run_cache`): the same key."""
    from yardstick.inputs.run_cache import RunCache

    return tuple(RunCache.key(r) for r in runs), id(qrels), level


def _scaled(gen, start: float, share: float, total: float, label: str):
    """Re-yield a sub-job's progress as part ``[start, start + share]`` of ``total``."""
    while True:
        try:
            p = next(gen)
        except StopIteration as stop:
            return stop.value
        msg = f"{label}: {p.message}" if label else p.message
        yield Progress(start + share * p.fraction, total, msg)

