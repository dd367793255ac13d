"""Evaluate runs exactly as trec_eval does (a drop-in for ``trec_eval``).

  yardstick eval [-q] [-c] [-n] [-M N] [-l N] [-J] [-N N] [-m MEASURE]... [-Z FILE]
                 [-R qrels|qrels_jg|prefs|qrels_prefs] [--compat 9]
                 [--dask local|local:N|tcp://HOST:PORT] QRELS RUN...

prints trec_eval's exact text (``measure<TAB>topic<TAB>value``, same order,
same digits).  Several RUN files are evaluated in turn; ``-`` reads a run from
standard input.  ``--format csv|json|markdown`` gives other outputs.  With ``--dask``
batches of runs are read and evaluated on a Dask cluster
(:mod:`yardstick.cli.eval_on_executor`); the output is the same, byte for byte.
"""

from __future__ import annotations

import argparse
import sys

from yardstick.cli.option_types import add_dask_argument

#: why a negative value is refused, per option (README "Deviations from trec_eval")
_NEGATIVE = {
    "-M": "trec_eval 10.0 crashes (segmentation fault) on a negative -M",
    "-l": "with a negative level trec_eval counts documents missing from the qrels as "
          "relevant, so AP can exceed 1",
    "-N": "a collection cannot hold a negative number of documents",
}


def _at_least_zero(option: str):
    """argparse type: a whole number >= 0, else a message saying why."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < 0:
            raise argparse.ArgumentTypeError(f"must be 0 or more ({_NEGATIVE[option]})")
        return value
    return parse


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("qrels", nargs="?", help="qrels file (plain or .gz/.bz2/.xz)")
    p.add_argument("runs", nargs="*", metavar="RUN", help="run file(s); '-' for stdin")
    p.add_argument("-q", dest="query", action="store_true", help="print per-topic values")
    p.add_argument("-c", dest="complete", action="store_true",
                   help="average over every qrels topic (missing topics score 0)")
    p.add_argument("-n", dest="no_summary", action="store_true", help="no summary lines")
    p.add_argument("-M", dest="max_docs", type=_at_least_zero("-M"), default=None, metavar="N",
                   help="only the first N documents per topic (after sorting)")
    p.add_argument("-l", dest="level", type=_at_least_zero("-l"), default=1, metavar="N",
                   help="relevance threshold (default 1)")
    p.add_argument("-J", dest="judged_only", action="store_true",
                   help="evaluate only judged documents")
    p.add_argument("-N", dest="num_docs", type=_at_least_zero("-N"), default=0, metavar="N",
                   help="number of documents in the collection (utility)")
    p.add_argument("-m", dest="measures", action="append", metavar="MEASURE",
                   help="measure(s), e.g. map, P.5,10, ndcg_cut.10, official, all_trec; "
                        "or ir_measures/ranx names: nDCG@10, P(rel=2)@5, AP, ndcg@10, mrr")
    p.add_argument("-Z", dest="zscores", metavar="FILE", help="z-score file: topic measure "
                   "mean stddev")
    p.add_argument("-R", dest="rel_format", default="qrels",
                   choices=["qrels", "qrels_jg", "prefs", "qrels_prefs"],
                   help="relevance file format")
    p.add_argument("--compat", type=int, choices=[9, 10], default=10,
                   help="reproduce trec_eval 9.0.8 where 10.0 differs (default 10)")
    p.add_argument("--format", choices=["trec_eval", "csv", "json", "markdown"],
                   default="trec_eval", help="output format")
    p.add_argument("--names", choices=["trec_eval", "ir_measures", "ranx"], default="trec_eval",
                   help="print measures under trec_eval's (default), ir_measures' or ranx's "
                        "names; -m takes any of the three spellings")
    p.add_argument("--list", action="store_true", help="list every measure and exit")
    add_dask_argument(p)


def _import_the_rest() -> None:
    """Import what evaluating and printing need (0.1 s of modules: the measures,
    pyarrow's compute functions), on a second thread while this one reads the qrels
    (pyarrow's parse leaves the interpreter free)."""
    import pyarrow._compute  # noqa: F401

    import yardstick.evaluation.engine  # noqa: F401
    import yardstick.evaluation.trec_format  # noqa: F401


def run(args: argparse.Namespace) -> int:
    import threading
    from functools import partial

    from yardstick.cli.allocator import (
        keep_freed_memory,
        lean_arrow_pool,
        release_arrow_memory,
        small_pages,
    )

    keep_freed_memory()  # (before any thread is started: one malloc arena for all)
    small_pages()
    from yardstick.common.options import EvalOptions
    from yardstick.inputs.io.qrels_file import read_qrels
    from yardstick.inputs.io.run_file import read_run

    lean_arrow_pool()

    if args.list:
        from yardstick.evaluation.measures.registry import describe

        for row in describe():
            print(f"{row['name']:<22}\t{row['description']}")
        return 0
    if not args.qrels or not args.runs:
        print("yardstick eval: need QRELS and at least one RUN (see --help)", file=sys.stderr)
        return 2
    measures = args.measures or ["official"]
    options = EvalOptions(relevance_level=args.level, max_docs=args.max_docs,
                          judged_only=args.judged_only, complete=args.complete,
                          num_docs_in_coll=args.num_docs, compat=args.compat)
    if args.rel_format != "qrels":
        from yardstick.evaluation.preference_eval import evaluate_special

        if args.dask:
            print(f"yardstick eval: note: --dask is for -R qrels; -R {args.rel_format} is "
                  "evaluated here", file=sys.stderr)

        return evaluate_special(args, options, measures)
    from yardstick.inputs.io.zscores_file import read_zscores

    zscores = read_zscores(args.zscores) if args.zscores else None
    # the rest imported meanwhile (started only now: two threads importing at once
    # only wait for each other; 7M lines, alternating: 1.615 -> 1.55 s median of 20)
    threading.Thread(target=_import_the_rest, name="yardstick-imports", daemon=True).start()
    # the qrels on this thread: pyarrow already parses on every core, and a second
    # reader thread only added its memory to the run's (issue #19)
    # (what the qrels freed is kept for the run: the run's pieces reuse pyarrow's pages
    # and its arrays glibc's.  Given back to the system (pyarrow's pool released,
    # malloc_trim), they were asked for again at ~2 µs a page: 7M lines, alternating,
    # 1.40 -> 1.365 s and fully shuffled 2.03 -> 1.88 s, medians of 16 and 5, peak
    # unchanged)
    qrels = read_qrels(args.qrels)
    if args.dask:
        from yardstick.cli.eval_on_executor import print_on_executor

        return print_on_executor(args, qrels, measures, options, zscores)
    from yardstick.cli.eval_output import (
        failed,
        missing_note,
        no_topics,
        note,
        prints_runid,
        renamed,
        told_apart,
        write_run,
        write_trec,
    )
    from yardstick.evaluation.engine import evaluation
    from yardstick.evaluation.measures.registry import MeasureError
    from yardstick.session import evaluating

    out = sys.stdout
    tags: dict[str, list[str]] = {}      # run tag -> files having it (told apart below)
    for k, path in enumerate(args.runs):
        run_ = read_run(path, ranks=False, order=options.compat, scores=False)
        release_arrow_memory()
        label = told_apart(tags, run_.tag, path, args.format)
        try:
            jr, cols, summary = evaluating.measure(run_, qrels, measures, options, zscores,
                                                   keep_join_index=False)
        except MeasureError as e:
            return failed(str(e))
        if jr.num_topics == 0:
            return failed(no_topics(path))
        note(missing_note(run_, qrels, options))
        if args.names != "trec_eval":
            cols, summary = renamed(cols, summary, args.names)
        write_run(out, args, k, run_.tag, label, prints_runid(cols),
                  partial(write_trec, args, jr, cols, summary, run_.tag, options),
                  partial(evaluation, run_, jr, cols, summary, options))
    return 0
