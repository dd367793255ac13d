"""Scatter of two measures over runs, with their correlation.

Each point is a run at (mean of measure x, mean of measure y); Pearson's r and
Kendall's tau (scipy) say how far the two measures agree on these runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from yardstick.evaluation.evaluation_service import Evaluation
from yardstick.presentation.charts.scores import run_means

__all__ = ["MeasureScatter", "measure_scatter"]


@dataclass(frozen=True, eq=False)
class MeasureScatter:
    x_measure: str
    y_measure: str
    runs: tuple[str, ...]
    x: np.ndarray
    y: np.ndarray
    pearson: float
    kendall: float

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame({self.x_measure: self.x, self.y_measure: self.y},
                            index=pd.Index(self.runs, name="run"))


def measure_scatter(evaluations: Mapping[str, Evaluation], x: str = "map", y: str = "P_10",
                    runs: Sequence[str] | None = None,
                    topics: Sequence[str] | None = None) -> MeasureScatter:
    """Run means of two measures and their Pearson r and Kendall tau-b."""
    means = run_means(evaluations, [x, y] if x != y else [x], runs, topics)
    xs = means[x].to_numpy(float)
    ys = means[y].to_numpy(float)
    if len(xs) >= 2 and np.ptp(xs) > 0 and np.ptp(ys) > 0:
        r = float(stats.pearsonr(xs, ys).statistic)
        tau = float(stats.kendalltau(xs, ys).statistic)
    else:
        r = tau = float("nan")
    return MeasureScatter(x, y, tuple(means.index), xs, ys, r, tau)
