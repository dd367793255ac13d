"""System of runs against system of runs: topics and runs both counted.

  yardstick compare-systems --qrels Q (--systems FILE | --pattern REGEX) [-m MEASURE]
                            [--correction holm] [--min-diff D]... [--out DIR] RUN…

A system is a set of runs (seeds, folds, query variants, one team's runs), named by a
systems file (``run<TAB>system``, the groups file's format; a run is its file name or
run tag) or by a regular expression over the run names whose first group (or group
``system``) names the system.  Runs in no system are listed.

Prints per system the mean over its runs, the run-to-run spread and the topic-based
95% interval; per system pair the difference and three tests side by side — a linear
mixed model ``score ~ system + (1|topic) + (1|run)`` (statsmodels MixedLM) and the two
shortcuts (average the runs then a paired t-test; pool all runs) — with p-values
corrected for multiple comparisons; the variance components; and how many runs per
system and topics would be needed to see ``--min-diff``.

``--out DIR`` writes tidy tables: ``systems`` (one row per system), ``system_pairs``
(one row per pair), ``system_topics``, ``variances``, ``design``, ``assumptions`` and
``unassigned_runs``, and the chart ``systems`` (run spread beside the topic interval).
"""

from __future__ import annotations

import argparse
import os
import sys

from yardstick.analysis.significance import CORRECTIONS
from yardstick.cli.option_types import whole
from yardstick.common.errors import FormatError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("runs", nargs="+", metavar="RUN", help="run files (plain or compressed)")
    p.add_argument("--qrels", required=True, help="qrels file")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--systems", metavar="FILE", help="'run<TAB>system' lines")
    g.add_argument("--pattern", metavar="REGEX",
                   help="regular expression over run names; its first group names the system")
    p.add_argument("-m", "--measure", default="map", help="measure (default map)")
    p.add_argument("-l", "--level", type=whole(1), default=1, help="relevance level")
    p.add_argument("--correction", choices=list(CORRECTIONS), default="holm",
                   help="multiple-comparison correction (default holm)")
    p.add_argument("--method", choices=["auto", "complete", "crossed", "topic_fixed"],
                   default="auto",
                   help="mixed-model fit (default auto: closed-form REML on a complete "
                        "design, else statsmodels MixedLM)")
    p.add_argument("--min-diff", type=float, action="append", default=[], metavar="D",
                   help="difference to detect in the design table (repeatable; default "
                        "0.02 and 0.05)")
    p.add_argument("--out", metavar="DIR", help="write every table to DIR")
    p.add_argument("--format", choices=["csv", "tsv", "xlsx", "latex", "markdown"],
                   default="csv", help="table format with --out (default csv)")
    p.add_argument("--chart-format", choices=["png", "svg", "pdf"], default="png",
                   help="chart format with --out (default png)")


def systems_map(runs, path: str | None, pattern: str | None) -> dict[str, str]:
    """``{run name: system}`` from a systems file (names, file names or tags) or a pattern
    (:func:`yardstick.analysis.systems.systems_for_runs`, as ``ys.compare_systems``)."""
    from yardstick.analysis.systems import systems_for_runs

    return systems_for_runs(runs, path, pattern)


def run(args: argparse.Namespace) -> int:
    from yardstick.analysis.systems_comparison import compare_systems_matrix
    from yardstick.common.progress import run_sync
    from yardstick.evaluation.evaluation_service import EvalOptions
    from yardstick.evaluation.measures.spec import parse_measure
    from yardstick.evaluation.results import score_matrix
    from yardstick.inputs.io import read_qrels, read_run
    from yardstick.inputs.run_names import unique_names
    from yardstick.session.evaluating import evaluate_runs

    qrels = read_qrels(args.qrels)
    runs, notes = unique_names([read_run(p) for p in args.runs])
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    systems = systems_map(runs, args.systems, args.pattern)
    try:
        spec = parse_measure(args.measure)
        evs = run_sync(evaluate_runs(runs, qrels, [spec], EvalOptions(
            relevance_level=args.level, complete=True)))
    except ValueError as e:
        raise FormatError("--measure", None, str(e)) from e
    first = next(iter(evs.values()))
    cols = [c for c in first.per_topic.columns if c != "relstring"]
    if len(cols) != 1:
        raise FormatError("--measure", None, f"{args.measure!r} gives {len(cols)} columns")
    scores = score_matrix(evs, cols[0])
    try:
        cmp = compare_systems_matrix(scores, systems, cols[0], args.correction, args.method,
                                     tuple(args.min_diff) or (0.02, 0.05))
    except ValueError as e:
        raise FormatError(args.systems or "--pattern", None, str(e)) from e
    tables = cmp.tables()
    _print(cmp, tables, sys.stdout)
    if args.out:
        _write(args, tables, runs, cmp)
    return 0


def _print(cmp, tables: dict, out) -> None:
    from yardstick.presentation.export.cells import console_text

    print(f"systems on {cmp.measure} (mean over runs; run_sd: run-to-run spread; "
          "ci: 95% over topics)", file=out)
    cols = ["system", "n_runs", "n_topics", "mean", "run_sd", "run_min", "run_max", "ci_low",
            "ci_high"]
    print(console_text(_spread_said(tables["systems"][cols]), index=False), file=out)
    print(f"\nsystem pairs (diff = b - a; p-values {cmp.correction}-corrected)", file=out)
    cols = ["system_a", "system_b", "mean_difference", "p_value_mixed_corrected",
            "p_value_averaged_corrected", "p_value_pooled_corrected"]
    print(console_text(tables["system_pairs"][cols], index=False), file=out)
    m = cmp.mixed
    print(f"\nmixed model ({m.method}, {m.n_obs} scores): variance topic {m.var_topic:.5f}, "
          f"run {m.var_run:.5f}, residual {m.var_residual:.5f}"
          + (f"; note: {'; '.join(m.notes)}" if m.notes else ""), file=out)
    for test, text in zip(tables["assumptions"]["test"], tables["assumptions"]["assumes"]):
        print(f"  {test}: {text}", file=out)
    if len(cmp.design):
        print("\nruns per system and topics needed (power 0.8, alpha 0.05)", file=out)
        print(console_text(cmp.design, index=False), file=out)
    if cmp.unassigned:
        print(f"\n{len(cmp.unassigned)} runs in no system: " + " ".join(cmp.unassigned[:20])
              + (" …" if len(cmp.unassigned) > 20 else ""), file=out)


def _spread_said(systems):
    """The systems table with ``run_sd`` as text: "one run" for a system of one run (no
    spread between runs), "—" where there is none for another reason, never NaN."""
    import math

    shown = systems.copy()
    shown["run_sd"] = ["one run" if n == 1 and math.isnan(v) else "—" if math.isnan(v)
                       else f"{v:.4f}" for n, v in zip(shown["n_runs"], shown["run_sd"])]
    return shown


def _write(args, tables: dict, runs, cmp) -> None:
    from yardstick.common.options import EvalOptions
    from yardstick.common.provenance import Provenance
    from yardstick.presentation.export.tables import write_table

    os.makedirs(args.out, exist_ok=True)
    suffix = {"csv": "csv", "tsv": "tsv", "xlsx": "xlsx", "latex": "tex",
              "markdown": "md"}[args.format]
    prov = Provenance.build(args.qrels, [(p, r.tag or r.name) for p, r in zip(args.runs, runs)],
                            [args.measure], EvalOptions(relevance_level=args.level,
                                                        complete=True),
                            extra={"systems": args.systems or f"pattern {args.pattern}",
                                   "correction": args.correction})
    for name, frame in tables.items():
        write_table(frame.reset_index(drop=True), os.path.join(args.out, f"{name}.{suffix}"),
                    fmt=args.format, provenance=prov)
    from yardstick.presentation.charts.judgment_specs import systems_figure
    from yardstick.presentation.charts.render_mpl import write_figure

    write_figure(systems_figure(cmp), os.path.join(args.out, f"systems.{args.chart_format}"),
                 provenance=prov)
    print(f"tables and the systems chart written to {args.out}", file=sys.stderr)
