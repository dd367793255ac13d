"""titlestat of what the runs retrieved and contributed (Buckley et al. 2007, §4).

Joins a :class:`~yardstick.analysis.pool.titlestat.TitleIndex` (documents and topic titles)
with a :class:`~yardstick.judging.judged_runs.JudgedRuns` (runs and qrels):

* :func:`titlestat_runs` — each run's retrieved set (to a depth, or all of it):
  "titlestat measured on the retrieved set of documents for sab05ror1 is 0.388
  while the average titlestat on the retrieved sets of all the other runs is 0.600";
* :func:`titlestat_uniques` — each group's (or run's) unique relevant
  documents against titlestat_rel of all relevant ones ("0.530 compared to the
  overall titlestat_rel of 0.719");
* :func:`titlestat_rank` — titlestat_rank at each rank over all runs, a document
  counted once per run that retrieved it at that rank (Figure 1), with the
  probability of relevance by rank and the pool depth (Figures 2 and 3).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from yardstick.analysis.pool.reconstruction import Depth, Pool, reconstruct_pool
from yardstick.analysis.pool.relevant_sources import relevance_by_rank
from yardstick.analysis.pool.titlestat import TitleIndex, titlestat_of_pairs
from yardstick.analysis.pool.uniques import unique_relevant_keys
from yardstick.judging.judged_runs import JudgedRuns


def _topic_map(tindex: TitleIndex, pindex: JudgedRuns) -> np.ndarray:
    """Pool-index topic -> title-index topic (-1 if the topics table lacks it)."""
    return pd.Index(tindex.topics).get_indexer(pindex.topics).astype(np.int64)


def _doc_rows(tindex: TitleIndex, pindex: JudgedRuns, doc_codes: np.ndarray) -> np.ndarray:
    """Collection row of each pool-index document code (-1 if the collection lacks it)."""
    uniq, inv = np.unique(doc_codes, return_inverse=True)
    return tindex.rows(pindex.docnos(uniq))[inv] if len(uniq) else np.zeros(0, np.int64)


def _pairs(tindex, pindex, sel) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    tmap = _topic_map(tindex, pindex)
    t = tmap[pindex.entry_topic(sel)]
    ok = t >= 0
    sel = sel[ok]
    return sel, t[ok], _doc_rows(tindex, pindex, pindex.e_doc[sel])


def titlestat_runs(tindex: TitleIndex, pindex: JudgedRuns, depth: int | None = None
                   ) -> pd.DataFrame:
    """titlestat of each run's retrieved set (top ``depth`` per topic, or everything).

    Returns
    -------
    DataFrame indexed by run: titlestat (mean over topics), topics (with a value),
    pooled, group.
    """
    everyone = np.ones(pindex.n_runs, bool)
    sel = np.arange(pindex.n_entries, dtype=np.int64) if depth is None else \
        pindex.prefix(pindex.run_limit(everyone, depth))
    sel, t, rows = _pairs(tindex, pindex, sel)
    f = titlestat_of_pairs(tindex, t, rows, group=pindex.entry_run(sel), n_groups=pindex.n_runs)
    per = f.groupby("group")["titlestat"]
    return pd.DataFrame({
        "titlestat": per.mean().reindex(range(pindex.n_runs)).to_numpy(),
        "topics": per.count().reindex(range(pindex.n_runs)).fillna(0).astype(int).to_numpy(),
        "pooled": pindex.pooled,
        "group": [pindex.group_names[g] for g in pindex.run_group],
    }, index=pd.Index(pindex.run_names, name="run"))


def titlestat_uniques(tindex: TitleIndex, pindex: JudgedRuns, depth: Depth,
                      unit: str = "group", pool: Pool | None = None) -> pd.DataFrame:
    """titlestat of each unit's unique relevant documents, and of all relevant ones.

    Returns
    -------
    DataFrame indexed by unit (plus a final row ``all relevant``, titlestat_rel
    over the same topics): titlestat, unique_relevant, topics.
    """
    pool = reconstruct_pool(pindex, depth) if pool is None else pool
    keys, owner = unique_relevant_keys(pindex, pool, unit)
    tmap = _topic_map(tindex, pindex)
    t = tmap[pindex.key_topic(keys)]
    ok = t >= 0
    keys, owner, t = keys[ok], owner[ok], t[ok]
    n_units = pindex.n_groups if unit == "group" else pindex.n_runs
    rows = _doc_rows(tindex, pindex, pindex.key_doc(keys))
    f = titlestat_of_pairs(tindex, t, rows, group=owner, n_groups=n_units)
    names = pindex.group_names if unit == "group" else pindex.run_names
    per = f[f["docs"] > 0].groupby("group")
    out = pd.DataFrame({
        "titlestat": per["titlestat"].mean(),
        "unique_relevant": per["docs"].sum(),
        "topics": per["titlestat"].count(),
    })
    out.index = pd.Index([names[i] for i in out.index], name=unit)
    rel_q = pindex.q_rel >= pindex.relevance_level
    qk = pindex.q_key[rel_q]
    qt = tmap[pindex.key_topic(qk)]
    okq = qt >= 0
    fr = titlestat_of_pairs(tindex, qt[okq], _doc_rows(tindex, pindex, pindex.key_doc(qk[okq])))
    fr = fr[fr["docs"] > 0]
    out.loc["all relevant"] = [fr["titlestat"].mean(), int(fr["docs"].sum()),
                               int(fr["titlestat"].count())]
    return out


@dataclass(frozen=True, eq=False)
class TitlestatRank:
    """titlestat_rank and P(relevant) by rank, with the pool depth (Figure 3).

    Attributes
    ----------
    frame : pandas.DataFrame
        Index rank (1..max_rank); columns titlestat (mean over topics), p_rel, topics.
    pool_depth : int
    """

    frame: pd.DataFrame
    pool_depth: int

    def to_frame(self) -> pd.DataFrame:
        return self.frame.reset_index()


def titlestat_rank(tindex: TitleIndex, pindex: JudgedRuns, max_rank: int = 100,
                   pool_depth: int = 0, runs: np.ndarray | None = None) -> TitlestatRank:
    """titlestat_rank_{T,k} for k = 1..max_rank over the runs (default all), averaged
    over topics; ``runs`` is a bool mask over the index's runs."""
    runs = np.ones(pindex.n_runs, bool) if runs is None else np.asarray(runs, bool)
    sel = pindex.prefix(pindex.run_limit(runs, max_rank))
    sel, t, rows = _pairs(tindex, pindex, sel)
    f = titlestat_of_pairs(tindex, t, rows, group=pindex.entry_rank(sel) - 1, n_groups=max_rank)
    per = f.groupby("group")["titlestat"]
    frame = pd.DataFrame({
        "titlestat": per.mean().reindex(range(max_rank)).to_numpy(),
        "p_rel": relevance_by_rank(pindex, max_rank, runs)["p_rel"].to_numpy(),
        "topics": per.count().reindex(range(max_rank)).fillna(0).astype(int).to_numpy(),
    }, index=pd.RangeIndex(1, max_rank + 1, name="rank"))
    return TitlestatRank(frame=frame, pool_depth=int(pool_depth))
