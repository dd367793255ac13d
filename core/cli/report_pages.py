"""The ad hoc report's optional pages, asked on ``yardstick report``'s command line: the
"Judgment sets" page (``--qrels-also``: qrels against qrels) and the "Systems" page
(``--systems``: systems of runs), with the provenance naming the files they read.
"""

from __future__ import annotations

import os
from dataclasses import replace

__all__ = ["with_judgment_and_systems_pages"]


def with_judgment_and_systems_pages(doc, args, runs, qrels, prov):
    """``doc`` with the "Judgment sets" page (``--qrels-also``) and the "Systems" page
    (``--systems``) after its pages, and ``prov`` naming every qrels and the systems file."""
    from yardstick.analysis.qrels_comparison import compare_qrels
    from yardstick.analysis.systems_comparison import compare_systems_matrix
    from yardstick.cli.compare_systems_cmd import systems_map
    from yardstick.cli.qrels_compare_cmd import _stem
    from yardstick.common.errors import FormatError
    from yardstick.common.progress import run_sync
    from yardstick.common.provenance import file_sha256
    from yardstick.evaluation.evaluation_service import EvalOptions
    from yardstick.evaluation.measures.spec import parse_measure
    from yardstick.evaluation.results import score_matrix
    from yardstick.inputs.io import read_qrels
    from yardstick.presentation.reports.judgment_pages import judgment_page, systems_page
    from yardstick.session.evaluating import evaluate_runs

    if args.kind != "adhoc":
        raise FormatError("--qrels-also" if args.qrels_also else "--systems", None,
                          "the Judgment sets and Systems pages belong to the ad hoc report")
    pages = list(doc.pages)
    if args.qrels_also:
        paths = [args.qrels, *args.qrels_also]
        names = [_stem(p) for p in paths]
        if len(set(names)) < len(names):
            names = [os.path.basename(p) for p in paths]
        if len(set(names)) < len(names):
            names = [f"{n} ({i + 1})" for i, n in enumerate(names)]
        sets = [read_qrels(p, name=n) for p, n in zip(paths, names)]
        try:
            cmp = compare_qrels(sets, runs, args.measure, args.level)
        except ValueError as e:
            raise FormatError("--qrels-also", None, str(e)) from e
        pages.append(judgment_page(cmp, dict(zip(names, map(os.path.basename, paths)))))
        prov = prov.with_extra(**{f"qrels {n}": f"{os.path.basename(p)} sha256 "
                                  f"{file_sha256(p)}" for n, p in zip(names, paths)})
    if args.systems:
        mapping = systems_map(runs, args.systems, None)
        spec = parse_measure(args.measure)
        evs = run_sync(evaluate_runs(runs, qrels, [spec], EvalOptions(
            relevance_level=args.level, complete=True)))
        cols = [c for c in next(iter(evs.values())).per_topic.columns if c != "relstring"]
        try:
            sc = compare_systems_matrix(score_matrix(evs, cols[0]), mapping, cols[0],
                                        args.correction)
        except ValueError as e:
            raise FormatError(args.systems, None, str(e)) from e
        pages.append(systems_page(sc, f"systems file {os.path.basename(args.systems)}"))
        prov = prov.with_extra(systems=f"{os.path.basename(args.systems)} sha256 "
                               f"{file_sha256(args.systems)}",
                               systems_correction=args.correction)
    return replace(doc, pages=tuple(pages)), prov
