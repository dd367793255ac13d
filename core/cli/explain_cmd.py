"""Explain how a measure value is made (teaching mode).

  yardstick explain -m MEASURE -t TOPIC [--compat 9] [-l N] [-M N] [-J] [-c] [-N N] QRELS RUN
  yardstick explain -t TOPIC --lesson QRELS RUN
  yardstick explain --ties N [--seed S] [-m MEASURE]... QRELS RUN
  yardstick explain --reference [--search TEXT]
  yardstick explain --glossary [--search TEXT]
  yardstick explain --example [NAME]

The explanation gives the measure's definition and formula, the ingredients
for that topic and run (R, retrieved, relevant retrieved, the ranks of the
relevant documents, the cutoff, judged/unjudged counts), the arithmetic with
the actual numbers, the value and the source.  ``-m P`` explains every cutoff
(P_5 ... P_1000); ``-m P.10`` or ``-m P_10`` just one.  ``--ties N`` re-scores
the run under N random orders of its tied documents.  ``--example`` uses the
TREC appendix's worked example (relevant at ranks 1, 2, 4 and 15 of 20).
"""

from __future__ import annotations

import argparse
import sys

from yardstick.common.errors import FormatError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("qrels", nargs="?", help="qrels file")
    p.add_argument("run", nargs="?", metavar="RUN", help="run file")
    p.add_argument("-m", dest="measures", action="append", metavar="MEASURE",
                   help="measure, e.g. map, P.10, P_10, ndcg_cut.20 (repeatable)")
    p.add_argument("-t", dest="topic", metavar="TOPIC", help="topic to explain")
    p.add_argument("-l", dest="level", type=int, default=1, metavar="N",
                   help="relevance threshold (default 1)")
    p.add_argument("-M", dest="max_docs", type=int, default=None, metavar="N",
                   help="only the first N documents per topic")
    p.add_argument("-J", dest="judged_only", action="store_true",
                   help="evaluate only judged documents")
    p.add_argument("-c", dest="complete", action="store_true",
                   help="average over every qrels topic")
    p.add_argument("-N", dest="num_docs", type=int, default=0, metavar="N",
                   help="documents in the collection (utility)")
    p.add_argument("--compat", type=int, choices=[9, 10], default=10,
                   help="trec_eval 9.0.8 rules where 10.0 differs")
    p.add_argument("--format", choices=["text", "markdown"], default="text")
    p.add_argument("--terms", type=int, default=40, metavar="N",
                   help="terms of a sum to print before eliding the middle (0: all)")
    p.add_argument("--lesson", action="store_true",
                   help="print the topic explorer's table (P/R after each document, ties)")
    p.add_argument("--ties", type=int, default=0, metavar="N",
                   help="tie sensitivity: re-score under N random orders of tied documents")
    p.add_argument("--seed", type=int, default=0, help="seed for --ties (default 0)")
    p.add_argument("--reference", action="store_true", help="print the measure reference")
    p.add_argument("--glossary", action="store_true",
                   help="print the measure glossary of the window's Help menu (trec_eval's "
                        "name for each measure, definition, formula, paper)")
    p.add_argument("--search", metavar="TEXT",
                   help="with --reference or --glossary: only matching measures")
    p.add_argument("--example", nargs="?", const="interpolation", metavar="NAME",
                   help="use a worked example of the TREC appendix instead of QRELS RUN "
                        "(interpolation, average_precision, r_precision)")


def _options(args):
    from yardstick.common.options import EvalOptions

    return EvalOptions(relevance_level=args.level, max_docs=args.max_docs,
                       judged_only=args.judged_only, complete=args.complete,
                       num_docs_in_coll=args.num_docs, compat=args.compat)


def run(args: argparse.Namespace) -> int:
    out = sys.stdout
    if args.reference:
        return _reference(args, out)
    if args.glossary:
        from yardstick.analysis.explain.glossary import glossary, glossary_text

        if not glossary(args.search or ""):
            print(f"yardstick explain: no measure matches {args.search!r}", file=sys.stderr)
            return 1
        out.write(glossary_text(args.search or ""))
        return 0
    if args.example:
        from yardstick.analysis.explain.topic_lesson import appendix_example

        try:
            run_, qrels = appendix_example(args.example)
        except KeyError as e:
            print(f"yardstick explain: {e.args[0]}", file=sys.stderr)
            return 2
        if args.topic is None:
            args.topic = str(qrels.topics[0])
    else:
        if not args.qrels or not args.run:
            print("yardstick explain: need QRELS and RUN (or --example, or --reference); "
                  "see --help", file=sys.stderr)
            return 2
        from yardstick.inputs.io import read_qrels, read_run

        qrels = read_qrels(args.qrels)
        run_ = read_run(args.run)
    options = _options(args)
    if args.ties:
        return _ties(run_, qrels, args, options, out)
    if args.topic is None:
        print("yardstick explain: -t TOPIC is required", file=sys.stderr)
        return 2
    if args.lesson:
        return _lesson(run_, qrels, args, options, out)
    if not args.measures:
        print("yardstick explain: -m MEASURE is required (e.g. -m map)", file=sys.stderr)
        return 2
    from yardstick.analysis.explain import ExplainError, explain_all

    try:
        for spec in args.measures:
            for ex in explain_all(run_, qrels, spec, args.topic, options):
                out.write(ex.to_markdown(args.terms) if args.format == "markdown"
                          else ex.to_text(args.terms))
                out.write("\n")
    except ExplainError as e:
        raise FormatError(args.run or "explain", None, str(e)) from None
    return 0


def _reference(args, out) -> int:
    from yardstick.analysis.explain.reference import measure_reference, search_measures

    rows = search_measures(args.search) if args.search else measure_reference()
    if not rows:
        print(f"yardstick explain: no measure matches {args.search!r}", file=sys.stderr)
        return 1
    for r in rows:
        out.write(r.text() + "\n\n")
    return 0


def _lesson(run_, qrels, args, options, out) -> int:
    from yardstick.analysis.explain import ExplainError
    from yardstick.analysis.explain.topic_lesson import topic_lesson

    try:
        lesson = topic_lesson(run_, qrels, args.topic, options)
    except ExplainError as e:
        raise FormatError(args.run or "explain", None, str(e)) from None
    f = lesson.ranked[["rank", "docno", "score", "rel", "status", "tie_group", "tie_size",
                       "rel_so_far", "precision", "recall", "ap_term"]]
    out.write(f"run {lesson.run_name}, topic {lesson.topic}: R = {lesson.R}, retrieved "
              f"{lesson.num_ret}, relevant retrieved {lesson.rel_ret}, AP = {lesson.ap:.4f}\n")
    out.write(f.to_string(index=False, float_format=lambda x: f"{x:.4f}") + "\n\n")
    out.write("Interpolated precision (appendix rule vs trec_eval "
              f"{'9.0.8' if lesson.compat == 9 else '10.0'}):\n")
    out.write(lesson.interpolated.to_string(index=False, float_format=lambda x: f"{x:.4f}")
              + "\n")
    if lesson.missed:
        out.write(f"\nrelevant, not retrieved ({len(lesson.missed)}): "
                  f"{', '.join(lesson.missed[:30])}{' ...' if len(lesson.missed) > 30 else ''}\n")
    return 0


def _ties(run_, qrels, args, options, out) -> int:
    from yardstick.analysis.explain.tie_sensitivity import tie_sensitivity
    from yardstick.common.progress import run_sync
    from yardstick.evaluation.measures.registry import MeasureError

    try:
        res = run_sync(tie_sensitivity(run_, qrels, args.measures or ["official"],
                                       n_orders=args.ties, seed=args.seed, options=options))
    except MeasureError as e:
        raise FormatError(args.run or "explain", None, str(e)) from None
    ff = {"float_format": lambda x: f"{x:.6f}"}
    t = res.ties
    out.write(f"run {res.run_name}: {int(t['tied_docs'].sum())} of {int(t['num_ret'].sum())} "
              f"retrieved documents share their score with another ({int(t['tie_groups'].sum())}"
              f" tie groups); {res.n_orders} random orders, seed {res.seed}\n\n")
    out.write("Overall (trec_eval's value: ties broken by docno, descending):\n")
    out.write(res.overall.to_string(**ff) + "\n")
    topics = res.per_topic
    if args.topic is not None:
        topics = topics[topics["topic"] == str(args.topic)]
    else:
        topics = topics[topics["spread"] > 0]
    if len(topics):
        out.write("\nPer topic" + (" (topics whose value depends on the order of ties)"
                                   if args.topic is None else "") + ":\n")
        out.write(topics.to_string(index=False, **ff) + "\n")
    return 0
