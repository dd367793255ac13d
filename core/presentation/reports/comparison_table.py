"""A paper-ready comparison table: runs x measures, best value bold, significance superscripts.

Like ranx's ``Report`` (Bassani, "ranx: A Blazing-Fast Python Library for Ranking
Evaluation and Comparison", ECIR 2022), every run gets a letter (a, b, c ...);
each mean carries, as a superscript, the letters of the runs it is
*significantly better than*: for each measure every pair of runs is tested on
the topics both have, the p-values of the k(k-1)/2 pairs are corrected together,
and run i earns j's letter when the corrected p-value is below alpha and i's mean
is higher.  The caption states the test, the correction, alpha, the number of
topics and the qrels.

Tests (two-sided, paired over topics), as compared by Smucker, Allan & Carterette,
"A comparison of statistical significance tests for information retrieval
evaluation", CIKM 2007:

* ``t``: paired t-test (``scipy.stats.ttest_rel``);
* ``wilcoxon``: Wilcoxon signed-rank (``scipy.stats.wilcoxon``, zero differences dropped);
* ``randomisation``: Fisher's paired randomisation test (``scipy.stats.permutation_test``,
  within-topic swaps, seeded), the same as the Compare panel's ``permutation``;
* ``bootstrap``: the paired bootstrap test of Efron & Tibshirani, "An Introduction
  to the Bootstrap", 1993, section 16.4 (as used by Sakai, "Evaluating evaluation
  metrics based on the bootstrap", SIGIR 2006): the differences are shifted to mean
  zero, resampled ``n_resamples`` times with replacement, and p is the share of
  resampled means at least as far from zero as the observed mean.

Corrections: :data:`yardstick.analysis.significance.CORRECTIONS` (``none``, ``bonferroni``,
``holm``, ``bh``), applied by :func:`yardstick.analysis.significance.correct_pvalues`.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd

from yardstick.analysis.significance import (
    CORRECTION_NAMES,
    CORRECTIONS,
    correct_pvalues,
)
from yardstick.analysis.stability.comparable import comparable
from yardstick.presentation.reports.pair_tests import ALIASES as _ALIASES
from yardstick.presentation.reports.pair_tests import TESTS, pair_pvalues, paired_pvalue

__all__ = ["TESTS", "CORRECTIONS", "ComparisonTable", "comparison_table",
           "comparison_table_from_evaluations", "paired_pvalue"]

_TEST_NAMES = {"t": "paired t-test", "wilcoxon": "Wilcoxon signed-rank test",
               "randomisation": "Fisher's randomisation test", "bootstrap": "paired bootstrap test"}


#: the correction names and the one correction function are significance.py's
_CORRECTION_NAMES = CORRECTION_NAMES
_correct = correct_pvalues


@dataclass(frozen=True, eq=False)
class ComparisonTable:
    """The table and everything behind it.

    Attributes
    ----------
    means : DataFrame
        runs x measures, full precision; index ``run``.
    letters : Series
        run -> its letter.
    markers : DataFrame
        runs x measures, the letters of the runs each value is significantly better than.
    best : DataFrame
        runs x measures, True for the best mean of each measure (ties all bold).
    pvalues : DataFrame
        One row per measure and pair: ``measure, run_a, run_b, mean_a, mean_b, n_topics,
        p_value, p_value_corrected, a_better, b_better``.
    caption : str
    test, correction : str
    alpha : float
    n_topics : int
    seed : int
    """

    means: pd.DataFrame
    letters: pd.Series
    markers: pd.DataFrame
    best: pd.DataFrame
    pvalues: pd.DataFrame
    caption: str
    test: str
    correction: str
    alpha: float
    n_topics: int
    seed: int
    identical: tuple[tuple[str, str], ...] = ()

    def display_frame(self) -> pd.DataFrame:
        """``means`` indexed by (``letter``, ``run``): the letter the superscripts use and
        the run's name, each in its own column (a file's ``run`` column joins on names)."""
        f = self.means.copy()
        f.index = pd.MultiIndex.from_arrays([[self.letters[r] for r in f.index],
                                             list(f.index)], names=["letter", "run"])
        return f

    def identical_note(self) -> str:
        """Names the pairs of runs with the same score on every topic (p = 1 on every
        measure: they count among the pairs corrected for, yet are one system twice)."""
        if not self.identical:
            return ""
        pairs = "; ".join(f"{a} = {b}" for a, b in self.identical)
        return (f"{len(self.identical)} pair(s) of runs score identically on every topic "
                f"and measure (p = 1): {pairs}.")

    def write(self, path, fmt: str | None = None, decimals: int = 4, provenance=None):
        """Write the table (LaTeX, Markdown, HTML, XLSX: bold + superscripts; CSV: means)."""
        from yardstick.presentation.export.tables import write_table

        f = self.display_frame()
        m = self.markers.set_axis(f.index, axis=0)
        b = self.best.set_axis(f.index, axis=0)
        prov = provenance.with_extra(test=self.test, correction=self.correction,
                                     alpha=self.alpha, seeds={self.test: self.seed}) \
            if provenance is not None else None
        return write_table(f, path, fmt, decimals=decimals, markers=m, bold=b,
                           caption=self.caption, provenance=prov)


def comparison_table(matrices: Mapping[str, pd.DataFrame], runs: Sequence[str] | None = None,
                     test: str = "t", correction: str = "holm", alpha: float = 0.05,
                     seed: int = 0, n_resamples: int = 10000, qrels_name: str = "",
                     higher_is_better: Mapping[str, bool] | None = None,
                     order: str = "given", means: pd.DataFrame | None = None
                     ) -> ComparisonTable:
    """Build the table from ``{measure: topics x runs}`` per-topic score matrices.

    ``runs`` picks and orders the rows (default: all, in the first matrix's order);
    ``order="score"`` sorts them by the first measure's mean, best first, so that the
    letters a run beats form ranges (``b–k``) and the superscripts stay short with many
    runs.  ``higher_is_better`` flips "best" and "better" for measures where lower wins.
    ``means`` (runs x measures) gives the means to print, e.g. the engine's averages,
    which sum the topics in trec_eval's order and can differ from ``DataFrame.mean``
    in the last digit; by default they are the matrices' column means.
    """
    test = _ALIASES.get(test, test)
    if test not in TESTS:
        raise ValueError(f"unknown test {test!r}; expected one of {TESTS}")
    if correction not in CORRECTIONS:
        raise ValueError(f"unknown correction {correction!r}; expected one of {CORRECTIONS}")
    first_name, first = next(iter(matrices.items()))
    runs = list(runs) if runs is not None else list(first.columns)
    if order == "score":
        up = (higher_is_better or {}).get(first_name, True)
        key = means[first_name].reindex(runs) if means is not None and first_name in means \
            else first[runs].mean()
        runs = list(key.sort_values(ascending=not up, kind="stable").index)
    elif order != "given":
        raise ValueError(f"unknown order {order!r}; expected 'given' or 'score'")
    letters = pd.Series(_letters(len(runs)), index=pd.Index(runs, name="run"))
    position = {r: i for i, r in enumerate(runs)}
    table_means = pd.DataFrame(index=letters.index)
    markers = pd.DataFrame("", index=letters.index, columns=list(matrices), dtype=object)
    rows = []
    n_topics = 0
    beaten: dict[tuple[str, str], list[int]] = {(r, m): [] for r in runs for m in matrices}
    pairs = list(combinations(range(len(runs)), 2))
    identical: set[tuple[str, str]] | None = None
    for m, mat in matrices.items():
        sign = 1.0 if (higher_is_better or {}).get(m, True) else -1.0
        table_means[m] = means[m].reindex(runs).astype(float) \
            if means is not None and m in means else mat[runs].mean()
        n_topics = max(n_topics, int(mat[runs].notna().any(axis=1).sum()))
        x = mat[runs].to_numpy(float)
        ps, ns, ma, mb, same = pair_pvalues(x, pairs, test, seed, n_resamples)
        # a pair of runs scored on every topic prints the run means of the table above (one
        # mean per run in every file: a pair's own sum differed in the last digit, so the
        # CSVs did not join); a pair over fewer topics keeps the means over those topics
        whole = ~np.isnan(x).any(axis=0)
        shown = table_means[m].to_numpy(float)
        ma = [shown[i] if whole[i] and whole[j] else a_ for (i, j), a_ in zip(pairs, ma)]
        mb = [shown[j] if whole[i] and whole[j] else b_ for (i, j), b_ in zip(pairs, mb)]
        same_here = {(runs[i], runs[j]) for (i, j), s_ in zip(pairs, same) if s_}
        identical = same_here if identical is None else identical & same_here
        adj = _correct(ps, correction)
        for (i, j), n, a_mean, b_mean, p, q in zip(pairs, ns, ma, mb, ps, adj):
            a, b = runs[i], runs[j]
            sig = bool(q < alpha)
            a_better = sig and sign * (a_mean - b_mean) > 0
            b_better = sig and sign * (b_mean - a_mean) > 0
            if a_better:
                beaten[(a, m)].append(j)
            if b_better:
                beaten[(b, m)].append(i)
            rows.append((m, a, b, float(a_mean), float(b_mean), int(n), float(p), float(q),
                         a_better, b_better))
    names = list(letters)
    for (r, m), idx in beaten.items():
        markers.loc[r, m] = _ranges(sorted(idx), names)
    orient = pd.Series({m: 1.0 if (higher_is_better or {}).get(m, True) else -1.0
                        for m in table_means.columns})
    # equal fractions tie whatever the summation order (486/500 summed over different
    # per-topic values came out as 0.972 and 0.9719999999999999): compared to 12 digits
    signed = pd.DataFrame(comparable(table_means * orient), index=table_means.index,
                          columns=table_means.columns)
    best = signed.eq(signed.max())
    pvalues = pd.DataFrame(rows, columns=["measure", "run_a", "run_b", "mean_a", "mean_b",
                                          "n_topics", "p_value", "p_value_corrected", "a_better",
                                          "b_better"])
    caption = (f"Mean scores over {n_topics} topics"
               + (f" (qrels {qrels_name})" if qrels_name else "")
               + f". Best value per measure in bold. Superscripts name the runs a value is "
               f"significantly better than ({_TEST_NAMES[test]}, {CORRECTION_NAMES[correction]}"
               f" over the {len(runs) * (len(runs) - 1) // 2} pairs per measure, "
               f"α = {alpha:g}" + (f", seed {seed}" if test in ("randomisation", "bootstrap")
                                      else "") + ").")
    return ComparisonTable(table_means, letters, markers, best, pvalues, caption, test,
                           correction, alpha, n_topics, seed,
                           tuple(sorted(identical or (), key=lambda ab: (position[ab[0]],
                                                                         position[ab[1]]))))


def comparison_table_from_evaluations(evaluations: Mapping, columns: Sequence[str],
                                      **options) -> ComparisonTable:
    """:func:`comparison_table` of ``{run name: Evaluation}`` on per-topic ``columns``
    (``"map"``, ``"P_10"`` ...); ``options`` as :func:`comparison_table`.  The means are
    the evaluations' averages (what ``yardstick eval`` and trec_eval print, to the last
    digit).

    >>> evs = run_sync(evaluate_runs(runs, qrels, ["map", "P.10"]))
    >>> comparison_table_from_evaluations(evs, ["map", "P_10"], test="randomisation",
    ...                                   correction="holm").write("table.tex")
    """
    matrices = {c: pd.DataFrame({n: ev.per_topic[c] for n, ev in evaluations.items()})
                for c in columns}
    means = pd.DataFrame({c: {n: float(ev.summary[c]) for n, ev in evaluations.items()}
                          for c in columns if all(c in ev.summary.index
                                                  for ev in evaluations.values())})
    options.setdefault("means", means)
    return comparison_table(matrices, **options)


def _ranges(idx: list[int], names: list[str]) -> str:
    """Names of sorted positions, three or more consecutive ones as a range:
    ``a b c d f`` -> ``a–d,f``, ``b d`` -> ``bd``; commas whenever names have two letters."""
    parts, start = [], 0
    for k in range(1, len(idx) + 1):
        if k == len(idx) or idx[k] != idx[k - 1] + 1:
            lo, hi = idx[start], idx[k - 1]
            if hi - lo >= 2:
                parts.append(f"{names[lo]}–{names[hi]}")
            else:
                parts += [names[i] for i in range(lo, hi + 1)]
            start = k
    sep = "," if len(names) > 26 or any("–" in p for p in parts) else ""
    return sep.join(parts)


def _letters(n: int) -> list[str]:
    """a, b, ..., z, aa, ab, ... (as many as runs)."""
    abc = string.ascii_lowercase
    out = []
    for i in range(n):
        s, k = "", i
        while True:
            s = abc[k % 26] + s
            k = k // 26 - 1
            if k < 0:
                break
        out.append(s)
    return out
