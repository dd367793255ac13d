"""Yardstick from Python: read, evaluate, compare and diagnose with pandas DataFrames.

``import yardstick as ys`` gives these functions; they return the same numbers
as ``yardstick eval`` (the session's evaluation function,
:func:`yardstick.session.evaluating.measure`).

>>> import yardstick as ys
>>> paths = ys.sample_paths()
>>> qrels = ys.read_qrels(paths["qrels"])
>>> runs = ys.read_runs(paths["runs"][:2])
>>> df = ys.evaluate(qrels, runs, ["map", "nDCG@10"], per_topic=False)
>>> list(df.columns)
['run', 'topic', 'measure', 'value']
>>> ys.wide(df).round(4)                   # doctest: +NORMALIZE_WHITESPACE
measure     map  nDCG@10
run
okBM25   0.2894   0.3597
okBM25a  0.2727   0.3432

Qrels and runs may be paths, lists of paths, :class:`~yardstick.inputs.qrels.Qrels` /
:class:`~yardstick.inputs.run.Run` objects, pandas DataFrames (trec_eval's column names
``topic, docno, rel`` / ``topic, docno, score`` or ir_measures' and ranx's
``query_id, doc_id, relevance`` / ``query_id, doc_id, score``, with a ``run``
column when one frame holds several runs), ``{topic: {docno: value}}`` dicts, or
ranx's ``Qrels``/``Run`` and ir_measures' namedtuple iterables.  Measures are
named in trec_eval's, ir_measures' or ranx's spelling (:mod:`yardstick.evaluation.measures.spec`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd

from yardstick.common.options import EvalOptions
from yardstick.evaluation.results import Evaluation, score_matrix
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run
from yardstick.presentation.export.table_sources import with_sources

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from yardstick.analysis.pool.report import PoolReport
    from yardstick.analysis.stability.report import StabilityReport

__all__ = ["read_qrels", "read_runs", "evaluate", "evaluations", "wide", "compare",
           "experiment", "stability_report", "pool_report", "plot_recall_precision",
           "export_table", "sample_paths", "EvalOptions", "compare_qrels", "compare_systems"]

PathLike = str | os.PathLike


def read_qrels(source: Any, name: str | None = None) -> Qrels:
    """Judgments from a path, a DataFrame, a dict, ranx ``Qrels`` or ir_measures qrels.

    >>> q = read_qrels(pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"],
    ...                              "relevance": [1, 0]}))
    >>> len(q), q.topics.tolist()
    (2, ['1'])
    """
    from yardstick.inputs.from_any import qrels_from_any

    return qrels_from_any(source, name)


def read_runs(source: Any, name: str | None = None) -> list[Run]:
    """Runs from paths, Run objects, DataFrames (a ``run`` column splits them), dicts,
    ranx ``Run`` objects or ir_measures scored-document iterables.

    Two runs with one name (two files called ``run.txt`` in different folders) are told
    apart as the command line does (:func:`yardstick.inputs.run_names.unique_names`): the
    second becomes ``run.txt#2``, and a ``UserWarning`` says which file that is.
    """
    import warnings

    from yardstick.inputs.from_any import runs_from_any
    from yardstick.inputs.run_names import unique_names

    runs, notes = unique_names(runs_from_any(source, name))
    for note in notes:
        warnings.warn(note, UserWarning, stacklevel=2)
    return runs


def evaluations(qrels: Any, runs: Any, measures: Any = ("official",),
                options: EvalOptions | None = None, client: Any = None,
                **option_values) -> dict[str, Evaluation]:
    """``{run name: Evaluation}`` (per-topic table, summary, judged ranking) for every run.

    Options are an :class:`EvalOptions` or its fields as keywords
    (``relevance_level=2``, ``complete=True``, ``max_docs=100``, ``judged_only=True``).
    Every cutoff asked is computed: ``["P.5", "P.10"]`` gives ``P_5`` and ``P_10``
    (where trec_eval's ``-m P.5 -m P.10`` keeps the first; ``merge_cutoffs``).
    ``client``: a ``distributed.Client`` (or executor) to evaluate the runs on, in
    batches of runs (the qrels sent once); the evaluations come back without their
    judged rankings (``judged=None``).
    """
    from yardstick.common.executor import executor_for
    from yardstick.common.progress import run_sync
    from yardstick.evaluation.measures.spec import merge_cutoffs
    from yardstick.session.evaluating import evaluate_runs

    opts = options or EvalOptions(**option_values)
    q = read_qrels(qrels)
    measures = merge_cutoffs(measures, every=True)
    executor = None if client is None else executor_for(client)
    return run_sync(evaluate_runs(read_runs(runs), q, measures, opts, executor))


def evaluate(qrels: Any, runs: Any, measures: Any = ("official",), per_topic: bool = True,
             names: str = "as_asked", options: EvalOptions | None = None, client: Any = None,
             **option_values) -> pd.DataFrame:
    """Evaluate runs exactly as trec_eval does; a tidy frame ``run, topic, measure, value``.

    Parameters
    ----------
    qrels, runs
        See the module docstring.
    measures : str or sequence of str
        trec_eval (``map``, ``P.5,10``, ``official``), ir_measures (``nDCG@10``,
        ``P(rel=2)@5``) or ranx (``ndcg@10``, ``mrr``) names.
    per_topic : bool
        True: one row per run, topic and measure; False: trec_eval's averages
        (topic ``"all"``).
    names : {"as_asked", "trec_eval", "ir_measures", "ranx"}
        Measure names in the result: ``as_asked`` keeps the name each value was
        asked by when it gives one column (``nDCG@10``), else trec_eval's
        (``P_5``, ``P_10`` for ``P.5,10``).
    client : distributed.Client, optional
        Evaluate the runs as tasks on a Dask cluster (the qrels sent once); same numbers.
    """
    from yardstick.evaluation.measures.column_names import asked_names
    from yardstick.evaluation.measures.spec import output_label, parse_measures

    specs = parse_measures(measures)
    q, run_list = read_qrels(qrels), read_runs(runs)
    opts = options or EvalOptions(**option_values)
    evs = evaluations(q, run_list, specs, opts, client=client)
    frames = [ev.to_frame(per_topic=per_topic, summary=not per_topic, numeric=True)
              for ev in evs.values()]
    out = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=["run", "topic", "measure", "value"])
    out["value"] = out["value"].astype(float)
    out = out[out["measure"] != "runid"].reset_index(drop=True)
    if names == "as_asked":
        asked = asked_names(specs)
        out["measure"] = out["measure"].map(lambda m: asked.get(m, m))
    elif names != "trec_eval":
        out["measure"] = out["measure"].map(lambda m: output_label(m, names))
    return with_sources(out, q, run_list, [s.text for s in specs], opts)


def wide(tidy: pd.DataFrame) -> pd.DataFrame:
    """The wide view of :func:`evaluate`'s frame: runs (× topics) by measures."""
    index = ["run"] if (tidy["topic"] == "all").all() else ["run", "topic"]
    out = tidy.pivot_table(index=index, columns="measure", values="value", sort=False)
    out.columns.name = "measure"
    return out


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
    evs = evaluations(q, run_list, _requests(measures))
    first = next(iter(evs.values()))
    cols = [c for c in first.per_topic.columns if c != "relstring"]
    mats = {c: score_matrix(evs, c) for c in cols}
    if baseline is None and cols:
        base = best_run(mats[cols[0]], cols[0])
    return with_sources(experiment_table(mats, base, test=test, correction=correction, alpha=alpha,
                                     seed=seed), q, run_list, measures, None, baseline=base,
                    test=test, correction=correction, alpha=alpha, seed=seed)


def _requests(measures: Any) -> list[str]:
    """Measure names as the engine takes them: trec_eval's, ir_measures', ranx's or a
    column's (``P_10``; :func:`yardstick.evaluation.measures.column_names.request_name`)."""
    from yardstick.evaluation.measures.column_names import request_name

    return [request_name(m) for m in ([measures] if isinstance(measures, str) else measures)]


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


def stability_report(qrels: Any, runs: Any, measures: Sequence[str] = ("map",),
              analyses: Sequence[str] = ("swap", "error-rate"), samples: int = 1000,
              seed: int = 0, client: Any = None, **settings) -> StabilityReport:
    """Topic-set stability analyses (:mod:`yardstick.analysis.stability`); a ``StabilityReport``.

    Its ``tables`` are DataFrames (``report.table(name)``, ``report.to_frame()``).
    ``client``: a ``distributed.Client`` to run the runs' evaluation and the analyses on
    (one task per analysis, measure and topic set); the report is the same.
    """
    from yardstick.analysis.stability.report import StabilitySettings, run_stability, score_matrices
    from yardstick.common.executor import executor_for
    from yardstick.common.progress import run_sync
    from yardstick.evaluation.measures.column_names import column_name

    measures = [measures] if isinstance(measures, str) else list(measures)
    evs = evaluations(qrels, runs, sorted({*_requests(measures), "map"}), client=client)
    mats, tie_break = score_matrices(evs, [column_name(m) for m in measures])
    topics = list(next(iter(mats.values())).index)
    st = StabilitySettings(samples=samples, seed=seed, **settings)
    return run_sync(run_stability(mats, list(analyses), {"all": topics}, st, tie_break,
                                  executor_for(client)))


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
    ``client``: a ``distributed.Client`` to run uniques and the simulations on; the
    report is the same."""
    from yardstick.analysis.assumptions import Assumptions, runs_statement
    from yardstick.analysis.pool.pool_choice import choose_pool
    from yardstick.analysis.pool.report import PoolSettings, iter_pool_report
    from yardstick.common.executor import executor_for
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
    return run_sync(iter_pool_report(
        choice.index, PoolSettings(depth=choice.depth, default_depth=choice.default_depth,
                                   analyses=tuple(analyses), **settings),
        assumptions=choice.assumptions, inferred=choice.inferred,
        executor=executor_for(client)))


def plot_recall_precision(qrels: Any, runs: Any, ax: Axes | None = None) -> Figure:
    """The averaged 11-point recall-precision curves of the runs, drawn with matplotlib.

    Returns the matplotlib ``Figure`` (a new one unless ``ax`` is given); save it
    with ``fig.savefig("rp.svg")`` (PNG, SVG and PDF are all vector-exact).
    """
    from yardstick.presentation.charts.recall_precision import recall_precision_curves
    from yardstick.presentation.reports.figures import draw_recall_precision, new_figure

    evs = evaluations(qrels, runs, ["map", "iprec_at_recall"])
    curves = recall_precision_curves(evs)
    if ax is None:
        ax = new_figure(6.0, 4.2).add_subplot()
    draw_recall_precision(ax, curves)
    return ax.figure


def export_table(frame: pd.DataFrame, path: PathLike, fmt: str | None = None,
                 **kwargs) -> str:
    """Write a result table as CSV, XLSX, LaTeX, Markdown or HTML (by ``fmt`` or the suffix).

    A table from :func:`evaluate`, :func:`compare` or :func:`experiment` carries the files
    it was computed from; they are hashed into its provenance (the XLSX ``provenance``
    sheet, a LaTeX comment, ``.provenance.json`` beside CSV and Markdown), as the
    window's and ``yardstick report``'s exports are.  ``provenance=`` overrides it.
    """
    from yardstick.presentation.export.table_sources import decimals_by_column, sources_provenance
    from yardstick.presentation.export.tables import write_table

    if isinstance(kwargs.get("decimals"), Mapping):  # {"P.10": 3} / {"P@10": 3} for P_10
        kwargs["decimals"] = decimals_by_column(frame, kwargs["decimals"])
    if "provenance" not in kwargs:
        prov = sources_provenance(frame)
        if prov is not None:
            kwargs["provenance"] = prov
    return str(write_table(frame, path, fmt, **kwargs))


def sample_paths() -> dict[str, Any]:
    """Paths of the bundled sample collection: ``qrels``, ``topics``, ``runs`` (list)."""
    from yardstick.inputs.sample import sample_paths as paths

    p = paths()
    return {k: ([str(x) for x in v] if isinstance(v, (list, tuple)) else str(v) if v else v)
            for k, v in (p.items() if isinstance(p, Mapping) else vars(p).items())}



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

    qs = [read_qrels(q) for q in qrels]
    if names is not None:
        qs = [Qrels(q.frame, name=str(n), path=q.path) for q, n in zip(qs, names)]
    empty = runs is None or (isinstance(runs, (list, tuple)) and not runs)
    run_list = [] if empty else read_runs(runs)
    out = compare(qs, run_list, _requests(measure)[0], level, options).tables() if run_list else \
        agreement_tables(qs, level)
    from yardstick.common.provenance import file_sha256

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
