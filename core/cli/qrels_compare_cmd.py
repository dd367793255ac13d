"""Judgment set against judgment set: agreement, and what a second qrels does to the
evaluation.

  yardstick qrels-compare A B [C…] [RUN…] [-m MEASURE] [-l LEVEL] [--out DIR]

The files are told apart by their columns (qrels: ``topic iter docno rel``; runs: six
columns); the first qrels is the reference.  Prints, per pair of qrels, the documents
judged by both and by one only, Cohen's kappa (binary at ``-l``, default 1, and weighted
over grades), Voorhees's overlap of the relevant sets, and with runs Kendall's tau-b,
tau_AP, the swapped run pairs and the largest rank change.  Topics judged in some sets
only are listed and left out of every mean.

``--out DIR`` writes tidy tables: ``agreement`` (per topic and ``all``, a ``kappa``
column), ``confusion``, ``missing_judgments``, ``topics_one_set`` and, with runs,
``scores`` (per run under each set), ``correlations`` (``tau``, ``tau_ap`` columns),
``rank_changes``, ``swaps`` and ``topic_movers``, and the charts ``voorhees`` (per-topic
overlap beside the run scatter; ``voorhees_2`` … for further pairs) and
``ranking_vs_overlap``; each with provenance naming every qrels.
"""

from __future__ import annotations

import argparse
import os
import sys

from yardstick.cli.option_types import whole
from yardstick.common.errors import FormatError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="two or more qrels files, then run files (told apart by columns)")
    p.add_argument("-m", "--measure", default="map", help="measure (default map)")
    p.add_argument("-l", "--level", type=whole(0), default=1,
                   help="relevance level: binary kappa, overlap, evaluation (default 1)")
    p.add_argument("--name", action="append", default=[], metavar="NAME",
                   help="a name for each qrels, in order (default: file names)")
    p.add_argument("--out", metavar="DIR", help="write every table to DIR")
    p.add_argument("--format", choices=["csv", "tsv", "xlsx", "latex", "markdown"],
                   default="csv", help="table format with --out (default csv)")
    p.add_argument("--chart-format", choices=["png", "svg", "pdf"], default="png",
                   help="chart format with --out (default png)")


def _split(paths: list[str]) -> tuple[list[str], list[str]]:
    from yardstick.session.loading import classify_file

    qrels, runs = [], []
    for p in paths:
        kind = classify_file(p)
        if kind == "qrels":
            qrels.append(p)
        elif kind == "run":
            runs.append(p)
        else:
            _say_why(p)
            raise FormatError(p, None, "neither qrels (topic iter docno rel) nor a run "
                                       "(topic Q0 docno rank score tag)")
    return qrels, runs


def _say_why(path: str) -> None:
    """A file that is neither kind by its columns: read it as the kind its first line
    looks like, so the reader names the line that is wrong (as ``yardstick eval`` does)."""
    from yardstick.inputs.io import read_qrels, read_run
    from yardstick.session.file_kinds import head_text

    try:
        head = head_text(path)
    except OSError:
        return
    words = next((line.split() for line in head.splitlines() if line.strip()), [])
    if len(words) == 4:
        read_qrels(path)
    elif len(words) == 6:
        read_run(path)


def _stem(path: str) -> str:
    """A qrels file's display name: its file name without compression or ``.txt``."""
    name = os.path.basename(path)
    for suffix in (".gz", ".xz", ".bz2", ".zst", ".txt", ".qrels"):
        name = name.removesuffix(suffix) or name
    return name


def run(args: argparse.Namespace) -> int:
    from yardstick.analysis.qrels_comparison import agreement_tables, compare_qrels
    from yardstick.inputs.io import read_qrels, read_run
    from yardstick.inputs.run_names import unique_names

    qpaths, rpaths = _split(args.files)
    if len(qpaths) < 2:
        raise FormatError(args.files[0], None, "qrels-compare needs at least two qrels files")
    names = list(args.name) + [_stem(p) for p in qpaths[len(args.name):]]
    qrels = [read_qrels(p, name=n) for p, n in zip(qpaths, names)]
    runs, notes = unique_names([read_run(p) for p in rpaths])
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    cmp = None
    if runs:
        try:
            cmp = compare_qrels(qrels, runs, args.measure, args.level)
            tables = cmp.tables()
        except ValueError as e:
            raise FormatError("--measure", None, str(e)) from e
    else:
        tables = agreement_tables(qrels, args.level)
    _print(tables, sys.stdout)
    if args.out:
        _write(args, tables, qpaths, names, rpaths, runs, cmp)
    return 0


def _print(tables: dict, out) -> None:
    from yardstick.presentation.export.cells import console_text

    agree = tables["agreement"]
    overall = agree[agree["topic"] == "all"]
    print("agreement (topics judged in both sets; kappa binary at the relevance level)",
          file=out)
    cols = ["a", "b", "n_topics", "judged_both", "only_a", "only_b", "overlap", "kappa",
            "kappa_linear", "kappa_quadratic"]
    print(console_text(overall[cols], index=False), file=out)
    one = tables["topics_one_set"]
    if len(one):
        print(f"\n{len(one)} topics judged in some sets only (left out): "
              + " ".join(map(str, one["topic"][:20])) + (" …" if len(one) > 20 else ""),
              file=out)
    if "correlations" in tables:
        print("\nsystem rankings (tau: Kendall's tau-b; tau_ap: Yilmaz et al. 2008, "
              "first set as truth)", file=out)
        cols = ["a", "b", "measure", "n_runs", "tau", "tau_ap", "swaps", "n_pairs",
                "max_rank_change", "max_rank_change_run", "overlap", "kappa"]
        print(console_text(tables["correlations"][cols], index=False), file=out)


def _write(args, tables: dict, qpaths, names, rpaths, runs, cmp) -> None:
    from yardstick.common.options import EvalOptions
    from yardstick.common.provenance import Provenance, file_sha256
    from yardstick.presentation.export.tables import write_table

    os.makedirs(args.out, exist_ok=True)
    suffix = {"csv": "csv", "tsv": "tsv", "xlsx": "xlsx", "latex": "tex",
              "markdown": "md"}[args.format]
    prov = Provenance.build(qpaths[0], [(p, r.tag or r.name) for p, r in zip(rpaths, runs)],
                            [args.measure], EvalOptions(relevance_level=args.level),
                            extra={f"qrels {n}": f"{os.path.basename(p)} sha256 "
                                                       f"{file_sha256(p)}"
                                   for n, p in zip(names, qpaths)})
    for name, frame in tables.items():
        write_table(frame.reset_index(drop=True), os.path.join(args.out, f"{name}.{suffix}"),
                    fmt=args.format, provenance=prov)
    if cmp is not None:
        from yardstick.presentation.charts.judgment_specs import (
            ranking_vs_overlap_figure,
            voorhees_figure,
        )
        from yardstick.presentation.charts.render_mpl import write_figure

        ext = args.chart_format
        for k, (a, b) in enumerate(cmp.pairs()):
            tail = "" if k == 0 else f"_{k + 1}"
            write_figure(voorhees_figure(cmp, a, b),
                         os.path.join(args.out, f"voorhees{tail}.{ext}"), provenance=prov)
        write_figure(ranking_vs_overlap_figure(tables["correlations"]),
                     os.path.join(args.out, f"ranking_vs_overlap.{ext}"), provenance=prov)
    print(f"tables{' and charts' if cmp is not None else ''} written to {args.out}",
          file=sys.stderr)
