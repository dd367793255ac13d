"""Write the TREC appendix evaluation reports (PDF, HTML, PNG graphs, CSV tables).

  yardstick report --kind adhoc|known-item|filtering|qa --qrels QRELS RUN... --out DIR

Ad hoc: per run the Summary Statistics, Recall Level Precision Averages and
Document Level Averages tables, the recall-precision graph and the average
precision histogram against the median of all the given runs.  Known-item:
MRR, found at rank 1 / in the top 10 / not in the top 100, cumulative % found
by rank.  Filtering: set precision and recall, T10F, T10U and scaled utility,
zero returns, difference from the median.  QA: MRR over the first 5 answers
under strict and lenient relevance.  Medians are always over all RUNs given;
``--run`` limits which runs get a page; a run is named by its file name, its path
or its run tag (:mod:`yardstick.inputs.run_names`).

``--formats`` picks what is written: ``html`` and ``pdf`` reports, figures as
``png``, ``svg``, ``pdf``, tables as ``csv``, ``xlsx``, ``tex``, ``md``
(``assets`` = png + csv).  ``--comparison-table`` adds a page with the runs x
measures table of :mod:`yardstick.presentation.reports.comparison_table` (``--test``,
``--correction``, ``--alpha``, ``--seed``).  Every file records where its numbers
come from (:mod:`yardstick.common.provenance`).

Ad hoc: ``--qrels-also Q2 [Q3…]`` (after the runs) adds the "Judgment sets" page and
``--systems FILE`` (``run<TAB>system``) the "Systems" page
(:mod:`yardstick.presentation.reports.judgment_pages`), on ``--measure`` at ``-l``.

  yardstick report --qrels qrels.robust04 run1 run2 run3 --out report \
      --formats html,pdf,svg,csv,xlsx,tex,md --comparison-table --test randomisation \
      --correction holm --measures map,P.10,ndcg_cut.10
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path

from yardstick.cli.option_types import add_dask_argument

KINDS = ("adhoc", "known-item", "filtering", "qa")
#: --per-run auto writes per-run pages up to this many runs
PER_RUN_AUTO = 25


def add_arguments(p: argparse.ArgumentParser) -> None:
    from yardstick.analysis.significance import CORRECTIONS

    p.add_argument("--kind", choices=KINDS, default="adhoc", help="report kind (default adhoc)")
    p.add_argument("--qrels", required=True, help="qrels file")
    p.add_argument("runs", nargs="*", metavar="RUN", help="run file(s)")
    p.add_argument("--out", required=True, metavar="DIR", help="output folder")
    add_dask_argument(p)
    p.add_argument("--run", "--runs", dest="only", action="append", metavar="NAME",
                   help="write pages only for this run (repeatable or comma list; medians "
                   "use all runs)")
    p.add_argument("--per-run", choices=["auto", "all", "none"], default="auto",
                   help="a page per run: all, none, or auto (the default: ad hoc reports "
                   f"with at most {PER_RUN_AUTO} runs or the runs --run names; a 150-run "
                   "report is then the summary of all runs)")
    p.add_argument("--baseline", nargs="+", metavar="RUN", default=None,
                   help="mark each run against these baselines (†, ‡, §, ¶), corrected "
                   "over those comparisons only, beside the comparison table (implies "
                   "--comparison-table; names or comma lists, before or after the runs)")
    p.add_argument("--formats", default="html,pdf,assets",
                   help="comma list of html, pdf (report and figures), png, svg, csv, xlsx, "
                   "tex, md; assets = png,csv (default html,pdf,assets)")
    p.add_argument("--dpi", type=int, default=150, help="PNG resolution (150)")
    p.add_argument("--comparison-table", action="store_true",
                   help="add the runs x measures table with significance superscripts")
    p.add_argument("--comparison-order", choices=["given", "score"], default=None,
                   help="rows of the comparison table in the order given or by the first "
                   "measure, best first (short superscript ranges; the default past 26 runs)")
    p.add_argument("--measures", default="map,P.10,ndcg_cut.10",
                   help="measures of the comparison table (default map,P.10,ndcg_cut.10)")
    p.add_argument("--test", default="t", choices=["t", "wilcoxon", "randomisation", "bootstrap"],
                   help="paired test of the comparison table (default t)")
    p.add_argument("--correction", default="holm", choices=CORRECTIONS,
                   help="multiple-testing correction over the pairs (default holm)")
    p.add_argument("--alpha", type=float, default=0.05, help="significance level (0.05)")
    p.add_argument("--seed", type=int, default=0,
                   help="seed of the randomisation and bootstrap tests (0)")
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
    p.add_argument("--medians", metavar="FILE",
                   help="official per-topic 'topic best median worst' table (as TREC sends "
                        "participants) for the difference-from-median charts, instead of the "
                        "loaded runs; one run is then enough")
    p.add_argument("--median-runs", choices=["all", "per-team"], default="all",
                   help="runs the median is taken over without --medians: all loaded runs "
                        "(default) or each team's first run (its priority run; teams from "
                        "--groups)")
    p.add_argument("--groups", metavar="FILE",
                   help="'run<TAB>team' lines, for --median-runs per-team")
    p.add_argument("--qrels-also", nargs="+", action="extend", metavar="QRELS", default=[],
                   help="ad hoc: further qrels (second assessors, a model, another round) "
                   "against --qrels: adds the 'Judgment sets' page (agreement, kappa, "
                   "overlap, rank correlations, charts); give it after the runs")
    p.add_argument("--systems", metavar="FILE",
                   help="ad hoc: 'run<TAB>system' lines: adds the 'Systems' page (mean and "
                   "run spread per system, mixed model beside the shortcuts; --correction)")
    p.add_argument("--strict-level", type=int, default=2, help="QA: strict threshold (2)")
    p.add_argument("--lenient-level", type=int, default=1, help="QA: lenient threshold (1)")
    p.add_argument("--depth", type=int, default=5, help="QA: answers looked at (5)")
    p.add_argument("--optimized-for", choices=["T10SU", "T10F"], default="T10SU",
                   help="filtering: measure of the median graph")
    p.add_argument("--max-rank", type=int, default=100,
                   help="known-item: last rank of the cumulative graph (100)")


def build_document(args: argparse.Namespace):
    """Read the files and build the report document (no files written)."""
    from yardstick.common.errors import FormatError
    from yardstick.common.provenance import Provenance
    from yardstick.evaluation.evaluation_service import EvalOptions
    from yardstick.inputs.io import read_qrels, read_run
    from yardstick.inputs.run_names import RunNameError, resolve_runs, unique_names

    _check_measures(args)
    options = EvalOptions(relevance_level=args.level, max_docs=args.max_docs,
                          complete=args.complete, compat=args.compat)
    qrels = read_qrels(args.qrels)
    runs, notes = unique_names([read_run(p) for p in args.runs])
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    only = None
    if args.only:
        asked = [n.strip() for a in args.only for n in a.split(",") if n.strip()]
        try:
            only = [r.name for r in resolve_runs(asked, runs)]
        except RunNameError as e:
            raise FormatError("--run", None, str(e).removeprefix("--run ")) from e
    per_run_note = ""
    # auto: the ad hoc report (whose first page sums up every run) drops its run pages
    if args.per_run == "none" or (args.per_run == "auto" and only is None
                                  and args.kind == "adhoc" and len(runs) > PER_RUN_AUTO):
        only = []
        per_run_note = (f"No per-run pages ({len(runs)} runs; --per-run all, or --run NAME "
                        "for some runs, adds them).")
    measures = [args.measure] + (_measure_list(args) if args.comparison_table else [])
    if args.kind == "adhoc":
        from yardstick.presentation.reports.adhoc import ADHOC_MEASURES

        measures = list(ADHOC_MEASURES) + measures
    extra = {}
    if args.kind == "adhoc":
        extra["median"] = (f"official medians file {os.path.basename(args.medians)}"
                           if args.medians else f"median over {args.median_runs} runs")
    from yardstick.evaluation.measures.spec import merge_cutoffs

    # P.5,…,1000 and the comparison's P.10 are one measure family: named once
    measures = list(dict.fromkeys(s.text for s in merge_cutoffs(measures, every=True)))
    prov = Provenance.build(args.qrels, [(p, r.tag) for p, r in zip(args.runs, runs)],
                            measures, options,
                            seeds={args.test: args.seed} if args.comparison_table
                            and args.test in ("randomisation", "bootstrap") else None,
                            extra=extra)
    evs = None
    if args.kind == "adhoc":          # every run evaluated once, for all pages and tables
        evs = _evaluate_once(args, runs, qrels, options)
    doc = _document(args, runs, qrels, options, only, evs)
    if args.qrels_also or args.systems:
        from yardstick.cli.report_pages import with_judgment_and_systems_pages

        doc, prov = with_judgment_and_systems_pages(doc, args, runs, qrels, prov)
    if args.comparison_table:
        prov = prov.with_extra(test=args.test, correction=args.correction, alpha=args.alpha)
        doc = _with_comparison(doc, args, runs, qrels, options, prov, evs)
    from yardstick.inputs.topic_coverage import topic_coverage

    coverage = tuple(topic_coverage(qrels.topics.tolist(), runs, options.complete).messages())
    for note in coverage:
        print(f"yardstick report: note: {note}", file=sys.stderr)
    stated = (f"Computed from qrels {prov.qrels_file} with "
              f"{', '.join(f'{k}={v}' for k, v in prov.options.items())}; recall-precision "
              f"figures interpolate as {prov.interpolation}.")
    notes = (*doc.notes, stated, *coverage) + ((per_run_note,) if per_run_note else ())
    return replace(doc, provenance=prov, notes=notes)


def _check_measures(args) -> None:
    """Refuse unknown ``--measure``/``--measures`` names before any file is read; a column
    name as trec_eval prints it (``P_10``) asks for its measure (``P.10``), as
    ``yardstick stability -m P_10`` and the API take it."""
    from yardstick.common.errors import FormatError
    from yardstick.evaluation.measures.column_names import request_name
    from yardstick.evaluation.measures.definition import MeasureError
    from yardstick.evaluation.measures.spec import parse_measures

    args.measure = request_name(args.measure)
    args.measures = ",".join(request_name(m) for m in _measure_list(args))
    for option, names in (("--measure", [args.measure]), ("--measures", _measure_list(args))):
        try:
            parse_measures(names)
        except MeasureError as e:
            raise FormatError(option, None, str(e)) from None


def _measure_list(args) -> list[str]:
    return [m.strip() for m in args.measures.split(",") if m.strip()]


def _evaluate_once(args, runs, qrels, options):
    """The ad hoc report's measures and the comparison table's, in one evaluation."""
    from yardstick.common.progress import run_sync
    from yardstick.evaluation.measures.spec import merge_cutoffs
    from yardstick.presentation.reports.adhoc import ADHOC_MEASURES
    from yardstick.session.evaluating import evaluate_runs

    wanted = [*ADHOC_MEASURES, args.measure]
    if args.comparison_table:
        wanted += _measure_list(args)
    specs = list({s.text: s for s in merge_cutoffs(wanted, every=True)}.values())
    return run_sync(evaluate_runs(runs, qrels, specs, options))


def _document(args, runs, qrels, options, only, evs=None):
    title = args.title
    if args.kind == "adhoc":
        from yardstick.presentation.reports.adhoc import adhoc_report

        hist = _column_name(evs, args.measure)
        medians, median_set, said = _median_choice(args, runs, hist)
        return adhoc_report(evs, only, hist, title or "Ad hoc evaluation report",
                            medians=medians, median_runs=median_set, median_source=said)
    if args.kind == "known-item":
        from yardstick.presentation.reports.known_item import known_item_report

        return known_item_report(runs, qrels, options, only, args.max_rank,
                                 title or "Known-item (homepage finding) report")
    if args.kind == "filtering":
        from yardstick.presentation.reports.filtering import filtering_report

        return filtering_report(runs, qrels, options, only, args.optimized_for,
                                title or "Filtering report")
    from yardstick.presentation.reports.qa import qa_report

    return qa_report(runs, qrels, args.strict_level, args.lenient_level, args.depth, options,
                     only, title=title or "Question answering report")


def _median_choice(args, runs, measure: str):
    """(official medians or None, runs the median is over or None, how to say it)."""
    import os

    from yardstick.presentation.charts.median_difference import median_runs

    if args.medians:
        from yardstick.inputs.io.medians_file import read_medians

        frame = read_medians(args.medians, measure=measure)
        return frame, None, f"official medians ({os.path.basename(args.medians)})"
    if args.median_runs == "all":
        return None, None, ""
    groups = {}
    if args.groups:
        from yardstick.inputs.io.groups_file import read_groups

        groups = read_groups(args.groups)
    names = [r.name for r in runs]
    chosen, said = median_runs(names, args.median_runs,
                               groups=[groups.get(r.name) or groups.get(r.tag) or r.group
                                       or r.name for r in runs])
    return None, chosen, said


def _with_comparison(doc, args, runs, qrels, options, prov, evs=None):
    """``doc`` with a first page holding the comparison table and its p-values (and, with
    ``--baseline``, the table marked against the baselines beside it)."""
    import pandas as pd

    from yardstick.common.errors import FormatError
    from yardstick.common.progress import run_sync
    from yardstick.evaluation.measures.spec import merge_cutoffs
    from yardstick.inputs.run_names import RunNameError, resolve_runs
    from yardstick.presentation.reports.comparison_table import comparison_table_from_evaluations
    from yardstick.presentation.reports.document import ReportPage, ReportTable
    from yardstick.presentation.reports.table_placement import PAPER_TABLE_ROWS
    from yardstick.session.evaluating import evaluate_runs

    measures = _measure_list(args)
    # each measure of the table is asked for: P.5 and P.10 both (merge_cutoffs)
    if evs is None:
        evs = run_sync(evaluate_runs(runs, qrels, merge_cutoffs(measures, every=True),
                                     options))
    order = args.comparison_order or ("score" if len(runs) > 26 else "given")
    columns = [_column_name(evs, m) for m in measures]
    t = comparison_table_from_evaluations(
        evs, columns, runs=[r.name for r in runs],
        test=args.test, correction=args.correction, alpha=args.alpha, seed=args.seed,
        qrels_name=prov.qrels_file, order=order)
    f = t.display_frame()
    caption = " ".join(x for x in (t.caption, t.identical_note()) if x)
    tables = [ReportTable("comparison", "Comparison of runs", f,
                          markers=t.markers.set_axis(f.index, axis=0),
                          bold=t.best.set_axis(f.index, axis=0), caption=caption)]
    if args.baseline:
        from yardstick.presentation.reports.baseline_table import baseline_table

        try:
            bases = [r.name for r in resolve_runs(args.baseline, runs)]
        except RunNameError as e:
            raise FormatError("--baseline", None, str(e).removeprefix("--run ")) from e
        matrices = {c: pd.DataFrame({n: ev.per_topic[c] for n, ev in evs.items()})
                    for c in columns}
        bt = baseline_table(matrices, bases, runs=list(t.means.index), test=args.test,
                            correction=args.correction, alpha=args.alpha, seed=args.seed,
                            means=t.means, best=t.best)
        tables.append(ReportTable("comparison_baselines", "Runs against the baselines",
                                  bt.means, markers=bt.markers, bold=bt.best,
                                  caption=bt.caption))
        tables.append(ReportTable("comparison_baselines_pvalues", "p-values against the "
                                  "baselines", bt.pvalues, in_pdf=False,
                                  max_typeset_rows=PAPER_TABLE_ROWS))
    tables.append(ReportTable("comparison_pvalues", "Pairwise p-values", t.pvalues,
                              in_pdf=False, max_typeset_rows=PAPER_TABLE_ROWS))
    page = ReportPage("Comparison", caption, tuple(tables))
    return replace(doc, pages=(page, *doc.pages))


def _column_name(evs, measure: str) -> str:
    """The per-topic column a measure request produced (``P.10`` -> ``P_10``)."""
    from yardstick.evaluation.measures.spec import parse_measure

    cols = next(iter(evs.values())).per_topic.columns
    if measure in cols:
        return measure
    spec = parse_measure(measure)          # nDCG@10 -> ndcg_cut_10; P(rel=2)@5 as asked
    for alt in (spec.text, spec.trec_eval.replace(".", "_")):
        if alt in cols:
            return alt
    raise KeyError(f"measure {measure!r} gives no single per-topic column")


def run(args: argparse.Namespace) -> int:
    from yardstick.cli.option_types import baselines_and_runs
    from yardstick.presentation.reports.render import parse_formats, write_report

    try:
        formats = parse_formats(args.formats)
        args.baseline, args.runs, moved = baselines_and_runs(args.baseline, args.runs)
    except ValueError as e:
        print(f"yardstick report: {e}", file=sys.stderr)
        return 2
    if moved:
        print(f"note: --baseline {' '.join(args.baseline)}; the {moved} files after it are "
              "the runs", file=sys.stderr)
    if args.baseline and not args.comparison_table:
        args.comparison_table = True                 # the baselines' table is part of it
    try:
        doc = build_document(args)
    except KeyError as e:
        print(f"yardstick report: {e.args[0]}", file=sys.stderr)
        return 1
    from yardstick.cli.option_types import dask_executor
    from yardstick.presentation.reports.figure_pool import use_executor

    with dask_executor(args.dask) as executor:
        use_executor(executor)
        try:
            written = write_report(doc, Path(args.out), formats, args.dpi)
        finally:
            use_executor(None)
    for p in written:
        print(p)
    from yardstick.presentation.reports.table_placement import files_notes

    for note in files_notes(doc, formats):      # a table too long to typeset: where it is
        print(f"yardstick report: note: {note}", file=sys.stderr)
    return 0
