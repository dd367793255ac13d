"""What-if significance: does a run still beat its baseline under the edited judgments?

Issue 8 asks that a what-if edit of the judgments update "every measure, the
run ranking and the significance results".  :func:`what_if_significance` pairs
one run with a baseline on one measure twice -- under the original
evaluations and under the re-evaluated ones of a
:class:`yardstick.analysis.explain.what_if.WhatIfSession` -- with
:func:`yardstick.analysis.significance.compare_runs` (paired t-test, Wilcoxon signed-rank, sign
test and the seeded randomisation test compared by Smucker, Allan & Carterette,
CIKM 2007), so a student sees one changed judgment move a p-value.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from dataclasses import dataclass

import pandas as pd

from yardstick.analysis.significance import Comparison, PairComparison, compare_runs_job
from yardstick.common.progress import Progress
from yardstick.evaluation.evaluation_service import Evaluation, score_matrix

__all__ = [
    "WhatIfSignificance",
    "pair_comparison",
    "what_if_significance",
    "what_if_significance_job",
]

#: Rows of :meth:`WhatIfSignificance.to_frame` -> PairComparison attribute.
ROWS = {"topics": "n_topics", "mean baseline": "mean_baseline", "mean run": "mean_run",
        "diff": "mean_diff", "wins": "wins", "ties": "ties", "losses": "losses",
        "t": "t_stat", "p t-test": "p_t", "p wilcoxon": "p_wilcoxon", "p sign": "p_sign",
        "p permutation": "p_permutation", "effect size d": "effect_size",
        "CI low": "ci_low", "CI high": "ci_high"}
#: Rows that are counts (shown as integers).
COUNTS = ("n_topics", "wins", "ties", "losses")


@dataclass(frozen=True)
class WhatIfSignificance:
    """One run against a baseline on one measure, under the original and the edited qrels.

    Attributes
    ----------
    run, baseline, measure : str
    original, now : yardstick.analysis.significance.Comparison
        :func:`yardstick.analysis.significance.compare_runs` on the original and the re-evaluated
        per-topic scores (one compared run, so no correction applies).
    alpha : float
    """

    run: str
    baseline: str
    measure: str
    original: Comparison
    now: Comparison
    alpha: float = 0.05

    @property
    def pair_original(self) -> PairComparison:
        return self.original.pairs[0]

    @property
    def pair_now(self) -> PairComparison:
        return self.now.pairs[0]

    def to_frame(self) -> pd.DataFrame:
        """Rows: topics, means, W/T/L, t, the four p-values, effect size, CI; columns
        ``original``, ``now``, ``change`` (now - original); counts are ints, the rest
        floats (an object frame, so a table shows counts without decimals)."""
        a, b = self.pair_original, self.pair_now

        def value(p: PairComparison, k: str):
            v = getattr(p, k)
            return int(v) if k in COUNTS else float(v)

        was = [value(a, k) for k in ROWS.values()]
        now = [value(b, k) for k in ROWS.values()]
        return pd.DataFrame({"original": pd.Series(was, dtype=object).to_numpy(),
                             "now": pd.Series(now, dtype=object).to_numpy(),
                             "change": pd.Series([y - x for x, y in zip(was, now)],
                                                 dtype=object).to_numpy()},
                            index=pd.Index(list(ROWS), name=f"{self.run} vs {self.baseline}"))

    def verdict(self, test: str = "t") -> str:
        """One sentence: significant (at alpha) before and after, with the test's p-values."""
        pa, pb = self.pair_original.p(test), self.pair_now.p(test)

        def say(p: float) -> str:
            return "significant" if p < self.alpha else "not significant"

        same = say(pa) == say(pb)
        return (f"{self.run} vs {self.baseline} on {self.measure} ({test}): p = {pa:.4g} "
                f"→ {pb:.4g}; {say(pa)} at α = {self.alpha:g} "
                + ("before and after the edits." if same else f"before, {say(pb)} now."))


def pair_comparison(evals: Mapping[str, Evaluation], run: str, baseline: str, measure: str,
                    seed: int = 0, n_permutations: int = 10000, alpha: float = 0.05
                    ) -> Generator[Progress, None, Comparison]:
    """``yardstick.analysis.significance.compare_runs_job`` of ``run`` vs ``baseline`` on the
    evaluations' scores."""
    if run == baseline:
        raise ValueError("choose a baseline other than the run")
    for name in (run, baseline):
        if name not in evals:
            raise KeyError(f"run {name!r} is not evaluated")
    scores = score_matrix({n: evals[n] for n in (baseline, run)}, measure)
    return (yield from compare_runs_job(scores, baseline, [run], measure, "t", "none", alpha,
                                        seed, n_permutations))


def what_if_significance_job(original: Mapping[str, Evaluation],
                             now: Mapping[str, Evaluation], run: str, baseline: str,
                             measure: str = "map", seed: int = 0, n_permutations: int = 10000,
                             alpha: float = 0.05
                             ) -> Generator[Progress, None, WhatIfSignificance]:
    """Progress generator of :func:`what_if_significance`."""
    yield Progress(0, 2, "testing under the original judgments")
    before = yield from pair_comparison(original, run, baseline, measure, seed, n_permutations,
                                        alpha)
    yield Progress(1, 2, "testing under the edited judgments")
    after = yield from pair_comparison(now, run, baseline, measure, seed, n_permutations, alpha)
    yield Progress(2, 2, "tested")
    return WhatIfSignificance(run, baseline, measure, before, after, alpha)


def what_if_significance(original: Mapping[str, Evaluation], now: Mapping[str, Evaluation],
                         run: str, baseline: str, measure: str = "map", seed: int = 0,
                         n_permutations: int = 10000, alpha: float = 0.05
                         ) -> WhatIfSignificance:
    """Paired tests of ``run`` vs ``baseline`` before and after what-if edits.

    Parameters
    ----------
    original, now : mapping run name -> Evaluation
        ``WhatIfSession.original_evaluations()`` and ``WhatIfSession.evaluations()``
        (or any two sets of evaluations of the same runs).
    run, baseline : str
    measure : str
        A per-topic column (``"map"``, ``"P_10"`` ...).
    seed, n_permutations, alpha
        As for :func:`yardstick.analysis.significance.compare_runs`.
    """
    from yardstick.common.progress import run_sync

    return run_sync(what_if_significance_job(original, now, run, baseline, measure, seed,
                                             n_permutations, alpha))
