"""Runs marked against named baselines: the table most papers print (ranx's † table).

Bassani, "ranx: A Blazing-Fast Python Library for Ranking Evaluation and Comparison"
(ECIR 2022) marks each run against the baseline(s) a paper names rather than against
every other run.  For each measure, every run is tested against each baseline on the
topics both have (the tests of :mod:`yardstick.presentation.reports.pair_tests`), the
p-values of those comparisons only — runs x baselines, not all k(k-1)/2 pairs — are
corrected together (Holm 1979; Benjamini & Hochberg 1995; Bonferroni), and a mean
carries a baseline's symbol (†, ‡, §, ¶ for the first four) when it is significantly
better than that baseline.  The all-pairs letters of
:mod:`yardstick.presentation.reports.comparison_table` stay beside it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from yardstick.presentation.reports.pair_tests import ALIASES, pair_pvalues

__all__ = ["SYMBOLS", "BaselineTable", "baseline_table", "symbol_for"]

#: the symbols of the first four baselines; later ones get a dagger and a number
SYMBOLS = ("†", "‡", "§", "¶")


def symbol_for(k: int) -> str:
    """The mark of the ``k``-th baseline (0-based)."""
    return SYMBOLS[k] if k < len(SYMBOLS) else f"†{k + 1}"


@dataclass(frozen=True, eq=False)
class BaselineTable:
    """``means`` (runs x measures, index ``run``), ``markers`` (the baselines' symbols each
    mean beats), ``pvalues`` (one row per measure, run and baseline), the ``caption``."""

    means: pd.DataFrame
    markers: pd.DataFrame
    best: pd.DataFrame
    pvalues: pd.DataFrame
    baselines: tuple[str, ...]
    caption: str


def baseline_table(matrices: Mapping[str, pd.DataFrame], baselines: Sequence[str],
                   runs: Sequence[str] | None = None, test: str = "t",
                   correction: str = "holm", alpha: float = 0.05, seed: int = 0,
                   n_resamples: int = 10000, means: pd.DataFrame | None = None,
                   best: pd.DataFrame | None = None) -> BaselineTable:
    """Mark ``runs`` against ``baselines`` on ``{measure: topics x runs}`` matrices."""
    from yardstick.presentation.reports.comparison_table import (
        _CORRECTION_NAMES,
        _TEST_NAMES,
        _correct,
    )

    test = ALIASES.get(test, test)
    first = next(iter(matrices.values()))
    runs = list(runs) if runs is not None else list(first.columns)
    baselines = list(dict.fromkeys(baselines))
    missing = [b for b in baselines if b not in runs]
    if missing:
        raise KeyError(f"baseline(s) {missing} are not among the runs")
    col = {r: i for i, r in enumerate(runs)}
    pairs = [(col[r], col[b]) for b in baselines for r in runs if r != b]
    table_means = pd.DataFrame(index=pd.Index(runs, name="run"))
    markers = pd.DataFrame("", index=table_means.index, columns=list(matrices), dtype=object)
    rows = []
    for m, mat in matrices.items():
        table_means[m] = means[m].reindex(runs).astype(float) \
            if means is not None and m in means else mat[runs].mean()
        x = mat[runs].to_numpy(float)
        p, n, mr, mb, same = pair_pvalues(x, pairs, test, seed, n_resamples)
        # one mean per run in every file (as the comparison table): a run and baseline
        # scored on every topic print the table's means, not the pair's own sum
        whole = ~np.isnan(x).any(axis=0)
        shown = table_means[m].to_numpy(float)
        mr = [shown[i] if whole[i] and whole[j] else a for (i, j), a in zip(pairs, mr)]
        mb = [shown[j] if whole[i] and whole[j] else b for (i, j), b in zip(pairs, mb)]
        q = _correct(p, correction)
        for (i, j), pi, qi, ni, a, b, s in zip(pairs, p, q, n, mr, mb, same):
            better = bool(qi < alpha and a > b)
            if better:
                markers.loc[runs[i], m] += symbol_for(baselines.index(runs[j]))
            rows.append((m, runs[i], runs[j], float(a), float(b), int(ni), float(pi),
                         float(qi), better, bool(s)))
    pvalues = pd.DataFrame(rows, columns=["measure", "run", "baseline", "mean_run",
                                          "mean_baseline", "n_topics", "p_value",
                                          "p_value_corrected", "significantly_better",
                                          "identical"])
    names = ", ".join(f"{symbol_for(k)} {b}" for k, b in enumerate(baselines))
    per = len(pairs)
    caption = (f"Superscripts mark a mean significantly better than a baseline ({names}; "
               f"{_TEST_NAMES[test]}, {_CORRECTION_NAMES[correction]} over the {per} "
               f"comparisons with the baselines per measure, α = {alpha:g}).")
    if best is None:
        best = table_means.eq(table_means.max())
    same = pvalues[pvalues.identical].groupby(["run", "baseline"]).size()
    whole = [f"{r} = {b}" for (r, b), k in same.items() if k == len(matrices)]
    if whole:
        caption += " Identical to a baseline on every topic (p = 1): " + "; ".join(whole) + "."
    return BaselineTable(table_means, markers, best.reindex(table_means.index), pvalues,
                         tuple(baselines), caption)
