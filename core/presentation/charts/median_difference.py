"""Per-topic difference from the median run (TREC appendix §2.2-II, Figure 2; §4 Figure 4).

The "Average Precision Histogram" shows, for each topic, a run's average
precision minus the median average precision of all runs on that topic; the
filtering and QA list reports draw the same picture for their own measures.
Here any per-topic measure can be used, topics can be ordered by topic id or
by the difference, and the per-topic best score (maximum over runs, also as a
difference from the median) is returned for markers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from yardstick.inputs.io.text_source import text_index
from yardstick.presentation.charts.scores import ScoreSource, per_topic_scores, sort_topics

__all__ = ["MedianDifference", "median_difference", "median_runs"]


@dataclass(frozen=True, eq=False)
class MedianDifference:
    """Bars of one run against the per-topic median of all runs.

    Attributes
    ----------
    run, measure : str
    topics : tuple of str
        In display order (``order``).
    value, median, maximum : numpy.ndarray
        The run's score, the median and the maximum over runs, per topic.
    n_runs : int
        Runs the median was taken over (0 for official medians read from a file).
    order : str
        ``"topic"`` or ``"difference"``.
    source : str
        What the median is: "all N runs", "the N pooled runs", "one run per team (N)",
        or "official medians (<file>)" — the chart says it.
    """

    run: str
    measure: str
    topics: tuple[str, ...]
    value: np.ndarray
    median: np.ndarray
    maximum: np.ndarray
    n_runs: int
    order: str = "topic"
    source: str = ""

    @property
    def difference(self) -> np.ndarray:
        """The bars: run score minus median."""
        return self.value - self.median

    @property
    def max_difference(self) -> np.ndarray:
        """The markers: best score minus median."""
        return self.maximum - self.median

    @property
    def counts(self) -> dict[str, int]:
        """Topics above, at and below the median."""
        d = self.difference
        return {"above": int((d > 0).sum()), "equal": int((d == 0).sum()),
                "below": int((d < 0).sum())}

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame({"value": self.value, "median": self.median,
                             "maximum": self.maximum, "difference": self.difference,
                             "max_difference": self.max_difference},
                            index=text_index(self.topics, name="topic"))


def median_difference(source: ScoreSource, run: str, measure: str = "map",
                      order: str = "topic", runs: Sequence[str] | None = None,
                      topics: Sequence[str] | None = None,
                      medians: pd.DataFrame | None = None, median_source: str = ""
                      ) -> MedianDifference:
    """Per-topic ``run − median over runs`` of any per-topic measure.

    Parameters
    ----------
    source : mapping run -> Evaluation, or topics × runs DataFrame
    run : str
        The run whose bars are drawn; it need not be among ``runs``.
    measure : str
    order : {"topic", "difference"}
        Topic id order, or difference descending (ties in topic order).
    runs : sequence of str, optional
        Runs the median and maximum are taken over (default: all in ``source``).
    topics : sequence of str, optional
        A topic group.
    medians : DataFrame, optional
        Official per-topic ``median`` and ``best`` by topic
        (:func:`yardstick.inputs.io.medians_file.read_medians`): used instead of the loaded
        runs, so a participant with one run can draw the chart.
    median_source : str, optional
        What the median is, for the chart (default: said from ``runs``/``medians``).

    Notes
    -----
    Topics the run was not evaluated on are left out; the median ignores runs
    without a value on a topic (use ``complete`` evaluations to count them as 0).
    """
    if order not in ("topic", "difference"):
        raise ValueError(f"order must be 'topic' or 'difference', not {order!r}")
    mat = per_topic_scores(source, measure, topics=topics)
    if run not in mat.columns:
        raise KeyError(f"run {run!r} has no {measure} values")
    value = mat[run]
    keep = value.notna()
    if medians is not None:
        official = medians.reindex([str(t) for t in value.index])
        keep &= official["median"].notna().to_numpy()
        value = value[keep]
        median = official["median"].loc[value.index]
        maximum = official["best"].loc[value.index]
        n_runs = 0
        median_source = median_source or "official medians"
    else:
        pool = mat if runs is None else mat[[r for r in runs]]
        value = value[keep]
        median = pool.loc[keep].median(axis=1, skipna=True)
        maximum = pool.loc[keep].max(axis=1, skipna=True)
        n_runs = int(pool.shape[1])
        median_source = median_source or f"all {n_runs} runs"
    ids = pd.Index(sort_topics(value.index), dtype=object)   # (topics may be non-UTF-8 bytes)
    own = pd.Index(value.index, dtype=object)
    frame = pd.DataFrame({"v": value.to_numpy(float),
                          "m": np.asarray(median.reindex(value.index), float),
                          "x": np.asarray(maximum.reindex(value.index), float)},
                         index=own).reindex(ids)
    if order == "difference":
        diff = (frame["v"] - frame["m"]).to_numpy()
        frame = frame.iloc[np.argsort(-diff, kind="stable")]
    return MedianDifference(run, measure, tuple(frame.index), frame["v"].to_numpy(float),
                            frame["m"].to_numpy(float), frame["x"].to_numpy(float),
                            n_runs, order, median_source)


def median_runs(names: Sequence[str], how: str, pooled: Sequence[bool] | None = None,
                groups: Sequence[str] | None = None) -> tuple[list[str], str]:
    """The runs a median is taken over, and how to say so: ``all``, ``pooled`` (the
    pooled runs) or ``per-team`` (each team's first run, its priority run in TREC)."""
    names = list(names)
    if how == "all":
        return names, f"all {len(names)} runs"
    if how == "pooled":
        chosen = [n for n, p in zip(names, pooled or [True] * len(names)) if p]
        return chosen, f"the {len(chosen)} pooled runs"
    if how == "per-team":
        seen, chosen = set(), []
        for n, g in zip(names, groups or names):
            if (g or n) not in seen:
                seen.add(g or n)
                chosen.append(n)
        return chosen, f"one run per team ({len(chosen)})"
    raise ValueError(f"median runs must be all, pooled or per-team, not {how!r}")
