"""Evaluation loop: judged ranking -> every requested measure -> trec_eval's averages.

This is ``trec_eval.c``'s main loop without the loop: each measure kernel runs
once over all topics (see :mod:`yardstick.evaluation.measures.registry`), then values are
averaged as trec_eval's ``meas_avg.c`` does (mean; geometric mean for ``gm_*``;
sums for counts; with ``-c`` over every qrels topic).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

import numpy as np

from yardstick.common.options import EvalOptions
from yardstick.common.threads import in_order, threads_for
from yardstick.evaluation.measures.average_precision import MIN_GEO_MEAN
from yardstick.evaluation.measures.registry import (
    LONG,
    NUM_Q,
    RUNID,
    STRING,
    MeasureRequest,
    parse_requests,
)
from yardstick.evaluation.measures.spec import merge_cutoffs, parse_measures
from yardstick.evaluation.results import Evaluation
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run
from yardstick.judging.judged import JudgedRanking, build_judged_ranking

MISSING_ZSCORE = -1000000.0


@dataclass(frozen=True)
class Column:
    """One printed measure column: its name, its request and its values per topic."""

    name: str
    request: MeasureRequest
    values: np.ndarray | list


def compute_columns(jr: JudgedRanking, requests: Sequence[MeasureRequest],
                    split: bool = False) -> list[Column]:
    """Run every requested kernel once over all topics.

    With ``split`` a large ranking is cut into topic ranges of about equal lines
    (:meth:`~yardstick.judging.judged.JudgedRanking.topic_range`), measured on a thread
    each (numpy's kernels leave the interpreter free), and the ranges' columns
    put together: a topic's value depends on its own lines only, so the columns
    are the same to the last bit (7M lines: 0.14 s -> 0.09 s on 2 cores).  The
    intermediates the kernels share (relevant documents, gains ...) are then made
    and kept on the ranges, not on ``jr``: callers that measure one ranking again
    and again (the pool and stability diagnostics, what-if) leave it off.
    """
    ranges = _topic_ranges(jr) if split else [(0, jr.num_topics)]
    if len(ranges) > 1:
        parts = in_order(lambda r: _kernel_columns(jr.topic_range(*r), requests), ranges,
                         len(ranges), name="yardstick-measure")
        cols = [_joined(same) for same in zip(*parts)]
    else:
        cols = _kernel_columns(jr, requests)
    if jr.missing.any():
        _clean_missing(jr, cols)
    return cols


def _topic_ranges(jr) -> list[tuple[int, int]]:
    """(first, end) topic ranges of about equal lines, one per core
    (:func:`yardstick.common.threads.threads_for`; one range for a small ranking, or for
    anything other than a plain judged ranking)."""
    n = len(jr.rel) if isinstance(jr, JudgedRanking) else 0
    k = min(threads_for(n), jr.num_topics)
    if k < 2:
        return [(0, jr.num_topics)]
    cuts = np.searchsorted(jr.start, np.arange(1, k) * (n / k))
    bounds = [0, *sorted({int(c) for c in cuts} - {0, jr.num_topics}), jr.num_topics]
    return list(pairwise(bounds))


def _joined(same: Sequence[Column]) -> Column:
    """One column from its topic ranges' parts, in order."""
    first = same[0]
    if isinstance(first.values, list):
        return Column(first.name, first.request, [v for c in same for v in c.values])
    return Column(first.name, first.request, np.concatenate([c.values for c in same]))


def _kernel_columns(jr: JudgedRanking, requests: Sequence[MeasureRequest]) -> list[Column]:
    cols: list[Column] = []
    for req in requests:
        vals = req.definition.kernel(jr, req.params)
        names = req.output_names()
        if req.definition.kind == STRING:
            cols.append(Column(names[0], req, list(vals)))
            continue
        vals = np.asarray(vals, dtype=np.float64)
        if vals.ndim == 1:
            vals = vals[:, None]
        for j, name in enumerate(names):
            cols.append(Column(name, req, vals[:, j].copy()))
    return cols


def score_segments(jr: JudgedRanking, measure: str) -> np.ndarray:
    """Per-topic values of one single-column measure (``map``, ``P.10`` …) of a judged
    ranking, through :func:`compute_columns`: the path re-judged rankings take
    (pool simulation, leave-out-uniques, whose "topics" are a
    :class:`~yardstick.judging.judged_runs.JudgedRuns`' runs x topics segments)."""
    compat = jr.options.compat if jr.options is not None else 10
    cols = compute_columns(jr, parse_requests([measure], compat))
    if len(cols) != 1:
        raise ValueError(f"{measure!r} gives {len(cols)} columns, not one")
    return np.asarray(cols[0].values, dtype=np.float64)


def _clean_missing(jr: JudgedRanking, cols: list[Column]) -> None:
    """trec_eval 10 ``-c``: 'clean up leftovers' of the stand-in ranking (trec_eval.c)."""
    m = jr.missing
    for c in cols:
        if c.name in ("num_ret", "rbp_resid") or c.name.startswith(("utility", "unj")):
            c.values[m] = 0.0
        elif c.request.name == "relstring":
            for t in np.flatnonzero(m):
                c.values[t] = ""


def apply_zscores(jr: JudgedRanking, cols: list[Column], zscores: Mapping) -> None:
    """Standardise each per-topic value with ``(value - mean) / stddev`` (``-Z``).

    ``zscores[(topic, measure_name)] = (mean, stddev)``, as in trec_eval's
    ``convert_zscores.c``; a missing pair gives -1000000.
    """
    for c in cols:
        if c.request.definition.kind in (STRING, RUNID):
            continue
        for t, topic in enumerate(jr.topics.tolist()):
            ms = zscores.get((topic, c.name))
            v = c.values[t]
            if ms is None:
                c.values[t] = MISSING_ZSCORE
            elif ms[1]:
                c.values[t] = (v - ms[0]) / ms[1]
            else:
                c.values[t] = 0.0 if v == ms[0] else MISSING_ZSCORE


def topic_average(jr, column: Column, options: EvalOptions,
                  values: np.ndarray | None = None) -> float | np.ndarray:
    """trec_eval's average of one measure column over topics (the one in Yardstick).

    As trec_eval 10.0's ``meas_avg.c`` and its ``te_calc_avg_*`` functions: counts
    (``num_*``) are summed; ``gm_*`` is the geometric mean of values floored at
    :data:`~yardstick.evaluation.measures.average_precision.MIN_GEO_MEAN`; every other
    measure is the arithmetic mean; a measure with its own ``aggregate`` (``map_cut``'s
    robust variants ...) uses it; ``num_q`` is the topic count.  Sums run left to right,
    topic by topic, as trec_eval accumulates (not numpy's pairwise sum), so the printed
    digits match.  With ``-c`` (``options.complete``) the mean is over every qrels topic.

    ``jr`` is the judged ranking or the prepared counts (preference or judgment-group
    judgments) the column was measured on.  ``values`` replaces the column's per-topic
    values; a 2-D array (samples x topics) averages each row (tie sensitivity's orders).
    """
    d = column.request.definition
    n = jr.num_topics
    nq = jr.num_qrels_topics if options.complete else n
    v = np.asarray(column.values if values is None else values, dtype=np.float64)
    rows = v.shape[:-1]
    if d.kind == NUM_Q:
        return float(nq) if not rows else np.full(rows, float(nq))
    if d.aggregate is not None:
        if not rows:
            return float(d.aggregate(v, column.request.params))
        return np.array([float(d.aggregate(row, column.request.params)) for row in v])
    if d.kind == LONG and column.name == "num_rel" and options.complete:
        # te_calc_avg_num_rel: relevant (rel > 0) over every qrels topic
        total = float((jr.qrels.rel > 0).sum())
        return total if not rows else np.full(rows, total)
    s = np.cumsum(v, axis=-1)[..., -1] if v.shape[-1] else np.zeros(rows)
    if not rows:
        s = float(s)
    if d.average == "gm":
        if options.complete:
            s = s + (nq - n) * np.log(MIN_GEO_MEAN)
        out = np.exp(s / nq) if nq else np.zeros(rows)
    elif d.kind == LONG:
        out = s
    else:
        out = s / nq if nq else np.zeros(rows)
    return float(out) if not rows else out


def summarise(jr, cols: list[Column], options: EvalOptions,
              zscore: bool = False) -> dict[str, float | str]:
    """trec_eval's summary of every column (:func:`topic_average`); ``runid`` is the run's
    tag, text columns (``relstring``) have none."""
    out: dict[str, float | str] = {}
    for c in cols:
        d = c.request.definition
        if d.kind == STRING:
            continue
        if d.kind == RUNID:
            out[c.name] = jr.run.tag if jr.run is not None else ""
            continue
        out[c.name] = topic_average(jr, c, options)
    return out


@dataclass(frozen=True)
class MeasureGroup:
    """Requests evaluated under one set of options, and the column names they print.

    Most evaluations are one group.  An ir_measures name with its own relevance
    level or ``judged_only`` (``P(rel=2)@5``) is evaluated under its own options and
    its columns are named by the spec's text (``rename``), since trec_eval's names
    cannot say which level they used.
    """

    options: EvalOptions
    requests: tuple[MeasureRequest, ...]
    rename: Mapping[str, str]


def plan_measures(measures, options: EvalOptions) -> list[MeasureGroup]:
    """Parse measure names in any spelling (:mod:`yardstick.evaluation.measures.spec`) into groups.

    Cutoffs asked in ir_measures' or ranx's spelling (``P@5``, ``P@10``) are gathered
    into one request; trec_eval's spelling keeps trec_eval's rule, the first
    parameters (:func:`yardstick.evaluation.measures.spec.merge_cutoffs`)."""
    specs = merge_cutoffs(parse_measures(measures))
    plain = [s.trec_eval for s in specs if not s.has_own_options]
    groups = []
    if plain or not specs:
        groups.append(MeasureGroup(options, tuple(parse_requests(plain, options.compat)), {}))
    for s in specs:
        if not s.has_own_options:
            continue
        opts = replace(options, relevance_level=(s.rel_level if s.rel_level is not None
                                                 else options.relevance_level),
                       judged_only=s.judged_only or options.judged_only)
        reqs = tuple(parse_requests([s.trec_eval], options.compat))
        names = [n for r in reqs for n in r.output_names()]
        rename = {n: s.text if len(names) == 1 else f"{s.text}:{n}" for n in names}
        groups.append(MeasureGroup(opts, reqs, rename))
    return groups


def measure_run(run: Run, qrels: Qrels, measures, options: EvalOptions,
                zscores: Mapping | None = None, keep_join_index: bool = True
                ) -> tuple[JudgedRanking, list[Column], dict[str, float | str]]:
    """The judged ranking, printed columns and averages of one run (the CLI's and the API's path).

    ``measures`` are names in trec_eval's, ir_measures' or ranx's spelling, or
    :class:`~yardstick.evaluation.measures.spec.MeasureSpec` values.  With
    ``keep_join_index=False`` the run's join index is freed as soon as the last
    judged ranking has looked up the qrels (``yardstick eval``: one pass).
    """
    groups = plan_measures(measures, options)
    judged = [build_judged_ranking(run, qrels, g.options,
                                   last_join=not keep_join_index and i == len(groups) - 1)
              for i, g in enumerate(groups)]
    jr0 = judged[0] if judged else None
    cols: list[Column] = []
    summary: dict[str, float | str] = {}
    for g, jr in zip(groups, judged):
        gcols = compute_columns(jr, g.requests, split=True)
        if zscores is not None:
            apply_zscores(jr, gcols, zscores)
        gsum = summarise(jr, gcols, g.options, zscore=zscores is not None)
        if g.rename:
            gcols = [replace(c, name=g.rename.get(c.name, c.name)) for c in gcols]
            gsum = {g.rename.get(k, k): v for k, v in gsum.items()}
        cols += gcols
        summary.update(gsum)
    return jr0, cols, summary


def evaluate_run(run: Run, qrels: Qrels, measures=("official",),
                 options: EvalOptions | None = None,
                 zscores: Mapping | None = None) -> Evaluation:
    """Evaluate one run exactly as trec_eval does: an :class:`Evaluation`.

    The entry point of the evaluation service (:mod:`yardstick.evaluation.evaluation_service`,
    which re-exports it); ``measures`` as for :func:`measure_run`.  Not to be confused with
    the Python API's :func:`yardstick.api.evaluate` (qrels first, many runs, a tidy frame).
    """
    options = options or EvalOptions()
    jr, cols, summary = measure_run(run, qrels, measures, options, zscores)
    return evaluation(run, jr, cols, summary, options)


def evaluate_judged(run: Run, jr: JudgedRanking, requests: Sequence[MeasureRequest],
                    options: EvalOptions, zscores: Mapping | None = None):
    """An :class:`~yardstick.evaluation.results.Evaluation` from an already judged ranking.

    What-if edits, pool simulations and the uniques test re-judge one ranking
    (:meth:`JudgedRanking.with_rel`) and come here without re-reading anything.
    """
    cols = compute_columns(jr, requests)
    if zscores is not None:
        apply_zscores(jr, cols, zscores)
    summary = summarise(jr, cols, options, zscore=zscores is not None)
    return evaluation(run, jr, cols, summary, options)


def evaluation(run: Run, jr, cols: list[Column], summary: Mapping,
               options: EvalOptions) -> Evaluation:
    """The :class:`~yardstick.evaluation.results.Evaluation` (pandas tables) of computed
    columns: the one place an evaluation is built from measured columns (plain qrels,
    preference and judgment-group judgments; see also
    :func:`yardstick.evaluation.results.merge_evaluations`)."""
    import pandas as pd

    per_topic = pd.DataFrame(
        {c.name: c.values for c in cols
         if c.request.definition.per_topic and c.request.definition.kind != RUNID},
        index=pd.Index(jr.topics.tolist(), name="topic", dtype=object))
    order = [c.name for c in cols if c.name in summary and c.request.definition.kind != RUNID]
    return Evaluation(run_name=run.name, runid=run.tag, per_topic=per_topic,
                      summary=pd.Series({k: summary[k] for k in order}, dtype=np.float64),
                      options=options, judged=jr, columns=tuple(cols))
