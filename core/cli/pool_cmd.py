"""Pool diagnostics: are these judgments complete and unbiased?

  yardstick pool --qrels Q --depth 125 [--groups G] [--analysis A]... [--docs D --topics T]
                 [--pooled FILE] [--not-pooled RUN]... [--out DIR] RUN...

Rebuilds the pool from the RUN files (all pooled, or those listed in the
``--pooled`` file, less any ``--not-pooled``) and reports, per ``--analysis``:

* ``stats``     pool size, share judged / relevant, judged documents outside the
                pool, pooled documents missing from the qrels, unjudged in top 10/100;
* ``sources``   earliest rank of relevant documents, P(relevant) by rank,
                relevant found by depth and a deeper-pool estimate;
* ``uniques``   leave-out-uniques test by run and by group (Zobel 1998;
                Buckley et al. 2007), 5% red flag;
* ``titlestat`` titlestat_rel, of runs, of groups' unique relevant, by rank
                (needs ``--docs`` and ``--topics``);
* ``simulate``  shallower / move-to-front / random-sample judgments, re-scored
                with MAP, condensed MAP, bpref, infAP; Kendall tau and tau_AP;
* ``all``       everything possible (the default).

A summary is printed; ``--out DIR`` writes every table as CSV (or ``--format``) and
each chart (earliest ranks, P(relevant), pool depth, uniques ...) as PNG, SVG and PDF.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace

from yardstick.analysis.pool.report import ANALYSES, PoolSettings
from yardstick.cli.option_types import add_dask_argument, choice_of, whole, whole_list
from yardstick.common.errors import FormatError

_STRATEGIES = ("depth", "runs", "mtf", "random")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("runs", nargs="+", metavar="RUN", help="run files (plain or compressed)")
    p.add_argument("--qrels", required=True, help="qrels file")
    p.add_argument("--depth", type=whole(1, " (a pool takes at least one document a run)"),
                   default=None, help="pool depth (default: inferred per topic from the "
                   "runs' judged depths; 100, said as assumed, when the data cannot tell)")
    p.add_argument("--topic-depths", metavar="FILE",
                   help="'topic depth' lines overriding --depth per topic")
    p.add_argument("--groups", metavar="FILE", help="'run<TAB>group' lines (default: a "
                   "guess from run names, named as a guess on the result)")
    p.add_argument("--not-pooled", action="append", default=[], metavar="RUN",
                   help="a run (file or run name) evaluated but not in the pool; repeatable")
    p.add_argument("--pooled", metavar="FILE",
                   help="the runs that made the pool, one run name (tag) or file a line "
                        "('#' comments); the other runs are evaluated but not pooled "
                        "(default: the runs inferred from the judged depths)")
    p.add_argument("--analysis", action="append", choices=list(ANALYSES) + ["all"],
                   help="analyses to run (repeatable; default all)")
    p.add_argument("--docs", action="append", default=[], metavar="FILE",
                   help="document file(s) for titlestat (TREC, SMART, LISA, JSONL, TSV)")
    p.add_argument("--topics", metavar="FILE", help="topics file (with titles) for titlestat")
    p.add_argument("--title-field", default="title", help="topic field of title words")
    p.add_argument("--compare-qrels", metavar="FILE",
                   help="second judgment set: titlestat_rel topic by topic, paired t-test")
    p.add_argument("--stem", choices=["porter", "english"], default=None,
                   help="stem words for titlestat (needs PyStemmer)")
    p.add_argument("--keep-stopwords", action="store_true", help="titlestat keeps stop words")
    p.add_argument("--keep-case", action="store_true", help="titlestat keeps case")
    p.add_argument("--measure", default="map", type=choice_of(_unsupported_measure),
                   help="measure of the uniques test: map, map_judged, bpref, infAP or P_k "
                        "(default map)")
    p.add_argument("--min-score", type=float, default=None,
                   help="leave runs scoring below this out of the uniques summary")
    p.add_argument("-l", dest="level", type=whole(0), default=1, help="relevance level (default 1)")
    p.add_argument("--strategy", action="append", choices=_STRATEGIES,
                   help="simulation strategies (default depth, mtf, random)")
    p.add_argument("--levels", metavar="N,N,...",
                   type=whole_list(1, " (a depth, a number of groups or a budget per topic)"),
                   help="simulation levels (depths, groups or budgets per topic; each >= 1)")
    p.add_argument("--seed", type=whole(0), default=0,
                   help="seed of the random simulations (default 0)")
    p.add_argument("--tie-order", choices=["trec_eval", "file", "docno"], default="trec_eval",
                   help="how tied scores are ranked when the pool is cut: trec_eval's order "
                        "(docno descending, the default), the order the run file lists them, "
                        "or docno ascending; the stats report how many cuts fell in a tie")
    p.add_argument("--out", metavar="DIR", help="write every table to DIR")
    p.add_argument("--format", choices=["csv", "tsv", "xlsx", "latex", "markdown"],
                   default="csv", help="table format with --out (default csv)")
    add_dask_argument(p)


def _read_pooled(path: str, runs) -> list:
    """The runs named in a ``--pooled`` file; names of runs not given are noted on stderr."""
    from yardstick.inputs.run_names import RunNameError, listed_runs

    try:
        out, missing = listed_runs(path, runs, "--pooled")
    except RunNameError as e:
        raise FormatError(path, None, str(e)) from e
    if missing:
        print(f"yardstick pool: note: {len(missing)} run(s) named in {path} are not among the "
              f"runs given: {', '.join(missing[:5])}{' …' if len(missing) > 5 else ''}",
              file=sys.stderr)
    return out


def _read_depths(path: str) -> dict[str, int]:
    from yardstick.inputs.io.text_source import decode_text, read_bytes

    out: dict[str, int] = {}
    for lineno, line in enumerate(decode_text(read_bytes(path, "topic depths")).splitlines(), 1):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if len(f) != 2 or not f[1].isdigit():
            raise FormatError(path, lineno, "expected 'topic depth'", line)
        out[f[0]] = int(f[1])
    return out


def run(args: argparse.Namespace) -> int:
    from yardstick.cli.allocator import few_arenas

    few_arenas(2)        # (the analyses run on a thread per core: see few_arenas)
    from yardstick.analysis.pool.report import iter_pool_report
    from yardstick.common.progress import run_sync
    from yardstick.inputs.io import read_qrels, read_run
    from yardstick.inputs.run_names import RunNameError, resolve_runs, unique_names
    from yardstick.judging.judged_runs_build import build_judged_runs

    analyses = tuple(ANALYSES) if not args.analysis or "all" in args.analysis else \
        tuple(dict.fromkeys(args.analysis))
    qrels = read_qrels(args.qrels)
    groups = {}
    if args.groups:
        from yardstick.inputs.io.groups_file import read_groups

        groups = read_groups(args.groups)
    runs, notes = unique_names([read_run(path, ranks=False) for path in args.runs])
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    from yardstick.inputs.topic_coverage import topic_coverage

    # the pool diagnostics average each run over its judged topics (trec_eval without -c)
    coverage = topic_coverage(qrels.topics.tolist(), runs, complete=False).messages(
        has_c_option=False)
    for note in coverage:
        print(f"yardstick pool: note: {note}", file=sys.stderr)
    if args.groups:
        _check_groups(args.groups, groups, runs)
    # each run's group by file name or run tag (given to the index, not by renaming the
    # runs: a renamed Run would join the qrels without the join index read_run built)
    if args.groups:
        group_of = {r.name: groups.get(r.name) or groups.get(r.tag) or r.group or r.name
                    for r in runs}
        groups_source = f"file {os.path.basename(args.groups)}"
    else:
        from yardstick.inputs.run_names import guess_groups

        guess = guess_groups([r.tag or r.name for r in runs])
        group_of = {r.name: r.group or g or r.name for r, g in zip(runs, guess)}
        groups_source = "guess"

    try:
        excluded = resolve_runs(args.not_pooled, runs, "--not-pooled")
    except RunNameError as e:
        raise FormatError("--not-pooled", None, str(e).removeprefix("--not-pooled ")) from e
    pooled = [all(r is not x for x in excluded) for r in runs]
    given = None
    if args.pooled or excluded:
        if args.pooled:
            listed = _read_pooled(args.pooled, runs)
            pooled = [p and any(r is x for x in listed) for p, r in zip(pooled, runs)]
        if not any(pooled):
            raise FormatError(args.pooled or args.runs[0], None,
                              "no pooled run left after --pooled / --not-pooled")
        given = pooled
    index = build_judged_runs(runs, qrels, pooled=pooled, groups=group_of,
                              relevance_level=args.level, tie_order=args.tie_order,
                              last_join=True)
    choice = _choose(args, index, runs, given, excluded, groups_source, group_of, coverage)
    # the analyses read documents as the index's codes: the runs' docnos go (a third of
    # the peak on 27.5 million lines); provenance keeps each file's path and tag
    index, depth = choice.index.with_scores_only(), choice.depth
    run_files = [(p, r.tag) for p, r in zip(args.runs, runs)]
    not_pooled = ", ".join(r.name for r in excluded)
    del runs, excluded
    choice = replace(choice, index=None)
    from yardstick.common.memory import release_freed_memory

    release_freed_memory()
    title_index, n_docs = None, None
    if "titlestat" in analyses:
        title_index, n_docs = _title_index(args)
        if title_index is None and args.analysis and "titlestat" in args.analysis:
            print("yardstick pool: titlestat needs --docs and --topics", file=sys.stderr)
            return 2
    levels = {}
    if args.levels:
        levels = {s: args.levels for s in (args.strategy or ("depth", "mtf", "random"))}
    settings = PoolSettings(
        depth=depth, default_depth=choice.default_depth,
        analyses=analyses, measure=args.measure, min_score=args.min_score,
        strategies=tuple(args.strategy or ("depth", "mtf", "random")), levels=levels,
        seed=args.seed, collection=os.path.basename(args.qrels))
    other = read_qrels(args.compare_qrels) if args.compare_qrels else None
    from yardstick.cli.option_types import dask_executor

    with dask_executor(args.dask, threads=None) as executor:   # in-process: a thread per core
        report = run_sync(iter_pool_report(index, settings, title_index, n_docs, other,
                                           choice.assumptions, choice.inferred,
                                           executor=executor))
    from yardstick.cli.pool_output import print_report

    print_report(report, sys.stdout, args.tie_order)
    if args.out:
        from yardstick.common.options import EvalOptions
        from yardstick.common.provenance import Provenance
        from yardstick.presentation.export.columns import whole_numbers_as_integers
        from yardstick.presentation.export.tables import write_table

        os.makedirs(args.out, exist_ok=True)
        suffix = {"csv": "csv", "tsv": "tsv", "xlsx": "xlsx", "latex": "tex",
                  "markdown": "md"}[args.format]
        prov = Provenance.build(args.qrels, run_files,
                                [args.measure], EvalOptions(relevance_level=args.level),
                                seeds={"pool": args.seed},
                                extra={"not_pooled": not_pooled,
                                       **dict(choice.assumptions.items()),
                                       "tie_order": args.tie_order,
                                       **({"topics": " ".join(coverage)} if coverage else {})})
        for name, frame in report.tables().items():
            if name.endswith("_summary") and frame.index.name is None:
                frame = frame.rename_axis("statistic")     # label/value lines
            if name.endswith("_summary"):
                frame = whole_numbers_as_integers(frame)   # topics,30 not topics,30.0
            write_table(frame, os.path.join(args.out, f"{name}.{suffix}"), fmt=args.format,
                        provenance=prov)
        from yardstick.presentation.charts.chart_files import pool_charts, write_charts

        write_charts(pool_charts(report), args.out, prov)    # each chart: PNG, SVG, PDF
        print(f"tables written to {args.out}", file=sys.stderr)
    return 0


def _choose(args, index, runs, given, excluded, groups_source, group_of, coverage):
    """The pool to analyse: given (--pooled, --not-pooled, --depth), else inferred from the
    judged depths, else assumed, with the assumptions stated
    (:func:`yardstick.analysis.pool.pool_choice.choose_pool`)."""
    from yardstick.analysis.assumptions import Assumptions, runs_statement
    from yardstick.analysis.pool.pool_choice import choose_pool

    depth = _read_depths(args.topic_depths) if args.topic_depths else args.depth
    how = " ".join(x for x in (f"--pooled {args.pooled}" if args.pooled else "",
                               f"--not-pooled {', '.join(r.name for r in excluded)}"
                               if excluded else "") if x)
    return choose_pool(
        index, given, depth, args.depth if args.topic_depths else None, pooled_how=how,
        depth_how=f"--topic-depths {args.topic_depths}" if args.topic_depths else "--depth",
        groups_source=groups_source, group_of=group_of,
        assumptions=Assumptions(
            runs=runs_statement([r.name for r in runs]),
            topics=(f"{int(index.in_qrels.sum())} judged topics; each run averaged over "
                    f"the judged topics it retrieved for (no zero-fill)"),
            measure=f"{args.measure} (uniques test), relevance level {args.level}",
            seed=args.seed, notes=tuple(coverage)))


def _unsupported_measure(name: str) -> str | None:
    from yardstick.analysis.pool.scoring import unsupported

    return unsupported(name)


def _check_groups(path: str, groups: dict[str, str], runs) -> None:
    """A groups file must name the runs given (by file name or run tag); runs it
    leaves out are their own group, and the user is told which."""
    missing = [r.name for r in runs if r.name not in groups and r.tag not in groups]
    if len(missing) == len(runs):
        raise FormatError(path, None, f"names none of the {len(runs)} runs given "
                          f"(by file name or run tag: {', '.join(r.name for r in runs[:5])}"
                          f"{' ...' if len(runs) > 5 else ''}); its runs are "
                          f"{', '.join(list(groups)[:5])}{' ...' if len(groups) > 5 else ''}")
    if missing:
        print(f"yardstick pool: note: {len(missing)} run(s) are not in {path} and form a "
              f"group of their own each: {', '.join(missing[:10])}"
              f"{' ...' if len(missing) > 10 else ''}", file=sys.stderr)


def _title_index(args):
    if not args.docs or not args.topics:
        return None, None
    from yardstick.analysis.pool.text import ENGLISH_STOPWORDS, TextOptions
    from yardstick.analysis.pool.titlestat import build_title_index
    from yardstick.inputs.io.documents_file import read_documents
    from yardstick.inputs.io.topics_file import read_topics

    docs = read_documents(args.docs if len(args.docs) > 1 else args.docs[0])
    topics = read_topics(args.topics)
    if args.title_field not in topics.columns:
        raise FormatError(args.topics, None, f"has no {args.title_field!r} field")
    opts = TextOptions(lowercase=not args.keep_case,
                       stopwords=None if args.keep_stopwords else ENGLISH_STOPWORDS,
                       stemmer=args.stem)
    return build_title_index(docs, topics, opts, field=args.title_field), len(docs)
