"""MAP(X) vs X: mean average precision over each run's X worst topics (robust 2003 overview).

Voorhees, *Overview of the TREC 2003 Robust Retrieval Track*, §1 and Figure 4:
MAP(X) is "the mean of the average precision scores for the system's worst
[X] topics (as measured by average precision)"; the track's *area* measure is
the area underneath the MAP(X) vs. X curve with X limited to the worst quarter
of the topics (X = 1 … 12 for 50 topics, 1 … 25 for 100).  Figure 4 plots the
full range (left) and the worst quarter (right).

The area is reported here as the mean of MAP(X) over X = 1 … X_max, i.e. the
area under the step curve with X rescaled to [0, 1], so it is on the scale of
AP (the paper's best old-topic area, 0.0203, is of that size).  Each run's
worst topics are its own, so runs are compared on different topics.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from yardstick.presentation.charts.scores import ScoreSource, per_topic_scores

__all__ = ["MapAtX", "map_at_x", "worst_quarter"]


def worst_quarter(n_topics: int) -> int:
    """X_max for the area measure: ⌊N/4⌋ (12 for 50 topics, 25 for 100)."""
    return max(1, n_topics // 4)


@dataclass(frozen=True, eq=False)
class MapAtX:
    """MAP(X) for X = 1 … N of several runs, and the area over the worst quarter.

    Attributes
    ----------
    measure : str
        The per-topic measure averaged (``map`` for the paper's MAP(X)).
    runs : tuple of str
    x : numpy.ndarray
        1 … N.
    values : numpy.ndarray
        ``(len(runs), N)``: MAP(X).
    x_max : int
        Upper end of the area measure.
    """

    measure: str
    runs: tuple[str, ...]
    x: np.ndarray
    values: np.ndarray
    x_max: int

    @property
    def area(self) -> np.ndarray:
        """Per run, the mean of MAP(X) over X = 1 … x_max (see module docstring)."""
        return self.values[:, : self.x_max].mean(axis=1)

    def area_frame(self) -> pd.DataFrame:
        return pd.DataFrame({"area": self.area}, index=pd.Index(self.runs, name="run"))

    def to_frame(self) -> pd.DataFrame:
        """X × runs."""
        return pd.DataFrame(self.values.T, index=pd.Index(self.x, name="X"),
                            columns=pd.Index(self.runs, name="run"))


def map_at_x(source: ScoreSource, measure: str = "map", runs: Sequence[str] | None = None,
             topics: Sequence[str] | None = None, x_max: int | None = None) -> MapAtX:
    """MAP(X) vs X for each run (robust overview Figure 4).

    Topics a run has no value for count as 0 (as trec_eval ``-c`` scores them);
    topics no run has a value for are dropped.
    """
    mat = per_topic_scores(source, measure, runs, topics)
    v = np.sort(mat.fillna(0.0).to_numpy(float).T, axis=1)        # runs × topics, worst first
    n = v.shape[1]
    x = np.arange(1, n + 1)
    values = np.cumsum(v, axis=1) / x
    xm = worst_quarter(n) if x_max is None else int(min(max(1, x_max), n))
    return MapAtX(measure, tuple(mat.columns), x, values, xm)
