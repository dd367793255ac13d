"""How soon Cancel takes effect: the longest stretch between two cancellation points.

    .venv/bin/python benchmarks/bench_cancel_points.py --track /work/tracks/wide

The window runs every load and analysis as a progress generator (``gui/jobs.py``);
Cancel closes the generator at its next ``yield`` (and a run being parsed stops
at its next piece, ``core/inputs/io/read_progress.py``).  So the time Cancel can take is
the longest gap between two yields.  This drives the real jobs on a track (a
``gen_track.py`` folder: ``qrels.txt``, ``runs/``, ``groups.tsv``) and prints,
per job, its duration and its longest gap (issue #14's target: 0.5 s):

* loading the qrels and each run (``read_qrels_job``, ``read_run_job``);
* evaluating every run (``evaluate_runs``, the window's evaluation job);
* the stability analyses (``run_stability``, all of them, B = 1000);
* the pool analyses (``iter_pool_report``: stats, sources, uniques, simulate).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


def gaps(job, label: str, rows: list) -> object:
    """Drive ``job`` to its end; record its total time and longest gap between yields."""
    t0 = last = time.perf_counter()
    longest, where, before = 0.0, "start", "start"
    try:
        while True:
            p = next(job)
            now = time.perf_counter()
            if now - last > longest:
                longest, where = now - last, f"after '{before}'"
            last, before = now, getattr(p, "message", "")
    except StopIteration as stop:
        now = time.perf_counter()
        if now - last > longest:
            longest, where = now - last, f"after '{before}'"
        rows.append((label, now - t0, longest, where))
        return stop.value


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--track", required=True)
    ap.add_argument("--samples", type=int, default=1000)
    a = ap.parse_args(argv)
    from yardstick.analysis.pool.report import PoolSettings, iter_pool_report
    from yardstick.analysis.stability.report import (
        ANALYSES,
        StabilitySettings,
        run_stability,
        score_matrices,
    )
    from yardstick.evaluation.evaluation_service import EvalOptions
    from yardstick.inputs.io.groups_file import read_groups
    from yardstick.inputs.io.read_progress import read_qrels_job, read_run_job
    from yardstick.judging.judged_runs_build import iter_build_judged_runs
    from yardstick.session.evaluating import evaluate_runs

    track = Path(a.track)
    rows: list = []
    qrels = gaps(read_qrels_job(track / "qrels.txt"), "read qrels", rows)
    groups = read_groups(track / "groups.tsv") if (track / "groups.tsv").exists() else {}
    runs, worst = [], (None, 0.0, 0.0, "")
    for p in sorted((track / "runs").iterdir()):
        sub: list = []
        runs.append(gaps(read_run_job(p, group=groups.get(p.name, "")), "read run", sub))
        if sub[0][2] > worst[2]:
            worst = sub[0]
    rows.append((f"read {len(runs)} runs (worst run)", *worst[1:]))
    evals = gaps(evaluate_runs(runs, qrels, ["official"], EvalOptions(complete=True)),
                 f"evaluate {len(runs)} runs", rows)
    matrices, tie_break = score_matrices(evals, ["map", "P_10"])
    topics = list(tie_break.index)
    settings = StabilitySettings(samples=a.samples, seed=1)
    gaps(run_stability(matrices, list(ANALYSES), {"all": topics}, settings, tie_break),
         "stability, every analysis", rows)
    index = gaps(iter_build_judged_runs(runs, qrels), "pool index", rows)
    gaps(iter_pool_report(index, PoolSettings(depth=100, analyses=(
        "stats", "sources", "uniques", "simulate"))), "pool analyses", rows)
    print(f"\n{len(runs)} runs, {len(topics)} topics\n")
    print("| job | time | longest gap between cancellation points | where |")
    print("|---|---:|---:|---|")
    for label, total, longest, where in rows:
        print(f"| {label} | {total:.2f} s | {longest * 1000:.0f} ms | {where} |")
    bad = [r for r in rows if r[2] > 0.5]
    verdict = "PASS" if not bad else "FAIL: " + ", ".join(r[0] for r in bad)
    print(f"\ntarget (every gap <= 0.5 s): {verdict}")
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
