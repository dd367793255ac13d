"""Topic-set stability diagnostics: can this topic set tell these runs apart?

  yardstick stability --qrels QRELS [--measure map ...] [--analysis swap|bootstrap|
        error-rate|sensitivity|kendall|taup|discriminative|tukey|topic-set-size|all ...]
        [--topic-group NAME=301-350 ...] [--topic-groups FILE] [--seed N] [-B 1000]
        [--out DIR [--format csv|xlsx|latex|markdown]] RUN...

Runs are evaluated with ``-c`` semantics (a qrels topic a run lacks scores 0).
Measures are trec_eval names (``map``, ``P_10`` or ``P.10``, ``ndcg_cut_10``,
``recip_rank``, ``Rprec``, ``no_rel_10``, ``area``, ``map_worst`` ...).  With
topic groups, every analysis runs on all topics and on each group, and
``kendall``/``taup`` compare the groups' rankings (robust overview Table 3);
without, they compare the measures' rankings (Figure 3).  Random analyses print
the seed they used; pass it back with ``--seed`` to reproduce them exactly.
``--out`` writes every table, including the per-bin fits and rates and the ASL
curves that are not printed.
"""

from __future__ import annotations

import argparse
import re
import secrets
import sys
from pathlib import Path

import pandas as pd

from yardstick.errors import FormatError
from yardstick.progress import Progress, run_sync
from yardstick.stability.report import ANALYSES, StabilitySettings, run_stability


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("runs", nargs="+", metavar="RUN", help="run files")
    p.add_argument("--qrels", required=True, help="qrels file")
    p.add_argument("--measure", "-m", action="append", dest="measures", metavar="NAME",
                   help="per-topic measure (repeatable; default map and P_10)")
    p.add_argument("--analysis", "-a", action="append", dest="analyses",
                   choices=ANALYSES + ("all",), help="analysis to run (repeatable; default all)")
    p.add_argument("--topic-group", action="append", dest="groups", default=[],
                   metavar="NAME=SPEC", help="topic group, e.g. old=301-450 (repeatable)")
    p.add_argument("--topic-groups", metavar="FILE", help="file of topic groups (name: spec)")
    p.add_argument("--seed", type=int, default=None,
                   help="random seed (default: drawn and printed)")
    p.add_argument("-B", "--samples", type=int, default=1000,
                   help="samples per analysis (default 1000)")
    p.add_argument("--bin-width", type=float, default=0.01, help="difference bins (0.01)")
    p.add_argument("--subset-size", type=int, default=None,
                   help="topics per random set for error-rate/sensitivity (default N/2)")
    p.add_argument("--fuzziness", type=float, default=0.05, help="error-rate fuzziness (0.05)")
    p.add_argument("--confidence", type=float, default=0.95, help="confidence level (0.95)")
    p.add_argument("--alpha", type=float, default=0.05, help="significance level (0.05)")
    p.add_argument("--beta", type=float, default=0.20,
                   help="Type II error for topic-set size (0.20)")
    p.add_argument("--min-diff", type=float, action="append", dest="min_diffs",
                   help="minimum detectable difference for topic-set size (repeatable; "
                   "default 0.02 0.05 0.1)")
    p.add_argument("-l", dest="level", type=int, default=1, help="relevance threshold (1)")
    p.add_argument("--out", metavar="DIR", help="write every table into DIR")
    p.add_argument("--format", default="csv", choices=["csv", "xlsx", "latex", "markdown"],
                   help="file format for --out (default csv)")


_SUFFIX = {"csv": ".csv", "xlsx": ".xlsx", "latex": ".tex", "markdown": ".md"}


def run(args: argparse.Namespace) -> int:
    from yardstick.stability.topic_groups import parse_group_arg, read_topic_groups

    analyses = list(ANALYSES) if not args.analyses or "all" in args.analyses \
        else list(dict.fromkeys(args.analyses))
    if args.samples < 1:
        raise FormatError("-B", None, "the number of samples must be >= 1")
    seed = args.seed if args.seed is not None else secrets.randbits(31)
    matrices, tie_break = _score_matrices(args, args.measures or ["map", "P_10"])
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
    try:
        report = run_sync(run_stability(matrices, analyses, {"all": topics, **groups},
                                        settings, tie_break), on_progress=_progress)
    except ValueError as e:
        raise FormatError("yardstick stability", None, str(e)) from e
    for note in report.notes:
        print(f"note: {note}", file=sys.stderr)
    out_dir = Path(args.out) if args.out else None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    for t in report.tables:
        if t.show:
            _print(t.title, t.frame, t.index)
        if out_dir is not None:
            _write(t.frame, out_dir / (re.sub(r"[^\w.-]+", "_", t.name) + _SUFFIX[args.format]),
                   args.format, t.index)
    return 0


def _request(name: str) -> str:
    """trec_eval spec for a per-topic column name (``P_10`` -> ``P.10``)."""
    from yardstick.measures.registry import parse_requests

    m = re.match(r"^(.+?)_(\d+(?:\.\d+)?)$", name)
    try:
        parse_requests([name])
        return name
    except ValueError:
        if m:
            return f"{m.group(1)}.{m.group(2)}"
        raise


def _label(name: str) -> str:
    """Column label for a spec (``P.10`` -> ``P_10``)."""
    m = re.match(r"^(.+?)\.(\d+(?:\.\d+)?)$", name)
    return f"{m.group(1)}_{m.group(2)}" if m else name


def _score_matrices(args, measures: list[str]) -> tuple[dict[str, pd.DataFrame], pd.DataFrame]:
    """Evaluate the runs once; -> {measure label: topics × runs}, MAP (tie-break)."""
    from yardstick.evaluation_service import EvalOptions, evaluate_runs
    from yardstick.io import read_qrels, read_run
    from yardstick.stability.aggregates import per_topic_measure
    from yardstick.stability.report import score_matrices

    qrels = read_qrels(args.qrels)
    runs = [read_run(p) for p in args.runs]
    names = [r.name for r in runs]
    if len(set(names)) != len(names):
        raise FormatError(args.runs[0], None, "two runs have the same name")
    if len(runs) < 2:
        raise FormatError(args.runs[0], None, "stability diagnostics need at least two runs")
    labels = list(dict.fromkeys(_label(m) for m in measures))
    try:
        specs = list(dict.fromkeys(_request(per_topic_measure(lb)) for lb in [*labels, "map"]))
    except ValueError as e:
        raise FormatError("--measure", None, str(e)) from e
    options = EvalOptions(relevance_level=args.level, complete=True)
    evals = run_sync(evaluate_runs(runs, qrels, specs, options), on_progress=_progress)
    try:
        matrices, tie_break = score_matrices(evals, labels)
    except KeyError as e:
        raise FormatError("--measure", None, f"no per-topic values for {e}") from e
    return matrices, tie_break


def _progress(p: Progress) -> None:
    if sys.stderr.isatty():
        print(f"\r{p.message[:60]:<60} {100 * p.fraction:5.1f}%", end="", file=sys.stderr)
        if p.fraction >= 1:
            print(file=sys.stderr)


def _print(title: str, frame: pd.DataFrame, index: bool) -> None:
    print(f"\n## {title}")
    with pd.option_context("display.max_rows", 200, "display.width", 160,
                           "display.max_columns", 30):
        print(frame.to_string(index=index, float_format=lambda v: f"{v:.4f}"))


def _write(frame: pd.DataFrame, path: Path, fmt: str, index: bool) -> None:
    from yardstick.export.tables import write_table

    write_table(frame if index else frame.reset_index(drop=True), path, fmt)
