"""Rank-correlation heat map: Kendall's tau between the run rankings of several measures.

Robust 2003 overview, §2 and Figure 3: "A system ranking is an ordering of the
runs by decreasing score of an effectiveness measure"; the Kendall correlation
between two rankings counts the pairwise swaps that turn one into the other.
Here tau-b from :func:`scipy.stats.kendalltau` on the run means (ties allowed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from yardstick.evaluation.evaluation_service import Evaluation
from yardstick.presentation.charts.scores import run_means

__all__ = ["RankCorrelation", "rank_correlation"]


@dataclass(frozen=True, eq=False)
class RankCorrelation:
    """Measures × measures correlation matrix (symmetric, 1 on the diagonal).

    Attributes
    ----------
    measures : tuple of str
    tau : numpy.ndarray
    p_value : numpy.ndarray
    means : pandas.DataFrame
        The runs × measures values the rankings come from.
    method : str
    """

    measures: tuple[str, ...]
    tau: np.ndarray
    p_value: np.ndarray
    means: pd.DataFrame
    method: str = "kendall"

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame(self.tau, index=pd.Index(self.measures, name="measure"),
                            columns=pd.Index(self.measures, name="measure"))


def rank_correlation(evaluations: Mapping[str, Evaluation], measures: Sequence[str],
                     runs: Sequence[str] | None = None, topics: Sequence[str] | None = None,
                     method: str = "kendall") -> RankCorrelation:
    """Correlation between the run rankings of each pair of measures.

    ``method`` is ``"kendall"`` (tau-b) or ``"spearman"``.
    """
    fn = {"kendall": stats.kendalltau, "spearman": stats.spearmanr}.get(method)
    if fn is None:
        raise ValueError(f"method must be 'kendall' or 'spearman', not {method!r}")
    means = run_means(evaluations, list(measures), runs, topics)
    k = len(measures)
    tau = np.eye(k)
    pv = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            res = fn(means.iloc[:, i].to_numpy(float), means.iloc[:, j].to_numpy(float))
            tau[i, j] = tau[j, i] = float(res.statistic)
            pv[i, j] = pv[j, i] = float(res.pvalue)
    return RankCorrelation(tuple(measures), tau, pv, means, method)
