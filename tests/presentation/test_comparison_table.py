"""The paper-ready comparison table (core/presentation/reports/comparison_table.py) against
scipy."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from yardstick.presentation.reports.comparison_table import comparison_table, paired_pvalue


@pytest.fixture
def matrices():
    rng = np.random.default_rng(1)
    base = rng.uniform(0.1, 0.6, 40)
    f = pd.DataFrame({"A": base, "B": base + rng.normal(0.08, 0.05, 40),
                      "C": base + rng.normal(0.0, 0.05, 40)},
                     index=pd.Index([str(301 + i) for i in range(40)], name="topic"))
    return {"map": f, "P_10": f * 0.9}


def test_t_test_holm_letters_and_bold(matrices):
    t = comparison_table(matrices, test="t", correction="holm", alpha=0.05, qrels_name="q.txt")
    mat = matrices["map"]
    p = {(a, b): stats.ttest_rel(mat[a], mat[b]).pvalue
         for a, b in (("A", "B"), ("A", "C"), ("B", "C"))}
    got = t.pvalues[t.pvalues.measure == "map"].set_index(["run_a", "run_b"])
    for k, v in p.items():
        assert got.loc[k, "p_value"] == pytest.approx(v, rel=1e-12)
    # Holm by hand: sorted p times 3, 2, 1, running maximum
    order = sorted(p, key=p.get)
    held = np.maximum.accumulate([min(1, (3 - i) * p[k]) for i, k in enumerate(order)])
    for k, h in zip(order, held):
        assert got.loc[k, "p_value_corrected"] == pytest.approx(h, rel=1e-12)
    assert list(t.letters) == ["a", "b", "c"]
    assert t.markers.loc["B", "map"] == "ac"       # B clearly better than A and C
    assert t.markers.loc["A", "map"] == ""
    assert t.best["map"].tolist() == [False, True, False]
    assert t.means.loc["B", "map"] == mat["B"].mean()
    assert "40 topics" in t.caption and "q.txt" in t.caption and "α = 0.05" in t.caption


def test_bonferroni_and_tests(matrices):
    t = comparison_table(matrices, test="wilcoxon", correction="bonferroni")
    mat = matrices["P_10"]
    got = t.pvalues[(t.pvalues.measure == "P_10") & (t.pvalues.run_a == "A")
                    & (t.pvalues.run_b == "C")].iloc[0]
    p = stats.wilcoxon(mat["A"], mat["C"]).pvalue
    assert got.p_value == pytest.approx(p, rel=1e-12)
    assert got.p_value_corrected == pytest.approx(min(1, 3 * p), rel=1e-12)
    with pytest.raises(ValueError, match="unknown correction"):
        comparison_table(matrices, correction="sidak")


def test_bootstrap_and_randomisation_extremes():
    a = np.linspace(0.2, 0.8, 30)
    assert paired_pvalue(a + 0.1 + 0.001 * np.arange(30) % 3, a, "bootstrap", seed=3) == 0.0
    d = np.tile([0.05, -0.05], 15)
    assert paired_pvalue(a + d, a, "bootstrap", seed=3) == 1.0
    # randomisation = the Compare panel's permutation test (same seed, same scipy call)
    r = stats.permutation_test((a + d * 3 + 0.01, a), lambda x, y, axis: np.mean(x - y, axis=axis),
                               permutation_type="samples", n_resamples=2000, vectorized=True,
                               rng=np.random.default_rng(5)).pvalue
    assert paired_pvalue(a + d * 3 + 0.01, a, "fisher", seed=5, n_resamples=2000) == r


def test_writes_latex_and_xlsx(tmp_path, matrices):
    openpyxl = pytest.importorskip("openpyxl")
    t = comparison_table(matrices)
    tex = t.write(tmp_path / "c.tex").read_text()
    # the letter and the run's name in columns of their own
    assert r"b & B & \textbf{" in tex and r"} & \textsuperscript{ac}" in tex
    wb = openpyxl.load_workbook(t.write(tmp_path / "c.xlsx"), rich_text=True)
    ws = wb["table"]
    assert [c.value for c in ws[1]] == ["letter", "run", "map", "map_marker", "P_10",
                                        "P_10_marker"]
    assert ws["B3"].value == "B" and ws["A3"].value == "b"
    assert ws["C3"].value == matrices["map"]["B"].mean() and ws["C3"].font.bold
    assert ws["D3"].value == "ac" and ws["D2"].value in (None, "")
    rich = wb["formatted"]["C3"].value          # 0.xxxx with "ac" as a superscript
    assert str(rich[1].text) == "ac" and rich[1].font.vertAlign == "superscript"


def test_identical_runs_are_named(matrices):
    mats = {k: v.assign(D=v["A"]) for k, v in matrices.items()}
    t = comparison_table(mats)
    assert t.identical == (("A", "D"),)
    assert "A = D" in t.identical_note()
    p = t.pvalues[(t.pvalues.run_a == "A") & (t.pvalues.run_b == "D")]
    assert (p.p_value == 1.0).all()
    assert comparison_table(matrices).identical_note() == ""


def test_many_runs_vectorised_t_test_equals_scipy_pair_by_pair():
    rng = np.random.default_rng(7)
    f = pd.DataFrame(rng.uniform(size=(25, 12)), columns=[f"r{i}" for i in range(12)])
    f.iloc[3, 5] = np.nan                    # one run lacks a topic: that pair goes alone
    t = comparison_table({"map": f}, correction="none")
    for row in t.pvalues.itertuples():
        both = f[[row.run_a, row.run_b]].dropna()
        want = stats.ttest_rel(both[row.run_a], both[row.run_b]).pvalue
        assert row.p_value == pytest.approx(want, rel=1e-10), (row.run_a, row.run_b)
        assert row.n_topics == len(both)


def test_baseline_mode_corrects_over_the_baseline_comparisons_only(matrices):
    from yardstick.presentation.reports.baseline_table import baseline_table

    bt = baseline_table(matrices, ["A"], test="t", correction="holm")
    got = bt.pvalues[bt.pvalues.measure == "map"].set_index("run")
    mat = matrices["map"]
    p = {r: stats.ttest_rel(mat[r], mat["A"]).pvalue for r in ("B", "C")}
    order = sorted(p, key=p.get)               # Holm over the two comparisons with A only
    held = np.maximum.accumulate([min(1, (2 - i) * p[r]) for i, r in enumerate(order)])
    for r, h in zip(order, held):
        assert got.loc[r, "p_value"] == pytest.approx(p[r], rel=1e-12)
        assert got.loc[r, "p_value_corrected"] == pytest.approx(h, rel=1e-12)
    assert bt.markers.loc["B", "map"] == "†" and bt.markers.loc["C", "map"] == ""
    assert "† A" in bt.caption and "2 comparisons" in bt.caption


def test_superscripts_as_ranges_with_many_runs():
    from yardstick.presentation.reports.comparison_table import _letters, _ranges

    names = _letters(30)
    assert names[25:28] == ["z", "aa", "ab"]
    assert _ranges([1, 3], names[:5]) == "bd"
    assert _ranges([0, 1, 2, 3, 5], names[:10]) == "a–d,f"
    assert _ranges([1, 2, 3, 4, 27, 28, 29], names) == "b–e,ab–ad"
    assert _ranges([0, 27], names) == "a,ab"


def test_order_by_score_gives_ranges():
    rng = np.random.default_rng(2)
    base = rng.uniform(0.2, 0.5, 50)
    f = pd.DataFrame({f"r{i}": base + 0.05 * i + rng.normal(0, 0.01, 50) for i in range(6)})
    t = comparison_table({"map": f}, order="score", test="t", correction="bonferroni")
    assert list(t.means.index) == ["r5", "r4", "r3", "r2", "r1", "r0"]
    assert t.markers.loc["r5", "map"] == "b–f"       # beats every other run
    assert t.markers.loc["r0", "map"] == ""


def test_equal_fractions_are_both_bold():
    """Two runs with 486 relevant documents in 500 (P_10 over 50 topics) have the same mean,
    but summed over different per-topic values it comes out as 0.972 and
    0.9719999999999999: both are the best and both are bold."""
    a = np.array([1.0] * 36 + [0.9] * 14)              # 486 / 500
    b = np.array([1.0] * 37 + [0.9] * 12 + [0.8])       # 486 / 500
    assert a.sum() / 500 * 10 == pytest.approx(b.sum() / 500 * 10, abs=1e-15)
    rng = np.random.default_rng(4)
    f = pd.DataFrame({"A": rng.permutation(a), "B": rng.permutation(b), "C": a * 0.5},
                     index=pd.Index([str(i) for i in range(50)], name="topic"))
    assert f["A"].mean() != f["B"].mean()               # the floats differ ...
    t = comparison_table({"P_10": f}, test="t")
    assert t.best["P_10"].tolist() == [True, True, False]   # ... the best does not


def _engine_means():
    """A 50 x 30 score matrix and its means summed topic after topic, as the engine (and
    trec_eval) sums them; numpy sums pairwise: the two differ in the last digit for some
    runs."""
    rng = np.random.default_rng(5)
    mat = pd.DataFrame(rng.integers(0, 1000, (50, 30)) / 997.0,
                       columns=[f"r{i}" for i in range(30)])
    seq = {c: 0.0 for c in mat.columns}
    for _, row in mat.iterrows():
        for c in mat.columns:
            seq[c] += row[c]
    means = pd.DataFrame({"map": pd.Series(seq) / 50})
    assert (means["map"] != mat.mean()).any()
    return mat, means


def test_pair_table_prints_the_table_means_so_the_two_files_join():
    """QA: 7,215 of 11,175 rows of ``comparison_pvalues.csv`` printed ``mean_a`` one unit
    in the last digit off ``comparison.csv``'s mean (a pair's own sum).  Runs scored on
    every topic now carry the one mean per run; the means are the engine's when given."""
    mat, means = _engine_means()
    ct = comparison_table({"map": mat}, means=means)
    joined = ct.pvalues.merge(ct.means["map"].rename("table_mean"), left_on="run_a",
                              right_index=True)
    assert (joined["mean_a"] == joined["table_mean"]).all()
    joined = ct.pvalues.merge(ct.means["map"].rename("table_mean"), left_on="run_b",
                              right_index=True)
    assert (joined["mean_b"] == joined["table_mean"]).all()


def test_baseline_pvalues_print_the_table_means_so_the_files_join():
    """QA on the 150-run track: ``comparison_baselines_pvalues.csv``'s ``mean_run``
    differed from ``comparison_baselines.csv``'s mean by 3.3e-16 (the pair's own sum)."""
    from yardstick.presentation.reports.baseline_table import baseline_table

    mat, means = _engine_means()
    bt = baseline_table({"map": mat}, ["r0", "r7"], means=means)
    table = bt.means["map"]
    assert (bt.pvalues["mean_run"] == table.loc[bt.pvalues["run"]].to_numpy()).all()
    assert (bt.pvalues["mean_baseline"] == table.loc[bt.pvalues["baseline"]].to_numpy()).all()
