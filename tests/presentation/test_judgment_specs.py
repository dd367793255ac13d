"""The qrels-against-qrels and systems charts draw the numbers of the analyses, and the
bundled example shows Voorhees 2000's finding (low overlap, stable ranking)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from yardstick.analysis.qrels_comparison import compare_qrels
from yardstick.analysis.systems import systems_from_pattern
from yardstick.analysis.systems_comparison import compare_systems_matrix
from yardstick.common.options import EvalOptions
from yardstick.common.progress import run_sync
from yardstick.evaluation.results import score_matrix
from yardstick.inputs.io import read_qrels, read_run
from yardstick.presentation.charts.figure_spec import ErrorBars, Line
from yardstick.presentation.charts.judgment_specs import (
    ranking_vs_overlap_figure,
    systems_figure,
    voorhees_figure,
)
from yardstick.presentation.charts.render_mpl import figure_bytes
from yardstick.session.evaluating import evaluate_runs

EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "systems_example"


@pytest.fixture(scope="module")
def example():
    runs = [read_run(p) for p in sorted((EXAMPLE / "runs").iterdir())]
    qrels = [read_qrels(EXAMPLE / "qrels.nist.txt", name="nist"),
             read_qrels(EXAMPLE / "qrels.second.txt", name="second")]
    return runs, qrels, compare_qrels(qrels, runs)


def test_example_shows_voorhees_finding(example):
    *_, cmp = example
    row = cmp.correlations().iloc[0]
    assert row["overlap"] < 0.6 and row["tau"] > 0.85


def test_voorhees_figure_draws_every_run_at_its_scores(example):
    *_, cmp = example
    spec = voorhees_figure(cmp)
    scatter = spec.plots[1]
    pts = [s for s in scatter.series if isinstance(s, Line) and s.name == "run"][0]
    m = cmp.means()
    assert np.allclose(pts.x, m["nist"]) and np.allclose(pts.y, m["second"])
    overlap = [s for s in spec.plots[0].series if isinstance(s, Line) and s.name == "overlap"][0]
    per = cmp.agreement[(cmp.agreement["topic"] != "all") & cmp.agreement["in_b"]]
    assert sorted(overlap.y) == pytest.approx(sorted(per["overlap"]))
    assert figure_bytes(spec, "png")[:4] == b"\x89PNG"
    rv = ranking_vs_overlap_figure(cmp.correlations())
    assert rv.plot.series[0].y[0] == pytest.approx(cmp.correlations()["tau"].iloc[0])


def test_systems_figure_shows_spread_and_interval(example):
    runs, qrels, _ = example
    evs = run_sync(evaluate_runs(runs, qrels[0], ["map"], EvalOptions(complete=True)))
    m = score_matrix(evs, "map")
    sc = compare_systems_matrix(m, systems_from_pattern(list(m.columns), r"(.+)_s\d"), "map")
    spec = systems_figure(sc)
    spread, ci = [s for s in spec.plot.series if isinstance(s, ErrorBars)]
    t = sc.systems_table().sort_values("mean", ascending=False, kind="stable")
    assert np.allclose(spread.low, t["run_min"]) and np.allclose(spread.high, t["run_max"])
    assert np.allclose(ci.low, t["ci_low"]) and np.allclose(ci.high, t["ci_high"])
