"""The Python API's comparisons: runs against a baseline (:func:`compare`,
:func:`experiment`), judgment sets against each other (:func:`compare_qrels`) and
systems of runs (:func:`compare_systems`); tidy DataFrames carrying their sources."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from yardstick.api.evaluation import PathLike, engine_requests, evaluations, read_qrels, read_runs
from yardstick.common.options import EvalOptions
from yardstick.evaluation.results import score_matrix
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run
from yardstick.presentation.export.table_sources import with_sources

__all__ = ["compare", "experiment", "compare_qrels", "compare_systems"]


def compare(qrels: Any, runs: Any, measure: str = "map", baseline: str | None = None,
            test: str = "t", correction: str = "holm", alpha: float = 0.05, seed: int = 0,
            options: EvalOptions | None = None) -> pd.DataFrame:
    """Each run against a baseline on one measure: means, W/T/L, p-values, effect size, CI.

    ``test`` is ``t``, ``wilcoxon``, ``sign`` or ``permutation`` (seeded);
    ``correction`` one of :data:`yardstick.analysis.significance.CORRECTIONS` (``none``,
    ``bonferroni``, ``holm``, ``bh``).  The baseline defaults to the best run by
    ``measure`` (:func:`yardstick.analysis.significance.best_run`; the table's ``baseline``
    column says which); name another by its run name, file name, path or run tag
    (``"aplrob03a"``).
    """
    from yardstick.analysis.significance import best_run, compare_runs

    run_list = read_runs(runs)
    base = _baseline(baseline, run_list)
    q = read_qrels(qrels)
    mat = _matrix(q, run_list, measure, options)
    if baseline is None:
        base = best_run(mat, measure)
    return with_sources(compare_runs(mat, base, measure=measure, test=test, correction=correction,
                                 alpha=alpha, seed=seed).to_frame(), q, run_list, [measure],
                    options, baseline=base, test=test, correction=correction, alpha=alpha,
                    seed=seed)


def experiment(qrels: Any, runs: Any, measures: Sequence[str] = ("map", "P.10", "ndcg_cut.10"),
               baseline: str | None = None, test: str = "t", correction: str = "holm",
               alpha: float = 0.05, seed: int = 0) -> pd.DataFrame:
    """A PyTerrier ``Experiment``-like table: means, +/-, p-values per measure; the
    baseline defaults to the best run by the first measure."""
    from yardstick.analysis.significance import best_run, experiment_table

    run_list = read_runs(runs)
    base = _baseline(baseline, run_list)
    q = read_qrels(qrels)
    evs = evaluations(q, run_list, engine_requests(measures))
    first = next(iter(evs.values()))
    cols = [c for c in first.per_topic.columns if c != "relstring"]
    mats = {c: score_matrix(evs, c) for c in cols}
    if baseline is None and cols:
        base = best_run(mats[cols[0]], cols[0])
    return with_sources(experiment_table(mats, base, test=test, correction=correction, alpha=alpha,
                                     seed=seed), q, run_list, measures, None, baseline=base,
                    test=test, correction=correction, alpha=alpha, seed=seed)


def compare_qrels(qrels: Sequence[Any], runs: Any = (), measure: str = "map", level: int = 1,
                  names: Sequence[str] | None = None,
                  options: EvalOptions | None = None) -> dict[str, pd.DataFrame]:
    """Judgment set against judgment set: agreement and what each set does to the evaluation.

    ``qrels``: two or more qrels (any form :func:`read_qrels` takes), the first the
    reference; ``names`` names them (default their names).  Returns tidy DataFrames:
    ``agreement`` (per topic and ``all``; ``kappa`` binary at ``level``, ``kappa_linear``,
    ``kappa_quadratic``, Voorhees's ``overlap``), ``confusion``, ``missing_judgments``,
    ``topics_one_set`` and, with runs, ``scores`` (per run under each set),
    ``correlations`` (``tau`` = Kendall's tau-b, ``tau_ap``), ``rank_changes``, ``swaps``
    and ``topic_movers`` (:mod:`yardstick.analysis.qrels_comparison`).
    """
    from yardstick.analysis.qrels_comparison import agreement_tables, qrels_names
    from yardstick.analysis.qrels_comparison import compare_qrels as compare
    from yardstick.common.provenance import file_sha256

    qs = [read_qrels(q) for q in qrels]
    if names is not None:
        qs = [Qrels(q.frame, name=str(n), path=q.path) for q, n in zip(qs, names)]
    empty = runs is None or (isinstance(runs, (list, tuple)) and not runs)
    run_list = [] if empty else read_runs(runs)
    if run_list:
        out = compare(qs, run_list, engine_requests(measure)[0], level, options).tables()
    else:
        out = agreement_tables(qs, level)

    named = {f"qrels {n}": f"{q.path} sha256 {file_sha256(q.path)}" if q.path else "(in memory)"
             for n, q in zip(qrels_names(qs), qs)}
    return {k: with_sources(v, qs[0], run_list, [measure], options, level=level, **named)
            for k, v in out.items()}


def compare_systems(qrels: Any, runs: Any, systems: Mapping[str, str] | PathLike | None = None,
                    pattern: str | None = None, measure: str = "map", correction: str = "holm",
                    method: str = "auto", min_diffs: Sequence[float] = (0.02, 0.05),
                    options: EvalOptions | None = None) -> dict[str, pd.DataFrame]:
    """System of runs against system of runs (:mod:`yardstick.analysis.systems_comparison`).

    ``systems``: ``{run: system}``, or a ``run<TAB>system`` file (run names, file names or
    tags); or ``pattern``, a regular expression over run names whose first group names
    the system.  Scores are per topic with every qrels topic counted (``complete``).
    Returns tidy DataFrames: ``systems`` (one row per system: mean over runs, run-to-run
    spread, topic interval, mixed-model estimate), ``system_pairs`` (one row per pair:
    the mixed model ``score ~ system + (1|topic) + (1|run)`` beside the averaged and
    pooled shortcuts, corrected by ``correction``), ``system_topics``, ``variances``,
    ``design`` (runs and topics needed), ``assumptions`` and ``unassigned_runs``.
    """
    from yardstick.analysis.systems import systems_for_runs
    from yardstick.analysis.systems_comparison import compare_systems_matrix

    run_list = read_runs(runs)
    q = read_qrels(qrels)
    mapping = systems_for_runs(run_list, systems, pattern)
    opts = options or EvalOptions(complete=True)
    mat = _matrix(q, run_list, measure, opts)
    cmp = compare_systems_matrix(mat, mapping, measure, correction, method, tuple(min_diffs))
    out = cmp.tables()
    src = systems if isinstance(systems, (str, os.PathLike)) else (
        f"pattern {pattern}" if pattern else "mapping")
    return {k: with_sources(v, q, run_list, [measure], opts, systems=str(src),
                        correction=correction) for k, v in out.items()}


def _baseline(name: str | None, runs: list[Run]) -> str:
    """The baseline's run name: the first run, or the run ``name`` means (its name, file
    name, path or run tag: :func:`yardstick.inputs.run_names.resolve_run`)."""
    from yardstick.inputs.run_names import resolve_run

    if not runs:
        raise ValueError("no runs given")
    return runs[0].name if name is None else resolve_run(name, runs, "baseline").name


def _matrix(qrels, runs, measure, options) -> pd.DataFrame:
    from yardstick.evaluation.measures.column_names import request_name
    from yardstick.evaluation.measures.spec import parse_measure

    spec = parse_measure(request_name(measure))
    evs = evaluations(qrels, runs, [spec], options)
    first = next(iter(evs.values()))
    col = [c for c in first.per_topic.columns if c != "relstring"]
    if len(col) != 1:
        raise ValueError(f"{measure!r} gives {len(col)} columns; name one (e.g. P.10)")
    return score_matrix(evs, col[0])
