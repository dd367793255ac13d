"""Charts of the rank of the first relevant document (known-item and QA reports).

TREC appendix §5 (homepage finding), Figure 6: "the cumulative percentage of
topics for which a correct homepage was retrieved by a given rank … for the
run, and … a hypothetical median run that retrieves the homepage at the median
rank for each topic"; §3.1 (QA main task), Figure 3: "a histogram of the number
of questions for which the correct response was returned at a given rank",
for the run and the same hypothetical median run.

Input is a topics × runs matrix of first-relevant ranks (``inf`` = not found),
as :func:`first_relevant_ranks` computes from runs and qrels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from yardstick.common.options import EvalOptions
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run
from yardstick.presentation.charts.ranked_relevance import ranked_relevance, relevant_counts

__all__ = ["first_relevant_ranks", "median_ranks", "FoundByRank", "found_by_rank",
           "RankHistogram", "rank_histogram"]


def first_relevant_ranks(runs: Sequence[Run], qrels: Qrels, options: EvalOptions | None = None,
                         level: int | None = None, depth: int | None = None) -> pd.DataFrame:
    """Topics × runs: rank of the first document with ``rel >= level`` (``inf`` if none).

    Topics are every qrels topic with at least one such document, whether or
    not the run retrieved anything for it (a known item the run misses counts
    as not found).  ``depth`` only looks at the first ``depth`` documents.
    """
    options = options or EvalOptions()
    level = options.relevance_level if level is None else level
    counts = relevant_counts(qrels, level)
    topics = counts.index[counts.to_numpy() > 0]
    cols = {}
    for run in runs:
        rr = ranked_relevance(run, qrels, options)
        s = pd.Series(rr.first_relevant_rank(level, depth), index=rr.topics.astype(str))
        cols[run.name] = s.reindex(topics, fill_value=np.inf)
    out = pd.DataFrame(cols, index=topics)
    out.index.name = "topic"
    out.columns.name = "run"
    return out


def median_ranks(ranks: pd.DataFrame) -> pd.Series:
    """The hypothetical median run: per topic the median rank over runs (``inf`` counts as
    worse than any rank; with an even number of runs the two middle ranks are averaged)."""
    return pd.Series(np.median(ranks.to_numpy(float), axis=1), index=ranks.index, name="median")


@dataclass(frozen=True, eq=False)
class FoundByRank:
    """Cumulative % of topics found at or before each rank (appendix Figure 6)."""

    run: str
    ranks: np.ndarray
    run_percent: np.ndarray
    median_percent: np.ndarray
    n_topics: int

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame({self.run: self.run_percent, "median run": self.median_percent},
                            index=pd.Index(self.ranks, name="rank"))


def found_by_rank(ranks: pd.DataFrame, run: str, max_rank: int = 100) -> FoundByRank:
    """Cumulative % found by rank 1 … ``max_rank`` for ``run`` and the median run."""
    r = np.arange(1, max_rank + 1)
    n = len(ranks)

    def cum(v: np.ndarray) -> np.ndarray:
        return 100.0 * (v[None, :] <= r[:, None]).sum(axis=1) / max(n, 1)

    return FoundByRank(run, r, cum(ranks[run].to_numpy(float)),
                       cum(median_ranks(ranks).to_numpy(float)), n)


@dataclass(frozen=True, eq=False)
class RankHistogram:
    """Topics whose first relevant document is at rank 1 … depth, and not found (Figure 3)."""

    run: str
    ranks: np.ndarray
    run_counts: np.ndarray        # len(ranks) + 1: the last entry counts "not found"
    median_counts: np.ndarray

    def to_frame(self) -> pd.DataFrame:
        idx = pd.Index([str(x) for x in self.ranks] + ["not found"], name="rank")
        return pd.DataFrame({self.run: self.run_counts, "median run": self.median_counts},
                            index=idx)


def rank_histogram(ranks: pd.DataFrame, run: str, depth: int = 5) -> RankHistogram:
    """Counts of first-correct ranks 1 … depth (later ranks count as not found)."""
    r = np.arange(1, depth + 1)

    def counts(v: np.ndarray) -> np.ndarray:
        # the median of two ranks can fall between integers: round it down, as the
        # hypothetical median run answers at that rank or better
        v = np.floor(v)
        found = (v[None, :] == r[:, None]).sum(axis=1)
        return np.concatenate([found, [len(v) - found.sum()]]).astype(np.int64)

    return RankHistogram(run, r, counts(ranks[run].to_numpy(float)),
                         counts(median_ranks(ranks).to_numpy(float)))
