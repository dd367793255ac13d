"""Compare runs with a baseline, topic by topic, with significance tests.

For one measure and a topics x runs score matrix
(``yardstick.evaluation.evaluation_service.score_matrix``)
each run is paired with the baseline on the topics both have, and reported with

* mean scores, mean difference and wins / ties / losses;
* paired t-test (``scipy.stats.ttest_rel``), Wilcoxon signed-rank
  (``scipy.stats.wilcoxon``, zero differences dropped as in Wilcoxon's original
  ``"wilcox"`` method), sign test (``scipy.stats.binomtest`` on wins vs losses,
  ties dropped) and a seeded paired randomisation (permutation) test
  (``scipy.stats.permutation_test`` with ``permutation_type="samples"``, which
  swaps the two systems' scores within topics): the four tests compared by
  Smucker, Allan & Carterette (CIKM 2007, "A comparison of statistical
  significance tests for information retrieval evaluation");
* effect size: the paired standardised mean difference d_z = mean(d) / sd(d)
  (Cohen 1988, eq. 2.3.5; Sakai 2014 "Statistical reform in IR?");
* the 95% t confidence interval of the mean difference
  (``TtestResult.confidence_interval``);
* when several runs are compared with the baseline, p-values corrected for
  multiple comparisons (:data:`CORRECTIONS`, :func:`correct_pvalues`): Bonferroni
  (p × m, capped at 1), Holm's step-down method (Holm 1979, written here because
  statsmodels is not a dependency) or Benjamini–Hochberg
  (``scipy.stats.false_discovery_control``).

The one paired t-test is :func:`yardstick.analysis.paired_tests.paired_t_test` (the
Wilcoxon and randomisation tests of many runs: its ``wilcoxon_pvalues`` and
``randomisation_pvalues``), the one list of corrections :data:`CORRECTIONS`: the window's
Compare panel, the report, the Python API, the CLI, stability and pool all use them.

:func:`experiment_table` gives PyTerrier's ``Experiment(..., baseline=0)``
layout over several measures: means, ``+``/``-`` counts, p-values and markers.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from yardstick.analysis.paired_tests import (
    paired_t_test,
    randomisation_pvalues,
    sign_test_p,
    wilcoxon_pvalues,
)
from yardstick.common.progress import Progress, run_sync

__all__ = ["TESTS", "CORRECTIONS", "CORRECTION_NAMES", "PairComparison", "Comparison",
           "compare_runs", "compare_runs_job", "holm", "correct_pvalues",
           "experiment_table", "experiment_table_job"]

#: Test names accepted by :func:`compare_runs` ``test`` (the one used for markers).
TESTS = ("t", "wilcoxon", "sign", "permutation")
#: Multiple-comparison corrections, everywhere one is offered (window, report, API, CLI):
#: none, Bonferroni, Holm step-down, Benjamini–Hochberg (see :func:`correct_pvalues`).
CORRECTIONS = ("none", "bonferroni", "holm", "bh")
#: Each correction's name in prose (captions, labels).
CORRECTION_NAMES = {"none": "no correction", "bonferroni": "Bonferroni correction",
                    "holm": "Holm correction", "bh": "Benjamini-Hochberg correction"}
#: Each test's p-value column in :meth:`Comparison.to_frame`.
P_COLUMNS = {"t": "p t-test", "wilcoxon": "p wilcoxon", "sign": "p sign",
             "permutation": "p permutation"}


def holm(pvalues: Sequence[float]) -> np.ndarray:
    """Holm's step-down adjusted p-values (Holm 1979, *Scand. J. Statist.* 6:65-70).

    Sort p ascending: p_(1) <= ... <= p_(m); adjusted p_(i) = max_{j<=i} min(1, (m-j+1) p_(j)).
    NaN p-values are left NaN and do not count in m.
    """
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    m = len(ok)
    if m == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    adj = np.minimum(1.0, (m - np.arange(m)) * p[order])
    out[order] = np.maximum.accumulate(adj)
    return out


def correct_pvalues(pvalues: Sequence[float], method: str) -> np.ndarray:
    """Adjust p-values for multiple comparisons; ``method`` is one of :data:`CORRECTIONS`.

    ``"none"``; ``"bonferroni"``: p × m capped at 1 (Dunn 1961, "Multiple comparisons
    among means", JASA 56:52-64); ``"holm"``: :func:`holm` (Holm 1979); ``"bh"``:
    Benjamini & Hochberg 1995 ("Controlling the false discovery rate", JRSS B 57:289-300,
    ``scipy.stats.false_discovery_control``).  NaN p-values stay NaN and do not count in m.
    """
    p = np.asarray(pvalues, dtype=float)
    if method == "none":
        return p.copy()
    if method == "bonferroni":
        return np.minimum(1.0, p * np.count_nonzero(~np.isnan(p)))
    if method == "holm":
        return holm(p)
    if method == "bh":
        from scipy import stats

        out = np.full(p.shape, np.nan)
        ok = ~np.isnan(p)
        if ok.any():
            out[ok] = stats.false_discovery_control(p[ok], method="bh")
        return out
    raise ValueError(f"unknown correction {method!r}; expected one of {CORRECTIONS}")


@dataclass(frozen=True)
class PairComparison:
    """One run against the baseline on one measure (see module docstring)."""

    run: str
    baseline: str
    measure: str
    n_topics: int
    mean_baseline: float
    mean_run: float
    mean_diff: float
    wins: int
    ties: int
    losses: int
    t_stat: float
    p_t: float
    p_wilcoxon: float
    p_sign: float
    p_permutation: float
    effect_size: float
    ci_low: float
    ci_high: float
    p_corrected: float = float("nan")

    def p(self, test: str) -> float:
        return {"t": self.p_t, "wilcoxon": self.p_wilcoxon, "sign": self.p_sign,
                "permutation": self.p_permutation}[test]


@dataclass(frozen=True)
class Comparison:
    """Several runs against one baseline on one measure.

    Attributes
    ----------
    baseline, measure : str
    pairs : tuple of PairComparison
        One per compared run, in the order asked; ``p_corrected`` holds the
        ``test`` p-value after ``correction``.
    per_topic : pandas.DataFrame
        Index topic; columns: the baseline, each run, and ``<run> - <baseline>``.
    test, correction : str
    alpha : float
    seed : int
    n_permutations : int
    """

    baseline: str
    measure: str
    pairs: tuple[PairComparison, ...]
    per_topic: pd.DataFrame
    test: str = "t"
    correction: str = "holm"
    alpha: float = 0.05
    seed: int = 0
    n_permutations: int = 10000
    notes: tuple[str, ...] = field(default=())
    tests: tuple[str, ...] = TESTS

    def to_frame(self) -> pd.DataFrame:
        """One row per compared run: means, W/T/L, the p-value of every test computed
        (:attr:`tests`), effect size, CI."""
        rows = []
        for p in self.pairs:
            # the answer first (run, mean, difference, p, corrected p, significant), so it is
            # in view at 1280x800; the baseline, counts, other tests and the CI after it
            chosen = P_COLUMNS[self.test]
            rows.append({
                "run": p.run, "mean run": p.mean_run, "diff": p.mean_diff,
                chosen: p.p(self.test),
                f"p {self.test} ({self.correction})": p.p_corrected,
                "significant": bool(p.p_corrected < self.alpha),
                "baseline": p.baseline, "mean baseline": p.mean_baseline,
                "measure": p.measure, "topics": p.n_topics,
                "wins": p.wins, "ties": p.ties, "losses": p.losses, "t": p.t_stat,
                **{P_COLUMNS[t]: p.p(t) for t in TESTS if t in self.tests and t != self.test},
                "effect size d": p.effect_size, "CI low": p.ci_low, "CI high": p.ci_high})
        return pd.DataFrame(rows).set_index("run")

    def differences(self, run: str) -> pd.Series:
        """Per-topic ``run - baseline`` sorted from largest gain to largest loss."""
        return self.per_topic[f"{run} - {self.baseline}"].dropna().sort_values(ascending=False)


def _t_tests(values: np.ndarray, base: np.ndarray) -> tuple[np.ndarray, ...]:
    """Paired t-tests of every column of ``values`` against ``base`` in one
    :func:`~yardstick.analysis.paired_tests.paired_t_test` call: (t, p, 95 % CI low, high)
    per column (per pair, ~0.3 ms of Python with the GIL held each, 149 runs × 7 measures
    kept the window's event loop waiting); NaN where :func:`_pair` does not use it."""
    tt = paired_t_test(values, base[:, None], axis=0, confidence=0.95)
    return (np.atleast_1d(tt.statistic), np.atleast_1d(tt.pvalue), np.atleast_1d(tt.ci_low),
            np.atleast_1d(tt.ci_high))


def _pair(base: np.ndarray, other: np.ndarray, run: str, baseline: str, measure: str,
          seed: int, n_permutations: int, only: str | None = None,
          t_test: tuple[float, float, float, float] | None = None,
          ranked: dict | None = None) -> PairComparison:
    """One run against the baseline; ``t_test`` = (t, p, CI low, CI high) and ``ranked``
    = {"wilcoxon": p, "permutation": p} when computed for many runs at once."""
    ranked = ranked or {}
    from scipy import stats  # imported when first used: keeps the window's start-up fast

    d = other - base
    n = len(d)
    wins, losses = int((d > 0).sum()), int((d < 0).sum())
    ties = n - wins - losses
    nan = float("nan")
    t_stat = p_t = p_w = p_perm = es = lo = hi = nan
    p_sign = sign_test_p(wins, losses)
    sd = float(np.std(d, ddof=1)) if n > 1 else nan
    constant = n > 1 and bool(np.all(np.abs(d - d[0]) <= 1e-12 * max(1.0, abs(d[0]))))
    if n > 1 and not constant:
        if t_test is None:
            tt = paired_t_test(other, base, confidence=0.95)
            t_test = (tt.statistic, tt.pvalue, tt.ci_low, tt.ci_high)
        t_stat, p_t, lo, hi = (float(x) for x in t_test)
        es = float(np.mean(d) / sd)
    elif n > 1:  # every difference equal (to rounding): no variance, no t statistic
        p_t, lo, hi = (1.0 if d[0] == 0 else 0.0), float(d[0]), float(d[0])
    if only in (None, "wilcoxon") and "wilcoxon" in ranked:
        p_w = ranked["wilcoxon"]
    elif only in (None, "wilcoxon") and wins + losses > 0:
        p_w = float(stats.wilcoxon(other, base, zero_method="wilcox").pvalue)
    elif only in (None, "wilcoxon") and n:
        p_w = 1.0  # every difference zero
    if n > 1 and only in (None, "permutation") and "permutation" in ranked:
        p_perm = ranked["permutation"]
    elif n > 1 and only in (None, "permutation"):
        # batches of 1000: scipy's p-value, in C calls that do not hold the GIL for long
        res = stats.permutation_test(
            (other, base), lambda x, y, axis: np.mean(x - y, axis=axis),
            permutation_type="samples", n_resamples=n_permutations, vectorized=True,
            alternative="two-sided", rng=np.random.default_rng(seed), batch=1000)
        p_perm = float(res.pvalue)
    return PairComparison(run=run, baseline=baseline, measure=measure, n_topics=n,
                          mean_baseline=float(np.mean(base)) if n else nan,
                          mean_run=float(np.mean(other)) if n else nan,
                          mean_diff=float(np.mean(d)) if n else nan,
                          wins=wins, ties=ties, losses=losses, t_stat=t_stat, p_t=p_t,
                          p_wilcoxon=p_w, p_sign=p_sign, p_permutation=p_perm,
                          effect_size=es, ci_low=lo, ci_high=hi)


def compare_runs(scores: pd.DataFrame, baseline: str, runs: Sequence[str] | None = None,
                 measure: str = "", test: str = "t", correction: str = "holm",
                 alpha: float = 0.05, seed: int = 0, n_permutations: int = 10000) -> Comparison:
    """Compare ``runs`` with ``baseline``; see :func:`compare_runs_job` for the parameters."""
    return run_sync(compare_runs_job(scores, baseline, runs, measure, test, correction, alpha,
                                     seed, n_permutations))


def best_run(scores: pd.DataFrame, measure: str = "") -> str:
    """The default baseline: the run with the best mean of ``measure`` over the topics it
    has (the highest; the lowest for measures where lower is better, such as
    ``num_nonrel``); ties go to the first run in column order."""
    from yardstick.analysis.stability.aggregates import lower_is_better

    if scores.shape[1] == 0:
        raise ValueError("no runs to choose a baseline from")
    means = scores.mean(axis=0, skipna=True).to_numpy(float)
    means = np.where(np.isnan(means), np.inf if lower_is_better(measure) else -np.inf, means)
    i = int(np.argmin(means) if lower_is_better(measure) else np.argmax(means))
    return str(scores.columns[i])


def compare_runs_job(scores: pd.DataFrame, baseline: str, runs: Sequence[str] | None = None,
                     measure: str = "", test: str = "t", correction: str = "holm",
                     alpha: float = 0.05, seed: int = 0, n_permutations: int = 10000,
                     all_tests: bool = True) -> Generator[Progress, None, Comparison]:
    """Compare ``runs`` (default: every other column) with ``baseline``.

    Parameters
    ----------
    scores : pandas.DataFrame
        Topics x runs per-topic values of one measure.  Each pair uses the
        topics where both values are present (not NaN).
    baseline : str
    runs : sequence of str, optional
    measure : str
        Only recorded in the result.
    test : {"t", "wilcoxon", "sign", "permutation"}
        The test whose p-values are corrected and used for ``significant``.
    correction : {"none", "bonferroni", "holm", "bh"}
        One of :data:`CORRECTIONS`, over the compared runs.
    alpha : float
    seed : int
        Seeds ``numpy.random.default_rng`` for the permutation test.
    n_permutations : int
        Random within-topic swaps (scipy uses the exact test when 2**n is smaller).
    all_tests : bool
        False: run only ``test`` besides the t-test and sign test (the others' p-values
        NaN, left out of :attr:`Comparison.tests` and ``to_frame``): the window's
        Compare panel, which needs no resampling for a t-test.
    """
    if test not in TESTS:
        raise ValueError(f"unknown test {test!r}; expected one of {TESTS}")
    if baseline not in scores.columns:
        raise KeyError(f"baseline {baseline!r} is not among the runs")
    runs = [r for r in (runs if runs is not None else scores.columns) if r != baseline]
    missing = [r for r in runs if r not in scores.columns]
    if missing:
        raise KeyError(f"runs not in the score matrix: {missing}")
    # one float matrix, columns by position: selecting two columns of the frame for each
    # run (pandas' string-index look-ups, in C with the GIL held) starved the window
    values = scores.to_numpy(dtype=float)
    at = {name: k for k, name in enumerate(scores.columns)}
    base = values[:, at[baseline]]
    columns = {baseline: base}
    pairs, notes = [], []
    # the runs scored on every topic the baseline has: each test of them in one call
    whole = [r for r in runs if not np.isnan(values[:, at[r]]).any()] \
        if len(base) > 1 and not np.isnan(base).any() else []
    t_tests, ranked = {}, {}
    if len(whole) > 1:
        t, p, lo, hi = _t_tests(values[:, [at[r] for r in whole]], base)
        t_tests = {r: (t[k], p[k], lo[k], hi[k]) for k, r in enumerate(whole)}
        d = np.ascontiguousarray((values[:, [at[r] for r in whole]] - base[:, None]).T)
        for name in {"wilcoxon", "permutation"} & ({test} if not all_tests else set(TESTS)):
            ps = wilcoxon_pvalues(d) if name == "wilcoxon" else \
                randomisation_pvalues(d, seed, n_permutations)      # scipy's p-values
            for k, r in enumerate(whole):
                ranked.setdefault(r, {})[name] = float(ps[k])
    for i, r in enumerate(runs):
        yield Progress(i, len(runs), f"comparing {r} with {baseline}")
        other = values[:, at[r]]
        both = ~np.isnan(base) & ~np.isnan(other)
        n_both = int(both.sum())
        if n_both < int((~np.isnan(base) | ~np.isnan(other)).sum()):
            notes.append(f"{r}: {n_both} topics in common with {baseline}")
        pairs.append(_pair(base[both], other[both], r, baseline, measure, seed,
                           n_permutations, None if all_tests else test, t_tests.get(r),
                           ranked.get(r)))
        columns[r] = other
        columns[f"{r} - {baseline}"] = other - base
    per_topic = pd.DataFrame(columns, index=scores.index)  # at once: 200 runs, 400 columns
    adj = correct_pvalues([p.p(test) for p in pairs], correction)
    pairs = tuple(PairComparison(**{**p.__dict__, "p_corrected": float(a)})
                  for p, a in zip(pairs, adj))
    per_topic.index.name = "topic"
    yield Progress(len(runs), len(runs), "compared")
    return Comparison(baseline=baseline, measure=measure, pairs=pairs, per_topic=per_topic,
                      test=test, correction=correction, alpha=alpha, seed=seed,
                      n_permutations=n_permutations, notes=tuple(notes),
                      tests=TESTS if all_tests else tuple(t for t in TESTS
                                                          if t in ("t", "sign", test)))


def experiment_table(matrices: Mapping[str, pd.DataFrame], baseline: str,
                     runs: Sequence[str] | None = None, test: str = "t",
                     correction: str = "holm", alpha: float = 0.05, seed: int = 0,
                     n_permutations: int = 10000, markers: bool = True) -> pd.DataFrame:
    """PyTerrier-like table; see :func:`experiment_table_job`."""
    return run_sync(experiment_table_job(matrices, baseline, runs, test, correction, alpha,
                                         seed, n_permutations, markers))


def experiment_table_job(matrices: Mapping[str, pd.DataFrame], baseline: str,
                         runs: Sequence[str] | None = None, test: str = "t",
                         correction: str = "holm", alpha: float = 0.05, seed: int = 0,
                         n_permutations: int = 10000, markers: bool = True
                         ) -> Generator[Progress, None, pd.DataFrame]:
    """PyTerrier-``Experiment``-like table over several measures.

    Rows: the baseline then each run.  For each measure ``m``: ``m`` (mean),
    ``m +`` / ``m -`` (topics better / worse than the baseline), ``m p-value``
    and ``m p-value (<correction>)``; with ``markers`` a column ``m *`` holds
    ``▲`` / ``▼`` when the corrected p-value is below ``alpha`` and the run
    is better / worse.  Correction is over the runs, per measure (as PyTerrier).
    """
    first = next(iter(matrices.values()))
    runs = [r for r in (runs if runs is not None else first.columns) if r != baseline]
    table = pd.DataFrame(index=pd.Index([baseline, *runs], name="name"))
    for k, (m, mat) in enumerate(matrices.items()):
        yield Progress(k, len(matrices), f"testing {m}")
        cmp = run_sync(compare_runs_job(mat, baseline, runs, m, test, correction, alpha, seed,
                                        n_permutations, all_tests=False))
        table[m] = [float(mat[baseline].mean()), *[p.mean_run for p in cmp.pairs]]
        table[f"{m} +"] = pd.array([pd.NA, *[p.wins for p in cmp.pairs]], dtype="Int64")
        table[f"{m} -"] = pd.array([pd.NA, *[p.losses for p in cmp.pairs]], dtype="Int64")
        table[f"{m} p-value"] = [np.nan, *[p.p(test) for p in cmp.pairs]]
        if correction != "none":
            table[f"{m} p-value ({correction})"] = [np.nan, *[p.p_corrected for p in cmp.pairs]]
        if markers:
            table[f"{m} *"] = ["", *[("▲" if p.mean_diff > 0 else "▼")
                                     if p.p_corrected < alpha else "" for p in cmp.pairs]]
    yield Progress(len(matrices), len(matrices), "done")
    return table
