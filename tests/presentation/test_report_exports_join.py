"""The report's table files join: one mean per run in every file (QA on the 150-run
track: ``system_ranking.csv``'s mean differed from ``overview.csv``'s and
``comparison.csv``'s map by 3.3e-16 for 24 of the 40 runs of ``systems_example``: the
ranking summed the topics with numpy, the tables are the engine's trec_eval-order sums)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from yardstick.cli import main as cli_main

EX = Path(__file__).resolve().parents[2] / "resources" / "systems_example"


def test_ranking_overview_and_comparison_print_one_mean_per_run(tmp_path):
    runs = sorted(str(p) for p in (EX / "runs").iterdir())
    assert cli_main(["report", "--qrels", str(EX / "qrels.nist.txt"), "--out", str(tmp_path),
                     "--formats", "csv", "--per-run", "none", "--comparison-table",
                     "--measures", "map", *runs]) == 0
    overview = pd.read_csv(tmp_path / "All_runs" / "overview.csv").set_index("run")["map"]
    ranking = pd.read_csv(tmp_path / "All_runs" / "system_ranking.csv").set_index("run")
    comparison = pd.read_csv(tmp_path / "Comparison" / "comparison.csv").set_index("run")
    assert len(overview) == 40
    assert (ranking["mean"].reindex(overview.index) == overview).all()
    assert (comparison["map"].reindex(overview.index) == overview).all()
