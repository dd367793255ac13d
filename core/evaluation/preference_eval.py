"""Evaluation against preference judgments and judgment-group qrels (``-R``).

trec_eval's main loop (``trec_eval.c``) is the same whatever the relevance
format; only the per-topic merge of ranking and judgments differs:

* ``-R prefs`` / ``-R qrels_prefs``:
:func:`yardstick.evaluation.measures.prefs_counts.build_preference_counts`
  (``form_prefs_counts.c``) feeds the ``prefs_*`` measures;
* ``-R qrels_jg``:
:func:`yardstick.evaluation.measures.judgment_groups.build_judgment_group_rankings`
  (``form_res_rels_jg.c``) feeds ``map_avgjg``, ``P_avgjg``, ``Rprec_mult_avgjg``.

Only those measures (and ``runid``, ``num_q``) can be computed from these
formats, as in trec_eval.  Per-topic values are averaged and the evaluation built by
the engine, as for plain qrels (:func:`yardstick.evaluation.engine.topic_average`,
:func:`yardstick.evaluation.engine.evaluation`).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence

from yardstick.common.options import EvalOptions
from yardstick.evaluation.engine import apply_zscores, compute_columns, evaluation, summarise
from yardstick.evaluation.measures.registry import MeasureError, parse_requests
from yardstick.evaluation.results import Evaluation
from yardstick.inputs.run import Run

PREFS_MEASURES = frozenset({
    "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp",
    "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret",
    "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp",
    "prefs_avgjg_imp"})
JG_MEASURES = frozenset({"map_avgjg", "P_avgjg", "Rprec_mult_avgjg"})
ANY_FORMAT = frozenset({"runid", "num_q"})
#: -R format -> (measures it supports, the nickname to suggest)
FORMATS = {"prefs": (PREFS_MEASURES, "all_prefs"),
           "qrels_prefs": (PREFS_MEASURES, "all_prefs"),
           "qrels_jg": (JG_MEASURES, "qrels_jg")}


def evaluate_counts(judged, measures: Sequence[str] | str, options: EvalOptions,
                    rel_format: str, zscores: Mapping | None = None) -> Evaluation:
    """Compute ``measures`` over prepared counts (preference or judgment-group)."""
    requests = parse_requests(measures, options.compat)
    allowed, nick = FORMATS[rel_format]
    bad = [r.name for r in requests if r.name not in allowed | ANY_FORMAT]
    if bad:
        raise MeasureError(f"{', '.join(bad)}: not computable from -R {rel_format} "
                           f"judgments (use -m {nick})")
    cols = compute_columns(judged, requests)
    if zscores is not None:
        apply_zscores(judged, cols, zscores)
    summary = summarise(judged, cols, options, zscore=zscores is not None)
    return evaluation(judged.run, judged, cols, summary, options)


def evaluate_prefs(run: Run, prefs, measures: Sequence[str] | str = ("all_prefs",),
                   options: EvalOptions | None = None,
                   zscores: Mapping | None = None) -> Evaluation:
    """Evaluate ``run`` against preference judgments (a
    :class:`~yardstick.inputs.io.prefs_file.PrefsJudgments`)."""
    from yardstick.evaluation.measures.prefs_counts import build_preference_counts

    options = options or EvalOptions()
    return evaluate_counts(build_preference_counts(run, prefs, options), measures, options,
                           "prefs", zscores)


def evaluate_qrels_jg(run: Run, qrels_jg, measures: Sequence[str] | str = ("qrels_jg",),
                      options: EvalOptions | None = None,
                      zscores: Mapping | None = None) -> Evaluation:
    """Evaluate ``run`` against judgment-group qrels (a
    :class:`~yardstick.inputs.io.prefs_file.QrelsJG`)."""
    from yardstick.evaluation.measures.judgment_groups import build_judgment_group_rankings

    options = options or EvalOptions()
    return evaluate_counts(build_judgment_group_rankings(run, qrels_jg, options), measures,
                           options, "qrels_jg", zscores)


def evaluate_special(args, options: EvalOptions, measures: Sequence[str]) -> int:
    """``yardstick eval -R prefs|qrels_prefs|qrels_jg``: print trec_eval's text, return status."""
    from yardstick.evaluation.trec_format import format_trec_eval, other_format
    from yardstick.inputs.io import read_run
    from yardstick.inputs.io.prefs_file import READERS
    from yardstick.inputs.io.zscores_file import read_zscores

    fmt = args.rel_format
    if fmt not in FORMATS:
        print(f"yardstick eval: unknown relevance format {fmt!r}", file=sys.stderr)
        return 2
    if not getattr(args, "measures", None):
        # trec_eval's default 'official' needs plain qrels: use the format's own set
        measures = [FORMATS[fmt][1]]
    judgments = READERS[fmt](args.qrels)
    zscores = read_zscores(args.zscores) if args.zscores else None
    evaluate = evaluate_qrels_jg if fmt == "qrels_jg" else evaluate_prefs
    for path in args.runs:
        run = read_run(path)
        try:
            ev = evaluate(run, judgments, measures, options, zscores)
        except MeasureError as e:
            print(f"yardstick eval: {e}", file=sys.stderr)
            return 1
        if ev.judged.num_topics == 0:
            print(f"yardstick eval: {path}: no topics with both results and judgments",
                  file=sys.stderr)
            return 1
        _warn_missing(run, judgments, options)
        if getattr(args, "format", "trec_eval") == "trec_eval":
            sys.stdout.write(format_trec_eval(ev, query_flag=args.query,
                                              summary_flag=not args.no_summary,
                                              zscore=zscores is not None))
        else:
            sys.stdout.write(other_format(ev, args.format, args.query,
                                          summary=not args.no_summary,
                                          zscore=zscores is not None))
    return 0


def _warn_missing(run: Run, judgments, options: EvalOptions) -> None:
    """As for qrels: topics without results are noted on stderr (trec_eval 10.0 stops)."""
    if options.complete or options.compat != 10:
        return
    missing = sorted(set(judgments.topics.tolist()) - set(run.topics.tolist()))
    if missing:
        print(f"yardstick eval: note: {len(missing)} judged topic(s) have no results in "
              f"{run.name} and are ignored (use -c to count them; trec_eval 10.0 stops "
              f"with an error here): {', '.join(missing[:10])}"
              f"{' ...' if len(missing) > 10 else ''}", file=sys.stderr)
