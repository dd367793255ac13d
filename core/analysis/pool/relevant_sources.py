"""Where the relevant documents come from: ranks, probability of relevance, depth.

* Earliest rank at which any pooled run retrieved each known relevant document
  (Soboroff, "Measuring the measure", slides "Earliest ranks of relevant
  documents in pool", TREC slides): a histogram still high at the pool depth
  says a deeper pool would find more.
* Probability that the document at rank r is relevant (Buckley, Dimmick,
  Soboroff & Voorhees 2007, §4 and Figure 2, “Bias and the limits of pooling for large collections”,
  Information Retrieval 2007): "the number of
  runs that retrieve a relevant document at that rank divided by the total
  number of runs, and then averaged over topics" (underestimated, since only
  known relevant documents count).
* Relevant documents in the pool as a function of pool depth: a relevant
  document is in the depth-d pool exactly when its earliest pooled rank is
  ``<= d``, so the curve is the cumulative earliest-rank histogram.  What a
  deeper pool would add is estimated by fitting a power law
  ``F(d) = a * d**b`` to the tail of that curve (depths k/2..k for pool depth
  k; least squares on ``log F`` against ``log d``,
  :func:`scipy.stats.linregress`) and extrapolating from the observed F(k):
  ``F(k) + a * (x**b - k**b)``; known relevant documents first retrieved
  below the depth (judged thanks to other runs) give an observed lower bound.
  The model is Yardstick's choice, not the papers'.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from yardstick.analysis.pool.reconstruction import Depth
from yardstick.judging.judged_runs import ENTRY_CHUNK, JudgedRuns
from yardstick.judging.judged_subset import qrels_entries


@dataclass(frozen=True, eq=False)
class EarliestRanks:
    """Per known relevant document, the best rank any pooled run gave it.

    Attributes
    ----------
    frame : pandas.DataFrame
        topic, docno, rel, earliest_rank (NaN: no pooled run retrieved it),
        n_runs (pooled runs that retrieved it at any rank).
    depth : numpy.ndarray
        Pool depth per topic of the index.
    """

    frame: pd.DataFrame
    depth: np.ndarray

    def to_frame(self) -> pd.DataFrame:
        return self.frame

    def histogram(self, bin_width: int = 10, max_rank: int | None = None) -> pd.DataFrame:
        """Counts per rank bin: columns bin_start, bin_end, relevant (the slides' histogram)."""
        r = self.frame["earliest_rank"].dropna().to_numpy()
        top = int(max_rank or (r.max() if len(r) else bin_width))
        edges = np.arange(1, top + bin_width + 1, bin_width)
        counts, _ = np.histogram(r[r <= top], bins=edges)
        return pd.DataFrame({"bin_start": edges[:-1], "bin_end": edges[1:] - 1, "relevant": counts})

    @property
    def not_retrieved(self) -> int:
        """Known relevant documents no pooled run retrieved at any rank."""
        return int(self.frame["earliest_rank"].isna().sum())


def earliest_ranks(index: JudgedRuns, depth: Depth = 0, runs: np.ndarray | None = None
                   ) -> EarliestRanks:
    """Earliest rank of every relevant qrels document over the pooled runs (all ranks)."""
    runs = index.pooled if runs is None else np.asarray(runs, bool)
    lvl = index.relevance_level
    # per judgment of the qrels: the best rank of the entries that hold it and how many
    # there are (the entries in the qrels know their judgment's position), a slice at a time
    entries = qrels_entries(index)
    best_rank = np.full(len(index.q_key), np.iinfo(np.int32).max, np.int32)
    n = np.zeros(len(index.q_key), np.int64)
    T = max(index.n_topics, 1)
    for a in range(0, len(entries), ENTRY_CHUNK):
        z = min(a + ENTRY_CHUNK, len(entries))
        qpos = entries.qpos[a:z]
        keep = ((index.e_rel[entries.idx[a:z]] >= lvl) & runs[entries.segments(a, z) // T]
                & (qpos >= 0))
        qpos = qpos[keep]
        np.minimum.at(best_rank, qpos, entries.rank[a:z][keep] + 1)
        n += np.bincount(qpos, minlength=len(n))
    rel_q = index.q_rel >= lvl
    qk = index.q_key[rel_q]
    n = n[rel_q]
    hit = n > 0
    best = np.where(hit, best_rank[rel_q], np.nan)
    frame = pd.DataFrame({
        "topic": index.topic_names(index.key_topic(qk)),
        "docno": index.docnos(index.key_doc(qk)),
        "rel": index.q_rel[rel_q],
        "earliest_rank": best,
        "n_runs": n,
    })
    return EarliestRanks(frame=frame, depth=index.depth_array(depth))


def _relevant_entries(index: JudgedRuns, level: int, runs: np.ndarray):
    """The relevant entries (``rel >= level``) of the runs flagged in ``runs``, a slice of
    entries at a time: yields (entry index, segment) per slice."""
    for a in range(0, index.n_entries, ENTRY_CHUNK):
        sel = np.flatnonzero(index.e_rel[a:a + ENTRY_CHUNK] >= level) + a
        seg = index.entry_segment(sel)
        keep = runs[seg // max(index.n_topics, 1)]
        yield sel[keep], seg[keep]


def relevance_by_rank(index: JudgedRuns, max_rank: int = 1000, runs: np.ndarray | None = None
                      ) -> pd.DataFrame:
    """P(document at rank r is relevant) over runs and topics (Buckley et al. 2007, Fig. 2).

    For each topic and rank, the number of runs whose rank-r document is
    relevant divided by the number of runs (a run shorter than r counts as not
    relevant there), then averaged over the judged topics with at least one
    relevant document.  ``runs``: bool mask over the index's runs (default all).

    Returns
    -------
    DataFrame indexed by rank (1..max_rank) with column ``p_rel``.
    """
    runs = np.ones(index.n_runs, bool) if runs is None else np.asarray(runs, bool)
    topics = index.in_qrels & (index.num_rel() > 0)
    counts = np.zeros(index.n_topics * max_rank, np.int64)
    for sel, seg in _relevant_entries(index, index.relevance_level, runs):
        topic = seg % index.n_topics
        rank = sel - index.seg_start[seg] + 1
        keep = (rank <= max_rank) & topics[topic]
        counts += np.bincount(topic[keep] * max_rank + (rank[keep] - 1),
                              minlength=index.n_topics * max_rank)
    counts = counts.reshape(index.n_topics, max_rank)
    n_t = int(topics.sum())
    n_r = int(runs.sum())
    p = counts[topics].sum(axis=0) / (n_r * n_t) if n_t and n_r else np.full(max_rank, np.nan)
    return pd.DataFrame({"p_rel": p}, index=pd.RangeIndex(1, max_rank + 1, name="rank"))


@dataclass(frozen=True, eq=False)
class DepthCurve:
    """Known relevant documents in the pool as a function of depth, with an extrapolation.

    Attributes
    ----------
    curve : pandas.DataFrame
        Index depth (1..max_depth); columns relevant (summed over topics),
        new (added at that depth), fitted (the power law).
    pool_depth : int
        The largest pool depth of the topics (k).
    fit_from : int
        The fit used depths fit_from..k.
    a, b : float
        ``F(d) = a * d**b`` fitted on depths fit_from..k.
    r_squared : float
    extrapolated : pandas.DataFrame
        Index deeper depth; columns estimate (F(k) + a * (d**b - k**b)), added
        (estimate - F(k)), observed_added (known relevant first retrieved between pool depth and d).
    total_relevant : int
        All known relevant documents of the topics.
    """

    curve: pd.DataFrame
    pool_depth: int
    fit_from: int
    a: float
    b: float
    r_squared: float
    extrapolated: pd.DataFrame
    total_relevant: int

    def to_frame(self) -> pd.DataFrame:
        return self.curve


def relevant_by_depth(earliest: EarliestRanks, max_depth: int | None = None,
                      deeper: tuple[int, ...] | None = None, fit_from: int | None = None
                      ) -> DepthCurve:
    """Relevant documents found by pools of depth 1..max_depth, and a deeper-pool estimate.

    Parameters
    ----------
    earliest : EarliestRanks
    max_depth : int, optional
        Curve length (default: twice the pool depth).
    deeper : depths to extrapolate to (default 1.5x, 2x, 4x the pool depth).
    fit_from : int, optional
        First depth of the fit (default half the pool depth).
    """
    k = int(earliest.depth.max()) if len(earliest.depth) else 0
    if k <= 0:
        raise ValueError("relevant_by_depth needs a pool depth > 0")
    max_depth = int(max_depth or 2 * k)
    r = earliest.frame["earliest_rank"].dropna().to_numpy().astype(np.int64)
    new = np.bincount(r[r <= max_depth], minlength=max_depth + 1)[1:]
    found = np.cumsum(new)
    d = np.arange(1, max_depth + 1)
    fit_from = max(1, int(fit_from or (k + 1) // 2))
    ok = (d >= fit_from) & (d <= k) & (found > 0)
    if ok.sum() >= 2:
        fit = stats.linregress(np.log(d[ok]), np.log(found[ok]))
        a, b, r2 = float(np.exp(fit.intercept)), float(fit.slope), float(fit.rvalue ** 2)
    else:
        a, b, r2 = float("nan"), float("nan"), float("nan")
    curve = pd.DataFrame({"relevant": found, "new": new, "fitted": a * d.astype(float) ** b},
                         index=pd.Index(d, name="depth"))
    deeper = deeper or (int(1.5 * k), 2 * k, 4 * k)
    all_r = np.sort(r)
    at_k = np.searchsorted(all_r, k, side="right")
    added = [a * (float(x) ** b - float(k) ** b) for x in deeper]
    ext = pd.DataFrame({
        "estimate": [at_k + x for x in added],
        "added": added,
        "observed_added": [int(np.searchsorted(all_r, x, side="right") - at_k) for x in deeper],
    }, index=pd.Index(list(deeper), name="depth"))
    return DepthCurve(curve=curve, pool_depth=k, fit_from=fit_from, a=a, b=b, r_squared=r2,
                      extrapolated=ext,
                      total_relevant=len(earliest.frame))
