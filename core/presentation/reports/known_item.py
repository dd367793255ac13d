"""Known-item (homepage finding) report (TREC appendix §5, Table 6 and Figure 6).

"Runs were evaluated using the rank at which the first correct homepage was
retrieved": mean reciprocal rank; number and % of topics found at rank 1, in
the top 10, and not found in the top 100; and the cumulative % of topics found
by rank for the run and a hypothetical median run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd

from yardstick.common.options import EvalOptions
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run
from yardstick.presentation.charts.first_relevant import (
    first_relevant_ranks,
    found_by_rank,
    median_ranks,
)
from yardstick.presentation.reports import figures
from yardstick.presentation.reports.document import (
    ReportDocument,
    ReportFigure,
    ReportPage,
    ReportTable,
)

__all__ = ["KnownItemSummary", "known_item_summary", "known_item_report"]


@dataclass(frozen=True, eq=False)
class KnownItemSummary:
    """Table 6 of the appendix for one run."""

    run: str
    n_topics: int
    mrr: float
    found_at_1: int
    found_in_10: int
    not_in_100: int

    def percent(self, n: int) -> float:
        return 100.0 * n / self.n_topics if self.n_topics else 0.0

    def to_frame(self) -> pd.DataFrame:
        def cell(n):
            return f"{n} ({self.percent(n):.1f}%)"
        return pd.DataFrame({"value": [self.run, self.n_topics, round(self.mrr, 4),
                                       cell(self.found_at_1), cell(self.found_in_10),
                                       cell(self.not_in_100)]},
                            index=pd.Index(["Run ID", "Num topics", "Mean reciprocal rank",
                                            "Num found at rank 1", "Num found in top 10",
                                            "Num not found in top 100"],
                                           name="Summary Statistics"), dtype=object)


def known_item_summary(ranks: pd.Series, run: str) -> KnownItemSummary:
    """From one run's first-relevant ranks (``inf`` = not found)."""
    r = ranks.to_numpy(float)
    rr = np.where(np.isfinite(r), 1.0 / r, 0.0)
    return KnownItemSummary(run, len(r), float(rr.mean()) if len(r) else 0.0,
                            int((r <= 1).sum()), int((r <= 10).sum()), int((r > 100).sum()))


def known_item_report(runs: Sequence[Run], qrels: Qrels, options: EvalOptions | None = None,
                      report_runs: Sequence[str] | None = None, max_rank: int = 100,
                      title: str = "Known-item (homepage finding) report") -> ReportDocument:
    """One page per run; the median run is over all ``runs``."""
    ranks = first_relevant_ranks(runs, qrels, options)
    names = list(report_runs) if report_runs is not None else list(ranks.columns)
    pages = []
    for name in names:
        summ = known_item_summary(ranks[name], name)
        fbr = found_by_rank(ranks, name, max_rank)
        per_topic = pd.DataFrame({"first_rank": ranks[name].replace(np.inf, np.nan),
                                  "median_run_rank": median_ranks(ranks).replace(np.inf, np.nan)})
        pages.append(ReportPage(
            name, f"{summ.n_topics} topics with a known item",
            (ReportTable("summary", "Summary Statistics", summ.to_frame(), header=False),
             ReportTable("per_topic", "Rank of the first correct document", per_topic,
                         decimals=1, in_pdf=False)),
            (ReportFigure("found_by_rank", "Cumulative % of topics found by rank",
                          partial(figures.draw_found_by_rank, fbr=fbr), fbr.to_frame()),)))
    return ReportDocument(title, "known-item", tuple(pages))
