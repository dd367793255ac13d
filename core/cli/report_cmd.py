"""Write the TREC appendix evaluation reports (PDF, HTML, PNG graphs, CSV tables).

  yardstick report --kind adhoc|known-item|filtering|qa --qrels QRELS RUN... --out DIR

Ad hoc: per run the Summary Statistics, Recall Level Precision Averages and
Document Level Averages tables, the recall-precision graph and the average
precision histogram against the median of all the given runs.  Known-item:
MRR, found at rank 1 / in the top 10 / not in the top 100, cumulative % found
by rank.  Filtering: set precision and recall, T10F, T10U and scaled utility,
zero returns, difference from the median.  QA: MRR over the first 5 answers
under strict and lenient relevance.  Medians are always over all RUNs given;
``--run`` limits which runs get a page.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

KINDS = ("adhoc", "known-item", "filtering", "qa")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--kind", choices=KINDS, default="adhoc", help="report kind (default adhoc)")
    p.add_argument("--qrels", required=True, help="qrels file")
    p.add_argument("runs", nargs="+", metavar="RUN", help="run file(s)")
    p.add_argument("--out", required=True, metavar="DIR", help="output folder")
    p.add_argument("--run", dest="only", action="append", metavar="NAME",
                   help="write pages only for this run (repeatable; medians use all runs)")
    p.add_argument("--formats", default="html,pdf,assets",
                   help="comma list of html, pdf, assets (PNG graphs + CSV tables)")
    p.add_argument("--title", default=None, help="report title")
    p.add_argument("-l", dest="level", type=int, default=1, metavar="N",
                   help="relevance threshold (default 1)")
    p.add_argument("-c", dest="complete", action="store_true",
                   help="average over every qrels topic (missing topics score 0)")
    p.add_argument("-M", dest="max_docs", type=int, default=None, metavar="N",
                   help="only the first N documents per topic")
    p.add_argument("--compat", type=int, choices=[9, 10], default=10,
                   help="trec_eval version to reproduce (default 10)")
    p.add_argument("--measure", default="map",
                   help="ad hoc: per-topic measure of the histogram vs median (default map)")
    p.add_argument("--strict-level", type=int, default=2, help="QA: strict threshold (2)")
    p.add_argument("--lenient-level", type=int, default=1, help="QA: lenient threshold (1)")
    p.add_argument("--depth", type=int, default=5, help="QA: answers looked at (5)")
    p.add_argument("--optimized-for", choices=["T10SU", "T10F"], default="T10SU",
                   help="filtering: measure of the median graph")
    p.add_argument("--max-rank", type=int, default=100,
                   help="known-item: last rank of the cumulative graph (100)")


def _unique_names(runs):
    seen: dict[str, int] = {}
    out = []
    for r in runs:
        n = seen.get(r.name, 0)
        seen[r.name] = n + 1
        out.append(r if n == 0 else r.renamed(f"{r.name}#{n + 1}"))
    return out


def build_document(args: argparse.Namespace):
    """Read the files and build the report document (no files written)."""
    from yardstick.errors import FormatError
    from yardstick.evaluation_service import EvalOptions
    from yardstick.io import read_qrels, read_run

    options = EvalOptions(relevance_level=args.level, max_docs=args.max_docs,
                          complete=args.complete, compat=args.compat)
    qrels = read_qrels(args.qrels)
    runs = _unique_names([read_run(p) for p in args.runs])
    names = [r.name for r in runs]
    only = args.only
    if only:
        unknown = [n for n in only if n not in names]
        if unknown:
            raise FormatError(args.runs[0], None, f"--run {unknown[0]!r} is not one of the "
                              f"runs given ({', '.join(names)})")
    title = args.title
    if args.kind == "adhoc":
        from yardstick.evaluation_service import evaluate_runs
        from yardstick.progress import run_sync
        from yardstick.reports.adhoc import ADHOC_MEASURES, adhoc_report

        measures = list(ADHOC_MEASURES)
        if args.measure not in ("map",):
            measures.append(args.measure)
        evs = run_sync(evaluate_runs(runs, qrels, measures, options))
        hist = _column_name(evs, args.measure)
        return adhoc_report(evs, only, hist, title or "Ad hoc evaluation report")
    if args.kind == "known-item":
        from yardstick.reports.known_item import known_item_report

        return known_item_report(runs, qrels, options, only, args.max_rank,
                                 title or "Known-item (homepage finding) report")
    if args.kind == "filtering":
        from yardstick.reports.filtering import filtering_report

        return filtering_report(runs, qrels, options, only, args.optimized_for,
                                title or "Filtering report")
    from yardstick.reports.qa import qa_report

    return qa_report(runs, qrels, args.strict_level, args.lenient_level, args.depth, options,
                     only, title=title or "Question answering report")


def _column_name(evs, measure: str) -> str:
    """The per-topic column a measure request produced (``P.10`` -> ``P_10``)."""
    cols = next(iter(evs.values())).per_topic.columns
    if measure in cols:
        return measure
    alt = measure.replace(".", "_")
    if alt in cols:
        return alt
    raise KeyError(f"measure {measure!r} gives no single per-topic column")


def run(args: argparse.Namespace) -> int:
    from yardstick.reports.render import write_report

    formats = tuple(f.strip() for f in args.formats.split(",") if f.strip())
    bad = [f for f in formats if f not in ("html", "pdf", "assets")]
    if bad:
        print(f"yardstick report: unknown format {bad[0]!r} (html, pdf, assets)",
              file=sys.stderr)
        return 2
    try:
        doc = build_document(args)
    except KeyError as e:
        print(f"yardstick report: {e.args[0]}", file=sys.stderr)
        return 1
    written = write_report(doc, Path(args.out), formats)
    for p in written:
        print(p)
    return 0
