"""Every run's mean score with its 95 % confidence interval, best first.

The system-ranking plot of TREC overviews and of trectools (Palotti, Scells &
Zuccon, "TrecTools: an open-source Python library for Information Retrieval
practitioners involved in TREC-like campaigns", SIGIR 2019): one mark per run at
its mean over topics, with Student's t interval over the topics,
``mean ± t(1 − α/2, n − 1) · s / √n`` (``scipy.stats.t``), runs in the order of
:func:`yardstick.analysis.stability.rank_correlation.system_ranking` (its tie rule: means
equal to 12 significant digits are tied and ordered by name; no tie-break measure here).
The interval says how far the mean could move with another sample of topics;
overlapping intervals are no test of a difference between two runs (use the paired
tests of Compare for that).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from yardstick.analysis.stability.rank_correlation import system_ranking
from yardstick.evaluation.results import mean_over_topics, score_matrix


@dataclass(frozen=True, eq=False)
class SystemRanking:
    """Runs best first with mean, interval and the number of topics averaged."""

    measure: str
    runs: tuple[str, ...]
    mean: np.ndarray
    low: np.ndarray
    high: np.ndarray
    topics: np.ndarray          # topics each run was averaged over
    confidence: float
    baseline: str | None = None

    def to_frame(self) -> pd.DataFrame:
        pct = f"{self.confidence:.0%}"
        return pd.DataFrame({"rank": np.arange(1, len(self.runs) + 1), "run": list(self.runs),
                             "measure": self.measure, "mean": self.mean,
                             f"ci_low_{pct}": self.low, f"ci_high_{pct}": self.high,
                             "topics": self.topics,
                             "baseline": [r == self.baseline for r in self.runs]})


def ranked_means(evaluations: Mapping[str, object] | pd.DataFrame, measure: str = "map",
                   topics: Sequence[str] | None = None, confidence: float = 0.95,
                   baseline: str | None = None, runs: Sequence[str] | None = None
                   ) -> SystemRanking:
    """Rank ``runs`` (default: all) by their mean ``measure`` with a t interval.

    ``evaluations`` are :class:`~yardstick.evaluation.results.Evaluation` objects by run
    name, or a topics × runs score matrix.  A topic a run has no value for (no
    results, without ``-c``) is left out of that run's mean, as trec_eval does.
    """
    from scipy import stats

    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie in (0, 1), not {confidence}")
    mat = evaluations if isinstance(evaluations, pd.DataFrame) else \
        score_matrix(evaluations, measure)
    if topics is not None:
        mat = mat.reindex([str(t) for t in topics])
    if runs is not None:
        mat = mat[[r for r in runs if r in mat.columns]]
    values = mat.to_numpy(float)
    present = ~np.isnan(values)
    n = present.sum(axis=0)
    mean = mean_over_topics(values, present, axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        sd = np.nanstd(values, axis=0, ddof=1) if values.size else np.zeros(0)
        half = stats.t.ppf(0.5 + confidence / 2, np.maximum(n - 1, 1)) * sd / np.sqrt(n)
    half = np.where(n > 1, half, np.nan)
    names = [str(c) for c in mat.columns]
    at = {name: j for j, name in enumerate(names)}
    order = [at[name] for name in system_ranking(pd.Series(mean, index=names, dtype=float))]
    return SystemRanking(measure=measure, runs=tuple(names[j] for j in order),
                         mean=mean[order], low=(mean - half)[order], high=(mean + half)[order],
                         topics=n[order], confidence=confidence,
                         baseline=baseline if baseline in names else None)
