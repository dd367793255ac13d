"""``explain``: how one measure value of one run on one topic is made.

>>> ex = explain(run, qrels, "P.10", "301")
>>> print(ex.to_text())

The measure may be named as a request (``P.10``, ``ndcg_cut.20``,
``iprec_at_recall.0.5``, ``ndcg.1=3,2=9``) or as the printed column of a
table (``P_10``, ``ndcg_cut_20``, ``iprec_at_recall_0.50``).  The arithmetic is
worked out in plain Python from the topic's ranked list
(:mod:`yardstick.analysis.explain.worked_sets`, ``worked_ranks``, ``worked_gains``,
``worked_robust``); the value reported is the engine's kernel on that topic of the
same judged ranking, and the tests check the worked arithmetic
(``Explanation.worked_value``) against it for every registry measure.
"""

from __future__ import annotations

from dataclasses import replace

from yardstick.analysis.explain import worked_gains, worked_ranks, worked_robust, worked_sets  # noqa: F401
from yardstick.analysis.explain.explanation import EXPLAINERS, ExplainContext, Explanation
from yardstick.analysis.explain.topic_data import ExplainError, topic_data
from yardstick.common.options import EvalOptions
from yardstick.evaluation.engine import compute_columns
from yardstick.evaluation.measures.registry import (
    CUT_DOUBLE,
    CUT_LONG,
    LONG,
    NUM_Q,
    RUNID,
    MeasureError,
    MeasureRequest,
    all_measures,
    parse_requests,
)
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run
from yardstick.judging.judged import JudgedRanking, build_judged_ranking

__all__ = ["ExplainError", "explain", "explain_all", "explain_judged", "spec_for_column",
           "explainable_measures"]


def explainable_measures() -> list[str]:
    """Registry measures that have an explainer (every one but the preference ones)."""
    return [d.name for d in all_measures() if d.name in EXPLAINERS]


def spec_for_column(column: str) -> str:
    """The request behind a printed column: ``P_10`` -> ``P.10``, ``map`` -> ``map``.

    The longest registry name that ``column`` starts with (followed by ``_``)
    wins, so ``map_cut_10`` is ``map_cut.10``, not ``map`` with ``cut_10``.
    """
    names = sorted((d.name for d in all_measures()), key=len, reverse=True)
    if column in names:
        return column
    for n in names:
        if column.startswith(n + "_") and len(column) > len(n) + 1:
            return f"{n}.{column[len(n) + 1:]}"
    raise ExplainError(f"unknown measure or column {column!r}")


def _requests(spec: str, compat: int) -> list[MeasureRequest]:
    try:
        return parse_requests([spec], compat)
    except MeasureError as first:
        try:
            alt = spec_for_column(spec)
        except ExplainError:
            raise ExplainError(str(first)) from None
        if alt == spec:
            raise ExplainError(str(first)) from None
        try:
            return parse_requests([alt], compat)
        except MeasureError as e:
            raise ExplainError(str(e)) from None


def explain_judged(jr: JudgedRanking, measure_spec: str, topic: str) -> list[Explanation]:
    """Explanations of every column ``measure_spec`` gives, for ``topic`` of a judged ranking."""
    compat = jr.options.compat if jr.options is not None else 10
    td = topic_data(jr, topic)
    out = []
    for req in _requests(measure_spec, compat):
        d = req.definition
        fn = EXPLAINERS.get(d.name)
        if fn is None:
            raise ExplainError(f"no explanation for {d.name!r} (preference measures need "
                               "-R prefs and are not covered)")
        # the values: the engine's kernels on this topic (the worked arithmetic shows how)
        kernel = {c.name: c.values[0] for c in compute_columns(jr.topic_slice(td.t), [req])} \
            if d.kind != RUNID else {}
        for j, column in enumerate(req.output_names()):
            param = req.params[j] if d.kind in (CUT_LONG, CUT_DOUBLE) else req.params
            w = fn(td, param, ExplainContext(jr=jr, column=column, params=req.params))
            if td.missing and _cleaned_when_missing(d.name, column):
                w = _missing_topic(w)
            worked = w.value
            if w.level == "topic" and column in kernel:
                v = kernel[column]
                w = replace(w, value=v if isinstance(v, str) else float(v))
            ingredients = list(td.ingredients())
            if w.cutoff is not None:
                ingredients.append(("cutoff", w.cutoff))
            ingredients += list(w.extra)
            notes = list(w.notes)
            if "relret(" in w.formula:
                notes.insert(0, relret_note(td))
            if td.missing:
                notes.insert(0, "The run has no documents for this topic; with -c trec_eval "
                                "10 ranks one unjudged stand-in document.")
            out.append(Explanation(
                measure=column, spec=_spec_text(req, j), base=d.name, run_name=td.run_name,
                runid=td.runid, topic=td.topic, definition=d.description, formula=w.formula,
                ingredients=tuple(ingredients), terms=tuple(w.terms), steps=tuple(w.steps),
                value=w.value, cite=d.cite or "trec_eval 10.0", notes=tuple(notes),
                level=w.level, count=d.kind in (LONG, NUM_Q), worked_value=worked))
    return out


def relret_note(td) -> str:
    """What relret counts, with the relevance level in force (and the grades, when graded):
    the terms are counts of relevant documents, never grades (TREC appendix, §2.1)."""
    lvl = td.relevance_level
    graded = len(td.rel_levels) > 2
    return (f"relret(k) counts the relevant documents in ranks 1..k: those judged {lvl} or "
            f"higher (the relevance level, trec_eval -l {lvl})"
            + ("; with these graded qrels every grade at or above it counts 1, whatever "
               "the grade" if graded else "") + ".")


def _cleaned_when_missing(name: str, column: str) -> bool:
    """Columns trec_eval 10 zeroes for a topic the run lacks (-c; trec_eval.c clean-up)."""
    return (column in ("num_ret", "rbp_resid") or column.startswith(("utility", "unj"))
            or name == "relstring")


def _missing_topic(w):
    zero = "" if isinstance(w.value, str) else 0.0
    return replace(w, value=zero, steps=tuple(w.steps) + (
        f"the topic has no run lines: trec_eval 10 -c reports {zero!r} here "
        "(its clean-up of the stand-in document)",))


def _spec_text(req: MeasureRequest, j: int) -> str:
    d = req.definition
    if d.kind == CUT_LONG:
        return f"{d.name}.{int(req.params[j])}"
    if d.kind == CUT_DOUBLE:
        return f"{d.name}.{req.params[j]:g}"
    return str(req)


def explain_all(run: Run, qrels: Qrels, measure_spec: str, topic: str,
                options: EvalOptions | None = None) -> list[Explanation]:
    """Explanations of every column of ``measure_spec`` (``P`` gives P_5 ... P_1000)."""
    jr = build_judged_ranking(run, qrels, options or EvalOptions())
    return explain_judged(jr, measure_spec, topic)


def explain(run: Run, qrels: Qrels, measure_spec: str, topic: str,
            options: EvalOptions | None = None) -> Explanation:
    """How ``measure_spec`` of ``run`` on ``topic`` is made (one printed column).

    Parameters
    ----------
    run, qrels : Run, Qrels
    measure_spec : str
        A request giving one column (``P.10``, ``map``, ``ndcg_cut.5``) or a
        column name (``P_10``).  A request with several columns (``P``) is an
        error here: use :func:`explain_all`.
    topic : str
    options : EvalOptions, optional
        trec_eval's flags (``-l``, ``-M``, ``-J``, ``-c``, ``-N``, compat).

    Raises
    ------
    ExplainError
        Unknown measure, several columns, or a topic that is not evaluated.
    """
    exps = explain_all(run, qrels, measure_spec, topic, options)
    if len(exps) != 1:
        names = ", ".join(e.measure for e in exps[:6])
        raise ExplainError(f"{measure_spec!r} gives {len(exps)} numbers ({names}"
                           f"{' ...' if len(exps) > 6 else ''}); name one, e.g. "
                           f"{exps[0].spec} or {exps[0].measure}")
    return exps[0]
