"""core.compare against scipy.stats and hand-worked values."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from yardstick.analysis.significance import compare_runs, correct_pvalues, experiment_table, holm

# Per-topic AP of two runs on 10 topics (hand-made, values chosen so that every
# test has something to do: 6 wins, 1 tie, 3 losses).
BASE = np.array([0.10, 0.25, 0.30, 0.42, 0.05, 0.60, 0.33, 0.20, 0.15, 0.50])
RUN = np.array([0.18, 0.30, 0.30, 0.40, 0.12, 0.71, 0.31, 0.26, 0.10, 0.58])


def frame(**cols):
    f = pd.DataFrame(cols, index=[str(301 + i) for i in range(len(next(iter(cols.values()))))])
    f.index.name = "topic"
    return f


def test_pair_statistics_equal_scipy():
    cmp = compare_runs(frame(base=BASE, run=RUN), "base", measure="map", seed=7,
                       n_permutations=2000)
    p = cmp.pairs[0]
    d = RUN - BASE
    assert (p.wins, p.ties, p.losses) == (6, 1, 3)  # hand count of the signs of d
    assert p.n_topics == 10
    assert p.mean_diff == pytest.approx(d.mean())
    tt = stats.ttest_rel(RUN, BASE)
    assert p.p_t == pytest.approx(tt.pvalue, rel=1e-12)
    assert p.t_stat == pytest.approx(tt.statistic, rel=1e-12)
    ci = tt.confidence_interval(0.95)
    assert (p.ci_low, p.ci_high) == pytest.approx((ci.low, ci.high))
    # the CI by hand: mean +- t_{0.975, 9} * sd / sqrt(10)
    half = stats.t.ppf(0.975, 9) * d.std(ddof=1) / np.sqrt(10)
    assert p.ci_low == pytest.approx(d.mean() - half)
    assert p.p_wilcoxon == pytest.approx(stats.wilcoxon(RUN, BASE).pvalue, rel=1e-12)
    # sign test: 6 wins of 9 non-tied topics, two-sided binomial
    assert p.p_sign == pytest.approx(stats.binomtest(6, 9, 0.5).pvalue)
    assert p.p_sign == pytest.approx(0.5078125)  # 2 * P(X >= 6 | n=9) = 2*130/512
    assert p.effect_size == pytest.approx(d.mean() / d.std(ddof=1))


def test_permutation_test_is_seeded_and_matches_scipy():
    f = frame(base=BASE, run=RUN)
    a = compare_runs(f, "base", test="permutation", seed=3, n_permutations=500).pairs[0]
    b = compare_runs(f, "base", test="permutation", seed=3, n_permutations=500).pairs[0]
    assert a.p_permutation == b.p_permutation
    # 2**10 = 1024 sign flips > 500 resamples, so scipy samples: same seed, same p
    ref = stats.permutation_test((RUN, BASE), lambda x, y, axis: np.mean(x - y, axis=axis),
                                 permutation_type="samples", n_resamples=500, vectorized=True,
                                 rng=np.random.default_rng(3))
    assert a.p_permutation == pytest.approx(ref.pvalue)
    # with enough resamples scipy runs the exact test over all 1024 sign patterns
    exact = compare_runs(f, "base", seed=0, n_permutations=5000).pairs[0].p_permutation
    signs = np.array(np.meshgrid(*[[1, -1]] * 10)).reshape(10, -1).T
    d = RUN - BASE
    means = (signs * d).mean(axis=1)
    by_hand = np.mean(np.abs(means) >= abs(d.mean()) - 1e-12)
    assert exact == pytest.approx(by_hand)


def test_holm_by_hand():
    # p = .01, .04, .03: sorted .01*3=.03, .03*2=.06, .04*1=.04 -> running max .06
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert np.isnan(holm([0.01, np.nan])[1])
    assert holm([0.01, np.nan])[0] == pytest.approx(0.01)  # m counts only real p-values
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])


def test_bh_equals_scipy():
    p = [0.01, 0.04, 0.03, 0.2]
    assert correct_pvalues(p, "bh") == pytest.approx(stats.false_discovery_control(p))
    # by hand: sorted .01*4/1=.04, .03*4/2=.06, .04*4/3=.0533, .2 -> step-up min: .04,.0533,.0533,.2
    assert correct_pvalues(p, "bh") == pytest.approx([0.04, 0.16 / 3, 0.16 / 3, 0.2])


def test_several_runs_corrected_and_marked():
    rng = np.random.default_rng(11)
    base = rng.uniform(0.1, 0.5, 40)
    f = frame(base=base, same=base + rng.normal(0, 0.02, 40),
              better=base + 0.1 + rng.normal(0, 0.01, 40),
              worse=np.clip(base - 0.08 + rng.normal(0, 0.01, 40), 0, 1))
    cmp = compare_runs(f, "base", measure="map", correction="holm", n_permutations=500)
    raw = [p.p_t for p in cmp.pairs]
    assert [p.p_corrected for p in cmp.pairs] == pytest.approx(list(holm(raw)))
    frame_ = cmp.to_frame()
    assert list(frame_.index) == ["same", "better", "worse"]
    assert frame_.loc["better", "wins"] == 40
    assert bool(frame_.loc["better", "significant"]) and bool(frame_.loc["worse", "significant"])
    table = experiment_table({"map": f}, "base", correction="bh", n_permutations=500)
    assert table.loc["better", "map *"] == "▲" and table.loc["worse", "map *"] == "▼"
    assert table.loc["base", "map"] == pytest.approx(base.mean())
    assert table.loc["better", "map p-value"] == pytest.approx(
        stats.ttest_rel(f["better"], f["base"]).pvalue)


def test_missing_topics_use_common_topics_only():
    f = frame(base=BASE, run=RUN)
    f.loc["305", "run"] = np.nan
    cmp = compare_runs(f, "base")
    p = cmp.pairs[0]
    keep = f.dropna()
    assert p.n_topics == 9
    assert p.p_t == pytest.approx(stats.ttest_rel(keep["run"], keep["base"]).pvalue)
    assert cmp.notes == ("run: 9 topics in common with base",)
    # the per-topic table keeps every topic, the difference NaN where a score is missing
    pd.testing.assert_series_equal(cmp.per_topic["run - base"], f["run"] - f["base"],
                                   check_names=False)
    assert list(cmp.per_topic.index) == list(f.index)


def test_identical_runs():
    p = compare_runs(frame(base=BASE, run=BASE.copy()), "base").pairs[0]
    assert (p.wins, p.ties, p.losses) == (0, 10, 0)
    assert p.p_sign == 1.0 and p.p_wilcoxon == 1.0 and p.p_t == 1.0
    assert p.mean_diff == 0.0


def test_constant_shift_has_no_t_statistic_but_sign_test_works():
    p = compare_runs(frame(base=BASE, run=BASE + 0.1), "base", n_permutations=200).pairs[0]
    assert (p.wins, p.ties, p.losses) == (10, 0, 0)
    assert p.p_t == 0.0 and np.isnan(p.t_stat)
    assert p.p_sign == pytest.approx(2 / 2**10)  # all 10 signs positive, two-sided


def test_bad_arguments():
    f = frame(base=BASE, run=RUN)
    with pytest.raises(KeyError):
        compare_runs(f, "nope")
    with pytest.raises(ValueError):
        compare_runs(f, "base", test="anova")
    with pytest.raises(ValueError):
        correct_pvalues([0.1], "bonferroni-ish")


def test_sign_test_equals_scipys_binomtest_for_every_count():
    """The sign test's p-value is one call of the binomial CDF (binomtest's Python binary
    search held the GIL ~0.4 ms a call and starved the window): the same p-values."""
    from yardstick.analysis.paired_tests import sign_test_p

    for n in range(0, 121):
        for wins in range(n + 1):
            want = stats.binomtest(wins, n, 0.5).pvalue if n else 1.0
            assert sign_test_p(wins, n - wins) == pytest.approx(want, rel=1e-11, abs=1e-300)


def test_the_t_tests_of_many_runs_in_one_call_equal_one_per_pair():
    """Runs scored on every topic get their t-tests from one ttest_rel(axis=0) call (per
    pair, 149 runs × 7 measures of it held the GIL ~0.3 s): the same numbers as
    scipy pair by pair; a run with a missing topic and a constant difference still
    take their own paths."""
    from yardstick.analysis.significance import compare_runs

    rng = np.random.default_rng(3)
    f = pd.DataFrame(rng.uniform(0, 1, (50, 12)), columns=[f"r{i}" for i in range(12)])
    f["const"] = f["r0"] + 0.1
    f.loc[3, "r5"] = np.nan
    c = compare_runs(f, "r0")
    for p in c.pairs:
        if p.run == "const":
            assert np.isnan(p.t_stat) and p.p_t == 0.0 and p.ci_low == pytest.approx(0.1)
            continue
        ok = f[p.run].notna()
        tt = stats.ttest_rel(f.loc[ok, p.run], f.loc[ok, "r0"])
        ci = tt.confidence_interval(0.95)
        for got, want in ((p.t_stat, tt.statistic), (p.p_t, tt.pvalue), (p.ci_low, ci.low),
                          (p.ci_high, ci.high)):
            assert got == pytest.approx(want, rel=1e-12)


def test_the_default_baseline_is_the_best_run_by_the_measure():
    """Issue 27: the best mean (numpy), the lowest for a lower-is-better count; NaN topics
    (a run without the topic) left out of its mean."""
    import numpy as np
    import pandas as pd

    from yardstick.analysis.significance import best_run

    m = pd.DataFrame({"a": [0.1, 0.2, np.nan], "b": [0.3, 0.1, 0.0], "c": [0.2, 0.2, 0.2]})
    means = {c: np.nanmean(m[c]) for c in m}
    assert best_run(m, "map") == max(means, key=means.get) == "c"
    assert best_run(m, "num_nonrel") == min(means, key=means.get) == "b"
