"""Systems of runs: the mixed model against statsmodels fitted directly, a generated
design whose true system effects and variances are known, the shortcuts against scipy,
and the runs/topics design against its definition."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
import statsmodels.formula.api as smf
from scipy import stats
from statsmodels.tools.sm_exceptions import ConvergenceWarning

from yardstick.analysis.stability.topic_set_size import power_systems, systems_design
from yardstick.analysis.systems import (
    shortcut_tests,
    split_runs,
    system_summary,
    systems_from_pattern,
)
from yardstick.analysis.systems_comparison import compare_systems_matrix
from yardstick.analysis.systems_mixed_model import fit_systems_model

EFFECTS = {"s0": 0.30, "s1": 0.33, "s2": 0.38, "s3": 0.45}


def _design(seed: int, topics: int = 30, runs: int = 5, sd_topic: float = 0.10,
            sd_run: float = 0.03, sd_e: float = 0.05):
    """score = system mean + u_topic + v_run + e (Ferro & Silvello 2016's model shape)."""
    rng = np.random.default_rng(seed)
    u = rng.normal(0, sd_topic, topics)
    cols, systems = {}, {}
    for s, mean in EFFECTS.items():
        for r in range(runs):
            name = f"{s}_seed{r}"
            cols[name] = mean + u + rng.normal(0, sd_run) + rng.normal(0, sd_e, topics)
            systems[name] = s
    return pd.DataFrame(cols, index=[f"t{t}" for t in range(topics)]), systems


def _long(scores, systems):
    return pd.DataFrame([(systems[r], r, t, scores.loc[t, r]) for r in scores.columns
                         for t in scores.index], columns=["system", "run", "topic", "score"])


def test_fixed_effects_match_statsmodels_fitted_directly():
    scores, systems = _design(1, topics=12, runs=3)
    res = fit_systems_model(scores, systems, "crossed", correction="none")
    d = _long(scores, systems)
    d["g"] = 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)    # a variance near 0: expected
        direct = smf.mixedlm("score ~ C(system)", d, groups="g", re_formula="0",
                             vc_formula={"topic": "0 + C(topic)", "run": "0 + C(run)"}
                             ).fit(reml=True)
    pairs = res.pairs.set_index(["system_a", "system_b"])
    for s in ("s1", "s2", "s3"):
        key = f"C(system)[T.{s}]"
        assert pairs.loc[("s0", s), "mean_difference"] == pytest.approx(direct.params[key],
                                                                        abs=1e-6)
        assert pairs.loc[("s0", s), "se"] == pytest.approx(direct.bse[key], rel=1e-3)
        assert pairs.loc[("s0", s), "p_value_mixed"] == pytest.approx(direct.pvalues[key],
                                                                      rel=1e-2, abs=1e-12)
    assert res.var_residual == pytest.approx(direct.scale, rel=1e-4)


def test_closed_form_fit_equals_statsmodels_on_a_complete_design():
    scores, systems = _design(3, topics=20, runs=4, sd_run=0.04)
    # unequal runs per system: drop one run of s1 and two of s3
    scores = scores.drop(columns=["s1_seed0", "s3_seed0", "s3_seed1"])
    closed = fit_systems_model(scores, systems, "complete", correction="none")
    crossed = fit_systems_model(scores, systems, "crossed", correction="none")
    assert closed.method == "complete" and crossed.method == "crossed"
    assert np.allclose(closed.pairs["mean_difference"], crossed.pairs["mean_difference"],
                       atol=1e-7)
    assert np.allclose(closed.pairs["se"], crossed.pairs["se"], rtol=2e-3)
    assert np.allclose(closed.systems["se"], crossed.systems["se"], rtol=5e-3)
    for attr in ("var_run", "var_topic", "var_residual"):
        assert getattr(closed, attr) == pytest.approx(getattr(crossed, attr), rel=5e-3)


def test_topic_fixed_fit_gives_the_crossed_contrasts_on_a_complete_design():
    scores, systems = _design(2, topics=15, runs=4)
    crossed = fit_systems_model(scores, systems, "crossed").pairs
    fixed = fit_systems_model(scores, systems, "topic_fixed").pairs
    assert np.allclose(crossed["mean_difference"], fixed["mean_difference"], atol=1e-8)
    assert np.allclose(crossed["se"], fixed["se"], rtol=2e-3)


def test_known_effects_and_variances_are_recovered():
    sd_topic, sd_run, sd_e = 0.10, 0.03, 0.05
    scores, systems = _design(11, topics=40, runs=6, sd_topic=sd_topic, sd_run=sd_run,
                              sd_e=sd_e)
    res = fit_systems_model(scores, systems, "auto", correction="none")
    assert res.method == "complete"           # every run on every topic
    for _, row in res.pairs.iterrows():
        true = EFFECTS[row["system_b"]] - EFFECTS[row["system_a"]]
        assert row["ci_low"] <= true <= row["ci_high"]
    # variance components inside chi-square intervals of their degrees of freedom
    n_runs, n_sys, n_topics = 24, 4, 40
    for est, true, df in ((res.var_run, sd_run ** 2, n_runs - n_sys),
                          (res.var_topic, sd_topic ** 2, n_topics - 1),
                          (res.var_residual, sd_e ** 2, (n_runs - 1) * (n_topics - 1))):
        lo = est * df / stats.chi2.ppf(0.975, df)
        hi = est * df / stats.chi2.ppf(0.025, df)
        assert lo <= true <= hi, (est, true, lo, hi)


def test_mixed_model_is_more_cautious_than_averaging_when_runs_vary():
    scores, systems = _design(4, topics=30, runs=3, sd_run=0.06, sd_e=0.03)
    res = fit_systems_model(scores, systems, correction="none").pairs
    short = shortcut_tests(scores, systems, "none")
    assert (res["p_value_mixed"].to_numpy() >= short["p_value_averaged"].to_numpy()).sum() >= 5


def test_shortcuts_against_scipy():
    scores, systems = _design(5)
    short = shortcut_tests(scores, systems, "holm").set_index(["system_a", "system_b"])
    a = scores[[r for r in scores if systems[r] == "s0"]]
    b = scores[[r for r in scores if systems[r] == "s2"]]
    row = short.loc[("s0", "s2")]
    assert row["p_value_averaged"] == pytest.approx(stats.ttest_rel(b.mean(axis=1),
                                                              a.mean(axis=1)).pvalue)
    assert row["p_value_pooled"] == pytest.approx(stats.ttest_ind(b.to_numpy().ravel(),
                                                            a.to_numpy().ravel(),
                                                            equal_var=False).pvalue)
    assert row["mean_difference"] == pytest.approx(b.to_numpy().mean() - a.to_numpy().mean())


def test_summary_spread_and_interval():
    scores, systems = _design(6, topics=20, runs=4)
    summ = system_summary(scores, systems).set_index("system")
    runs = [r for r in scores if systems[r] == "s1"]
    run_means = scores[runs].mean(axis=0)
    assert summ.loc["s1", "run_sd"] == pytest.approx(run_means.std(ddof=1))
    per_topic = scores[runs].mean(axis=1)
    ci = stats.t.interval(0.95, len(per_topic) - 1, per_topic.mean(), stats.sem(per_topic))
    assert (summ.loc["s1", "ci_low"], summ.loc["s1", "ci_high"]) == pytest.approx(ci)


def test_systems_by_pattern_and_runs_in_no_system():
    names = ["bm25_seed1", "bm25_seed2", "dense_seed1", "oddball"]
    mapping = systems_from_pattern(names, r"(.+)_seed\d+")
    by, left = split_runs(names, mapping)
    assert by == {"bm25": ["bm25_seed1", "bm25_seed2"], "dense": ["dense_seed1"]}
    assert left == ["oddball"]
    scores, systems = _design(7, topics=10, runs=2)
    scores["stray"] = 0.5
    cmp = compare_systems_matrix(scores, systems)
    assert cmp.unassigned == ("stray",)
    assert len(cmp.systems_table()) == 4 and len(cmp.pairs_table()) == 6


def test_design_topics_is_the_smallest_that_reaches_the_power():
    table = systems_design(0.0001, 0.004, min_diffs=(0.05,), runs=(5, 10))
    assert table["n_topics"].notna().all()
    for _, row in table.iterrows():
        n, r = int(row["n_topics"]), int(row["n_runs"])
        assert power_systems(n, r, 0.05, 0.05, 0.0001, 0.004) >= 0.8
        assert n == 2 or power_systems(n - 1, r, 0.05, 0.05, 0.0001, 0.004) < 0.8
    assert table["n_topics"].iloc[1] < table["n_topics"].iloc[0]     # more runs, fewer topics
    # run-to-run variance alone too large for 2 runs: no number of topics is enough
    t2 = systems_design(0.01, 0.004, min_diffs=(0.05,), runs=(2,))
    assert np.isnan(t2["n_topics"].iloc[0])
