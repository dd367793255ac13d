"""run_stability: every analysis over measures and topic sets, as the CLI and the panel use it."""

import numpy as np
import pandas as pd
import pytest

from yardstick.analysis.stability.error_rate import error_rate
from yardstick.analysis.stability.rank_correlation import compare_rankings
from yardstick.analysis.stability.report import ANALYSES, StabilitySettings, run_stability
from yardstick.common.progress import run_sync


def _matrices():
    rng = np.random.default_rng(2)
    topics = [str(t) for t in range(301, 321)] + [str(t) for t in range(601, 621)]
    ap = pd.DataFrame(np.clip(rng.beta(2, 5, (40, 1)) + rng.normal(0, 0.1, (40, 6))
                              + np.linspace(0, 0.2, 6), 0, 1),
                      index=topics, columns=[f"r{k}" for k in range(6)])
    p10 = (ap * 10).round() / 10
    return {"map": ap, "P_10": p10, "area": ap}, ap


def test_every_analysis_and_reproducibility():
    matrices, tie = _matrices()
    sets = {"all": list(tie.index), "old": list(tie.index[:20]), "new": list(tie.index[20:])}
    st = StabilitySettings(samples=30, seed=4)
    rep = run_sync(run_stability(matrices, ANALYSES, sets, st, tie))
    names = [t.name for t in rep.tables]
    for stem in ("disjoint_summary", "bootstrap_summary", "error_rate", "sensitivity",
                 "rank_correlation_groups", "ranking_strings", "discriminative_power",
                 "tukey_map_all", "topic_set_size_P_10_new", "asl_curve_map_old"):
        assert stem in names
    # area is not a topic mean: no paired bootstrap test, no topic-set size for it
    assert not any(n.startswith("asl_curve_area") for n in names)
    assert any("area skipped" in n for n in rep.notes)
    er = rep.table("error_rate").set_index(["measure", "topics_set"])
    alone = run_sync(error_rate(tie.loc[sets["old"]], samples=30, seed=4, measure="map"))
    assert er.loc[("map", "old"), "error_rate_%"] == pytest.approx(100 * alone.error_rate)
    groups = rep.table("rank_correlation_groups").set_index("measure")
    ref = compare_rankings(tie.loc[sets["old"]].mean(), tie.loc[sets["new"]].mean())
    assert groups.loc["map", "kendall_tau"] == pytest.approx(ref.tau)
    again = run_sync(run_stability(matrices, ["swap", "tukey"], sets, st, tie))
    pd.testing.assert_frame_equal(again.table("disjoint_summary"), rep.table("disjoint_summary"))
    pd.testing.assert_frame_equal(again.table("tukey_P_10_new"), rep.table("tukey_P_10_new"))


def test_measure_matrix_without_groups():
    matrices, tie = _matrices()
    rep = run_sync(run_stability(matrices, ["kendall", "taup"], {"all": list(tie.index)},
                                 StabilitySettings(samples=10), tie))
    kendall = rep.table("kendall_matrix")
    ref = compare_rankings(matrices["map"].mean(), matrices["P_10"].mean(), tie_break_b=tie.mean())
    assert kendall.loc["map", "P_10"] == pytest.approx(ref.tau)
    assert "taup_matrix" in [t.name for t in rep.tables]
    assert [t.name for t in rep.tables].count("ranking_strings") == 1


def test_analyses_come_from_the_registry(monkeypatch):
    """A registered analysis is run by name, listed, and titled; nothing else dispatches."""
    from yardstick.analysis.stability import analyses, report

    calls = []

    def run(job):
        calls.append(sorted(job.matrices))
        job.table("count_runs", "Runs per measure",
                  pd.DataFrame({m: [mat.shape[1]] for m, mat in job.matrices.items()}))
        yield from ()

    monkeypatch.setitem(analyses.REGISTRY, "count", analyses.Analysis("count", "Count", run,
                                                                      resamples=False))
    mat = pd.DataFrame(np.arange(12.0).reshape(4, 3), index=list("abcd"), columns=list("xyz"))
    rep = run_sync(report.run_stability({"map": mat}, ["count"], {"all": list("abcd")},
                                        StabilitySettings(samples=2, seed=1)))
    assert calls == [["map"]] and rep.table("count_runs")["map"].tolist() == [3]
    with pytest.raises(ValueError, match="registered twice"):
        analyses.register(analyses.Analysis("count", "Again", run))
    with pytest.raises(ValueError, match="unknown analysis 'nope'"):
        run_sync(report.run_stability({"map": mat}, ["count", "nope"], {"all": list("abcd")},
                                      StabilitySettings(samples=2, seed=1)))
    assert calls == [["map"]]              # an unknown name stops the report before any work


def test_table_titles_count_what_they_say():
    """The Tukey title counts the *other* runs in the best run's group (it counted the best
    itself), and the ranking strings say two-character codes when there are more runs
    than one-character symbols (150 runs)."""
    from yardstick.analysis.stability.tukey_hsd import tukey_hsd

    matrices, tie = _matrices()
    st = StabilitySettings(samples=30, seed=4)
    rep = run_sync(run_stability({"map": matrices["map"]}, ["tukey"], {"all": list(tie.index)},
                                 st, tie))
    t = next(t for t in rep.tables if t.name == "tukey_map_all")
    alone = run_sync(tukey_hsd(matrices["map"], samples=30, seed=4))
    top = alone.top_group()
    assert alone.best in top
    others = len(top) - 1
    assert f"{others} other run{'' if others == 1 else 's'} not distinguishable" in t.title
    rng = np.random.default_rng(5)
    wide = pd.DataFrame(rng.uniform(0, 1, (20, 150)), index=[str(i) for i in range(20)],
                        columns=[f"run{i:03d}" for i in range(150)])
    rep = run_sync(run_stability({"map": wide}, ["kendall"],
                                 {"all": list(wide.index), "a": list(wide.index[:10]),
                                  "b": list(wide.index[10:])}, st, wide))
    strings = next(t for t in rep.tables if t.name == "ranking_strings")
    assert "2-character code per run" in strings.title
    assert len(strings.frame["ranking"].iloc[0].split(" ")) == 150


def test_a_minimum_difference_below_one_bin_is_said():
    """Runs that never swap (each topic's scores are the topic's level plus the run's
    offset, 0.005 apart): the first bin, [0, 0.01), has error rate 0 and the minimum
    difference prints as its lower edge, 0.0000 — the report says it means "below 0.01"."""
    topics = [str(t) for t in range(40)]
    level = np.linspace(0.1, 0.5, 40)
    m = pd.DataFrame(level[:, None] + 0.005 * np.arange(8)[None, :], index=topics,
                     columns=[f"r{k}" for k in range(8)])
    st = StabilitySettings(samples=20, seed=1)
    rep = run_sync(run_stability({"map": m}, ["swap"], {"all": topics}, st, m))
    assert rep.table("disjoint_summary")["min_difference"].tolist() == [0.0]
    assert any("the minimum difference is below 0.01" in n for n in rep.notes)


def test_answer_columns_come_first_and_a_note_for_every_measure_is_said_once():
    """Issue 27: the answer (minimum difference, error rate ...) leads each table, after the
    measure; the 'below one bin' note, true of both measures, is said once, not per measure;
    the assumptions (runs, topics, measures, seed, B) are stated on the report."""
    topics = [str(t) for t in range(40)]
    level = np.linspace(0.1, 0.5, 40)
    m = pd.DataFrame(level[:, None] + 0.005 * np.arange(8)[None, :], index=topics,
                     columns=[f"r{k}" for k in range(8)])
    st = StabilitySettings(samples=20, seed=1)
    rep = run_sync(run_stability({"map": m, "P_10": m.copy()}, ["swap", "error-rate"],
                                 {"all": topics}, st, m))
    cols = list(rep.table("disjoint_summary").columns)
    assert cols[:3] == ["measure", "min_difference", "percent_of_top"]
    assert cols.index("seed") > cols.index("min_difference")
    assert list(rep.table("error_rate").columns)[:3] == ["measure", "error_rate_%", "ties_%"]
    below = [n for n in rep.notes if "the minimum difference is below 0.01" in n]
    assert len(below) == 1 and "every measure, all topics" in below[0]
    a = dict(rep.assumptions.items())
    assert a["runs"].startswith("8 runs: r0, r1") and a["measure"] == "map, P_10"
    assert a["seed"] == "1" and a["B (resamples)"] == "20"
    assert a["topics"] == "40 topics; a topic a run lacks scores 0 (trec_eval -c)"
