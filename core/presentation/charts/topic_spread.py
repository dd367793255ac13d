"""Per-topic spread of scores over runs: median, maximum and box plots; difficult topics.

Robust 2003 overview (Voorhees), §1 and Figure 2: NIST "created a box plot of
the average precision scores for all runs … [and] selected topics with low
median average precision scores but with at least one … high outlier"; Figure 2
plots per-topic median (filled) and maximum (hollow) scores with topics "sorted
by decreasing median".  :func:`topic_spread` computes those numbers for any
per-topic measure, and :func:`difficult_topics` applies NIST's selection.

Box-plot statistics follow the usual Tukey convention (and matplotlib's):
quartiles by linear interpolation, whiskers at the most extreme scores within
``whisker`` × IQR of the box, scores beyond them are outliers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from yardstick.inputs.io.text_source import text_index
from yardstick.presentation.charts.scores import ScoreSource, per_topic_scores, sort_topics

__all__ = ["TopicSpread", "topic_spread", "difficult_topics"]


@dataclass(frozen=True, eq=False)
class TopicSpread:
    """Box-plot statistics of each topic's scores over runs.

    Attributes
    ----------
    measure : str
    topics : tuple of str
        Ordered by median (descending unless asked otherwise), ties by topic id.
    scores : pandas.DataFrame
        Topics × runs, rows in ``topics`` order.
    minimum, q1, median, q3, maximum, whisker_low, whisker_high : numpy.ndarray
    whisker : float
    """

    measure: str
    topics: tuple[str, ...]
    scores: pd.DataFrame
    minimum: np.ndarray
    q1: np.ndarray
    median: np.ndarray
    q3: np.ndarray
    maximum: np.ndarray
    whisker_low: np.ndarray
    whisker_high: np.ndarray
    whisker: float = 1.5

    @property
    def high_outliers(self) -> pd.DataFrame:
        """Boolean topics × runs: scores above the upper whisker."""
        return self.scores.gt(self.whisker_high, axis=0)

    @property
    def low_outliers(self) -> pd.DataFrame:
        return self.scores.lt(self.whisker_low, axis=0)

    @property
    def n_high_outliers(self) -> np.ndarray:
        return self.high_outliers.sum(axis=1).to_numpy()

    def outlier_points(self) -> pd.DataFrame:
        """Long form of every outlier: ``topic``, ``run``, ``value``, ``side``."""
        long = self.scores.stack().rename("value").reset_index()
        hi = self.high_outliers.stack().to_numpy()
        lo = self.low_outliers.stack().to_numpy()
        long["side"] = np.where(hi, "high", np.where(lo, "low", ""))
        return long[long["side"] != ""].reset_index(drop=True)

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame({"n_runs": self.scores.notna().sum(axis=1).to_numpy(),
                             "minimum": self.minimum, "whisker_low": self.whisker_low,
                             "q1": self.q1, "median": self.median, "q3": self.q3,
                             "whisker_high": self.whisker_high, "maximum": self.maximum,
                             "high_outliers": self.n_high_outliers},
                            index=text_index(self.topics, name="topic"))


def topic_spread(source: ScoreSource, measure: str = "map", runs: Sequence[str] | None = None,
                 topics: Sequence[str] | None = None, descending: bool = True,
                 whisker: float = 1.5) -> TopicSpread:
    """Per-topic median, maximum and box-plot statistics over runs (robust overview Fig. 2)."""
    mat = per_topic_scores(source, measure, runs, topics)
    mat = mat.loc[sort_topics(mat.index)]
    v = mat.to_numpy(float)
    q1, med, q3 = np.nanpercentile(v, [25, 50, 75], axis=1)
    iqr = q3 - q1
    lo_lim, hi_lim = q1 - whisker * iqr, q3 + whisker * iqr
    inside_hi = np.where(v <= hi_lim[:, None], v, -np.inf)
    inside_lo = np.where(v >= lo_lim[:, None], v, np.inf)
    wh_hi = np.max(np.where(np.isnan(inside_hi), -np.inf, inside_hi), axis=1)
    wh_lo = np.min(np.where(np.isnan(inside_lo), np.inf, inside_lo), axis=1)
    order = np.argsort(-med if descending else med, kind="stable")
    pick = mat.iloc[order]
    return TopicSpread(measure, tuple(pick.index), pick, np.nanmin(v, axis=1)[order], q1[order],
                       med[order], q3[order], np.nanmax(v, axis=1)[order], wh_lo[order],
                       wh_hi[order], whisker)


def difficult_topics(spread: TopicSpread, median_at_most: float | None = None,
                     min_high_outliers: int = 1, outlier_at_least: float = 0.0) -> list[str]:
    """Topics with a low median and at least one high outlier (robust overview §1).

    Parameters
    ----------
    spread : TopicSpread
    median_at_most : float, optional
        "Low median": at most this value; by default the lower quartile of the
        topic medians (the worst quarter of topics).
    min_high_outliers : int
        At least this many runs above the upper whisker ("at least one").
    outlier_at_least : float
        …whose score is also at least this (guards against topics where the
        box has collapsed to 0 and any non-zero score is an outlier).

    Returns
    -------
    list of str
        The selected topics, lowest median first.
    """
    med = spread.median
    limit = float(np.nanpercentile(med, 25)) if median_at_most is None else median_at_most
    strong = spread.high_outliers & spread.scores.ge(outlier_at_least)
    ok = (med <= limit) & (strong.sum(axis=1).to_numpy() >= min_high_outliers)
    idx = np.flatnonzero(ok)
    idx = idx[np.argsort(med[idx], kind="stable")]
    return [spread.topics[i] for i in idx]
