"""One row per test collection, as in Buckley et al. 2007, Table 1 (“Bias and the limits of pooling
for large collections”, Information Retrieval 2007).

"TREC test collection characteristics including number of documents in the
collection, type of documents, average pool size, average percentage of the
pools that were judged relevant, average percentage change in the LOU test,
and titlestat_rel values."  Their pool sizes are numbers judged per topic;
with a rebuilt pool both are given (``mean_pool_size`` from the pooled runs,
``mean_judged`` from the qrels), and the percentage judged relevant is
averaged over topics for each.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd

from yardstick.analysis.pool.reconstruction import PoolStatistics
from yardstick.analysis.pool.titlestat import TitlestatResult
from yardstick.analysis.pool.uniques import UniquesResult


@dataclass(frozen=True)
class CollectionCharacteristics:
    """Table 1 of Buckley et al. 2007 for one collection (NaN where not measured)."""

    collection: str
    documents: float = np.nan
    document_type: str = ""
    mean_pool_size: float = np.nan
    pct_pool_relevant: float = np.nan
    mean_judged: float = np.nan
    pct_judged_relevant: float = np.nan
    lou_average_percent: float = np.nan
    lou_max_percent: float = np.nan
    titlestat_rel: float = np.nan

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame([asdict(self)]).set_index("collection")


def collection_characteristics(name: str, stats: PoolStatistics | None = None,
                               uniques: UniquesResult | None = None,
                               titlestat_rel: TitlestatResult | float | None = None,
                               documents: int | None = None, document_type: str = ""
                               ) -> CollectionCharacteristics:
    """Assemble the row from results already computed (any may be missing).

    Parameters
    ----------
    name : collection name
    stats : :func:`yardstick.analysis.pool.reconstruction.pool_statistics` result
    uniques : leave-out-uniques result (its mean and max percentage)
    titlestat_rel : result of :func:`yardstick.analysis.pool.titlestat.titlestat_rel` or its mean
    documents : collection size (e.g. ``len(documents)``)
    """
    row: dict = {"collection": name, "document_type": document_type}
    if documents is not None:
        row["documents"] = float(documents)
    if stats is not None:
        pt = stats.per_topic
        pooled = pt[pt["depth"] > 0]
        judged = pt[pt["qrels_judged"] > 0]
        row["mean_pool_size"] = float(pooled["pool_size"].mean())
        row["pct_pool_relevant"] = float(100 * pooled["share_relevant"].mean())
        row["mean_judged"] = float(judged["qrels_judged"].mean())
        row["pct_judged_relevant"] = float(
            100 * (judged["qrels_relevant"] / judged["qrels_judged"]).mean())
    if uniques is not None:
        row["lou_average_percent"] = float(uniques.summary["mean_percent"])
        row["lou_max_percent"] = float(uniques.summary["max_percent"])
    if titlestat_rel is not None:
        ts = titlestat_rel.mean if isinstance(titlestat_rel, TitlestatResult) else titlestat_rel
        row["titlestat_rel"] = float(ts)
    return CollectionCharacteristics(**row)


def characteristics_table(rows: Sequence[CollectionCharacteristics]) -> pd.DataFrame:
    """Rows stacked into Table 1."""
    if not rows:
        return CollectionCharacteristics("").to_frame().iloc[:0]
    return pd.concat([r.to_frame() for r in rows])
