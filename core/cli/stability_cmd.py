"""Topic-set stability diagnostics: can this topic set tell these runs apart?

  yardstick stability --qrels QRELS [--measure map ...] [--analysis swap|bootstrap|
        error-rate|sensitivity|kendall|taup|discriminative|tukey|topic-set-size|all ...]
        [--topic-group NAME=301-350 ...] [--topic-groups FILE] [--seed N] [-B 1000]
        [--out DIR [--format csv|tsv|xlsx|latex|markdown]] RUN...

Runs are evaluated with ``-c`` semantics (a qrels topic a run lacks scores 0).
Measures are trec_eval names (``map``, ``P_10`` or ``P.10``, ``ndcg_cut_10``,
``recip_rank``, ``Rprec``, ``no_rel_10``, ``area``, ``map_worst`` ...).  With
topic groups, every analysis runs on all topics and on each group, and
``kendall``/``taup`` compare the groups' rankings (robust overview Table 3);
without, they compare the measures' rankings (Figure 3).  Random analyses use
``--seed`` (default 0, as the window, ``report`` and ``ys.stability_report``: the same
command gives the same tables) and print it.
``--out`` writes every table, including the per-bin fits and rates and the ASL
curves that are not printed, and each analysis's chart as PNG, SVG and PDF
(``chart_<analysis>_<measure>_<set>``, the window's figures).
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import replace
from pathlib import Path

import pandas as pd

from yardstick.analysis.stability.analyses import REGISTRY
from yardstick.analysis.stability.report import ANALYSES, StabilitySettings, run_stability
from yardstick.cli.option_types import add_dask_argument, fraction, positive, whole
from yardstick.common.errors import FormatError
from yardstick.common.progress import Progress, run_sync


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("runs", nargs="+", metavar="RUN", help="run files")
    p.add_argument("--qrels", required=True, help="qrels file")
    p.add_argument("--measure", "-m", action="append", dest="measures", metavar="NAME",
                   help="per-topic measure (repeatable; default map and P_10)")
    p.add_argument("--analysis", "-a", action="append", dest="analyses",
                   choices=ANALYSES + ("all",),
                   help="analysis to run (repeatable; default all): " + "; ".join(
                       f"{name} = {a.title}" for name, a in REGISTRY.items()))
    p.add_argument("--topic-group", action="append", dest="groups", default=[],
                   metavar="NAME=SPEC", help="topic group, e.g. old=301-450 (repeatable)")
    p.add_argument("--topic-groups", metavar="FILE", help="file of topic groups (name: spec)")
    p.add_argument("--seed", type=whole(0), default=0,
                   help="random seed (default 0, as the window, report and ys.stability_report; "
                        "printed with the tables)")
    p.add_argument("-B", "--samples", type=whole(2, " (resampling needs samples)"), default=1000,
                   help="samples per analysis (default 1000)")
    p.add_argument("--bin-width", type=positive(), default=0.01, help="difference bins (0.01)")
    p.add_argument("--subset-size", type=whole(1), default=None,
                   help="topics per random set for error-rate/sensitivity (default N/2)")
    p.add_argument("--fuzziness", type=fraction(0, 1, low_open=False), default=0.05,
                   help="error-rate fuzziness (0.05)")
    p.add_argument("--confidence", type=fraction(), default=0.95, help="confidence level (0.95)")
    p.add_argument("--alpha", type=fraction(), default=0.05, help="significance level (0.05)")
    p.add_argument("--beta", type=fraction(), default=0.20,
                   help="Type II error for topic-set size (0.20)")
    p.add_argument("--min-diff", type=positive(), action="append", dest="min_diffs",
                   help="minimum detectable difference for topic-set size (repeatable; "
                   "default 0.02 0.05 0.1)")
    p.add_argument("-l", dest="level", type=whole(0), default=1, help="relevance threshold (1)")
    p.add_argument("--out", metavar="DIR", help="write every table into DIR")
    p.add_argument("--format", default="csv", choices=["csv", "tsv", "xlsx", "latex", "markdown"],
                   help="file format for --out (default csv)")
    add_dask_argument(p)


_SUFFIX = {"csv": ".csv", "tsv": ".tsv", "xlsx": ".xlsx", "latex": ".tex", "markdown": ".md"}


def run(args: argparse.Namespace) -> int:
    from yardstick.analysis.stability.topic_groups import parse_group_arg, read_topic_groups

    analyses = list(ANALYSES) if not args.analyses or "all" in args.analyses \
        else list(dict.fromkeys(args.analyses))
    if args.samples < 1:
        raise FormatError("-B", None, "the number of samples must be >= 1")
    seed = args.seed
    matrices, tie_break, runs, coverage = _score_matrices(args, args.measures or ["map", "P_10"])
    topics = list(tie_break.index)
    groups: dict[str, list[str]] = {}
    if args.topic_groups:
        groups.update(read_topic_groups(args.topic_groups, topics))
    for g in args.groups:
        try:
            name, ts = parse_group_arg(g, topics)
        except ValueError as e:
            raise FormatError("--topic-group", None, str(e), g) from e
        groups[name] = ts
    settings = StabilitySettings(
        samples=args.samples, seed=seed, bin_width=args.bin_width, subset_size=args.subset_size,
        fuzziness=args.fuzziness, confidence=args.confidence, alpha=args.alpha, beta=args.beta,
        min_diffs=tuple(args.min_diffs or (0.02, 0.05, 0.1)))
    print(f"# {len(topics)} topics, {len(tie_break.columns)} runs, seed {seed}")
    for note in coverage:
        print(f"yardstick stability: note: {note}", file=sys.stderr)
    from yardstick.cli.option_types import dask_executor

    try:
        with dask_executor(args.dask, threads=None) as executor:   # in-process: a thread per core
            report = run_sync(run_stability(matrices, analyses, {"all": topics, **groups},
                                            settings, tie_break, executor),
                              on_progress=_progress)
    except FormatError:
        raise                                   # --dask's address: its own message
    except ValueError as e:
        raise FormatError(args.qrels, None, f"stability analysis failed: {e}") from e
    for note in report.notes:
        print(f"note: {note}", file=sys.stderr)
    if report.assumptions is not None:      # once, above every table
        report = replace(report, assumptions=report.assumptions.updated(
            seed=seed, resamples=args.samples).with_notes([*coverage, *report.notes]))
        print(report.assumptions.text())
    for t in report.tables:
        if t.show:
            _print(t.title, t.frame, t.index)
    if args.out:
        _write_all(report, Path(args.out), args, seed, matrices, runs, coverage)
    return 0


def _write_all(report, out_dir: Path, args, seed: int, matrices, runs, notes=()) -> None:
    """Every table and the detail tables
    (:mod:`yardstick.presentation.export.stability_tables`), at full precision, each with
    its provenance, and every chart."""
    from yardstick.common.provenance import Provenance
    from yardstick.evaluation.evaluation_service import EvalOptions
    from yardstick.presentation.export.stability_tables import detail_tables
    from yardstick.presentation.export.tables import write_table

    out_dir.mkdir(parents=True, exist_ok=True)
    prov = Provenance.build(args.qrels, [(p, r.tag) for p, r in zip(args.runs, runs)],
                            list(matrices),
                            EvalOptions(relevance_level=args.level, complete=True),
                            seeds={"stability": seed},
                            extra={"samples": args.samples, "alpha": args.alpha,
                                   "confidence": args.confidence,
                                   **({"topics": " ".join(notes)} if notes else {})})
    titles = {re.sub(r"[^\w.-]+", "_", t.name): t.title for t in report.tables}
    tables = [(re.sub(r"[^\w.-]+", "_", t.name), t.frame, t.index) for t in report.tables]
    if report.assumptions is not None:
        tables.insert(0, ("assumptions", report.assumptions.to_frame(), True))
        titles["assumptions"] = "Assumptions behind the stability tables"
    for stem, frame, index in tables + detail_tables(report):
        if index and frame.index.name is None and stem.endswith("_matrix"):
            frame = frame.rename_axis("measure")      # measures x measures (tau, tau_AP)
        write_table(frame if index else frame.reset_index(drop=True),
                    out_dir / (stem + _SUFFIX[args.format]), args.format, provenance=prov,
                    caption=titles.get(stem))
    from yardstick.presentation.charts.chart_files import stability_charts, write_charts

    write_charts(stability_charts(report), out_dir, prov)    # each chart: PNG, SVG, PDF


def _request(name: str) -> str:
    """trec_eval spec for a per-topic column name (``P_10`` -> ``P.10``)."""
    from yardstick.evaluation.measures.registry import parse_requests

    m = re.match(r"^(.+?)_(\d+(?:\.\d+)?)$", name)
    try:
        parse_requests([name])
        return name
    except ValueError:
        if m:
            return f"{m.group(1)}.{m.group(2)}"
        raise


def merge_cutoffs(specs: list[str]) -> list[str]:
    """One request per measure with every cutoff asked: ``P.5``, ``P.10`` -> ``P.5,10``.

    trec_eval's ``-m`` keeps only the first parameters given for a measure, so
    ``-m P.5 -m P.10`` would evaluate P_5 alone (``stability -m P_5 -m P_10`` once failed
    with "no per-topic values for 'P_10'").
    """
    out: dict[str, list[str]] = {}  # measure (or whole spec) -> cutoffs, in order
    for s in specs:
        name, dot, params = s.partition(".")
        cuts = params.split(",") if dot else []
        if not all(c.replace(".", "", 1).isdigit() for c in cuts):
            out.setdefault(s, [])  # name=value parameters: kept as given
            continue
        have = out.setdefault(name, [])
        have.extend(c for c in cuts if c not in have)
    return [f"{k}.{','.join(v)}" if v else k for k, v in out.items()]


def _label(name: str) -> str:
    """Column label for a spec (``P.10`` -> ``P_10``)."""
    m = re.match(r"^(.+?)\.(\d+(?:\.\d+)?)$", name)
    return f"{m.group(1)}_{m.group(2)}" if m else name


def _score_matrices(args, measures: list[str]
                    ) -> tuple[dict[str, pd.DataFrame], pd.DataFrame, list, list[str]]:
    """Evaluate the runs once; -> {measure label: topics × runs}, MAP (tie-break), the runs,
    and what happened to topics outside the common ground (every qrels topic counts, 0
    where a run has no results: trec_eval ``-c``)."""
    from yardstick.analysis.stability.aggregates import per_topic_measure
    from yardstick.analysis.stability.report import score_matrices
    from yardstick.evaluation.evaluation_service import EvalOptions
    from yardstick.inputs.io import read_qrels
    from yardstick.inputs.topic_coverage import topic_coverage
    from yardstick.session.evaluating import evaluate_files

    if len(args.runs) < 2:
        raise FormatError(args.runs[0], None, "stability diagnostics need at least two runs")
    labels = list(dict.fromkeys(_label(m) for m in measures))
    try:
        specs = list(dict.fromkeys(_request(per_topic_measure(lb)) for lb in [*labels, "map"]))
    except ValueError as e:
        raise FormatError("--measure", None, str(e)) from e
    qrels = read_qrels(args.qrels)
    options = EvalOptions(relevance_level=args.level, complete=True)
    # each run read and evaluated before the next (only per-topic scores are kept)
    runs, evals, notes = run_sync(evaluate_files(args.runs, qrels, merge_cutoffs(specs),
                                                 options), on_progress=_progress)
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    coverage = topic_coverage(qrels.topics.tolist(), runs, complete=True).messages()
    try:
        matrices, tie_break = score_matrices(evals, labels)
    except KeyError as e:
        raise FormatError("--measure", None, f"no per-topic values for {e}") from e
    return matrices, tie_break, runs, coverage


def _progress(p: Progress) -> None:
    if sys.stderr.isatty():
        print(f"\r{p.message[:60]:<60} {100 * p.fraction:5.1f}%", end="", file=sys.stderr)
        if p.fraction >= 1:
            print(file=sys.stderr)


def _print(title: str, frame: pd.DataFrame, index: bool) -> None:
    from yardstick.presentation.export.cells import console_text

    print(f"\n## {title}")
    with pd.option_context("display.max_rows", 200, "display.width", 160,
                           "display.max_columns", 30):
        print(console_text(frame, index=index))
