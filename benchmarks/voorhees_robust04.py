"""Voorhees 2000's finding on Robust04: judgments differ, system rankings hold.

Voorhees ("Variations in relevance judgments and the measurement of retrieval
effectiveness", IP&M 36(5), 2000) had TREC-4 topics judged by two more assessors: the
relevant sets overlapped by 0.3-0.5 on average, yet Kendall's tau between the system
rankings by MAP stayed about 0.9 (0.938 on average).  Robust04 has one assessor; its
secondary sets here are made by perturbing the grades
(:func:`yardstick.judging.perturbed_qrels.perturb_grades`: a relevant document judged
non-relevant with probability ``drop``, a non-relevant one relevant with probability
``add``), at increasing strength.  The runs: the 10 TREC 2004 submissions, 7 SIGIR 2018
tutorial systems and an RM3 run in ``../shared/data/robust04``.

    .venv/bin/python benchmarks/voorhees_robust04.py --out /tmp/voorhees

writes ``voorhees_table.csv`` (one row per secondary set: overlap, kappa, tau, tau_ap,
swaps), ``ranking_vs_overlap.png`` and ``voorhees.png`` (the middle set), and prints the
table.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import pandas as pd

from yardstick.analysis.qrels_comparison import compare_qrels
from yardstick.inputs.io import read_qrels, read_run
from yardstick.inputs.run_names import unique_names
from yardstick.judging.perturbed_qrels import perturb_grades
from yardstick.presentation.charts.judgment_specs import ranking_vs_overlap_figure, voorhees_figure
from yardstick.presentation.charts.render_mpl import write_figure

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "robust04"
LEVELS = ((0.2, 0.01), (0.35, 0.02), (0.5, 0.03), (0.65, 0.04))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=os.environ.get("ROBUST04", str(DATA)))
    ap.add_argument("--out", default="/tmp/voorhees")
    ap.add_argument("--measure", default="map")
    args = ap.parse_args()
    data = Path(args.data)
    runs_dir = data / "runs"
    paths = sorted([*(runs_dir / "trec2004_submissions").glob("input.*"),
                    *(runs_dir / "sigir18_tutorial_new_systems").glob("*.run.xz"),
                    runs_dir / "rob04_yang19_rm3.run.xz"])
    runs, _ = unique_names([read_run(p) for p in paths])
    nist = read_qrels(data / "qrels.robust2004.txt", name="nist")
    sets = [nist] + [perturb_grades(nist, drop=d, add=a, seed=k + 1, name=f"drop{d}_add{a}")
                     for k, (d, a) in enumerate(LEVELS)]
    cmp = compare_qrels(sets, runs, args.measure)
    corr = cmp.correlations()
    table = corr[corr["a"] == "nist"].reset_index(drop=True)
    os.makedirs(args.out, exist_ok=True)
    table.to_csv(Path(args.out) / "voorhees_table.csv", index=False)
    write_figure(ranking_vs_overlap_figure(table), Path(args.out) / "ranking_vs_overlap.png")
    write_figure(voorhees_figure(cmp, "nist", sets[2].name), Path(args.out) / "voorhees.png")
    cols = ["b", "n_runs", "n_topics", "overlap", "kappa", "tau", "tau_ap", "swaps", "n_pairs",
            "max_rank_change"]
    with pd.option_context("display.width", 160):
        print(table[cols].to_string(index=False, float_format=lambda v: f"{v:.3f}"))


if __name__ == "__main__":
    main()
