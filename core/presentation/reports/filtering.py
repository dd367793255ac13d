"""Filtering (set retrieval) report (TREC appendix §4, Table 5 and Figure 4).

A filtering run is an unordered set: every document the run lists for a topic
counts as retrieved.  With R⁺ relevant retrieved, R⁻ relevant not retrieved and
N⁺ non-relevant retrieved (unjudged documents count as non-relevant):

* set precision R⁺/(R⁺+N⁺) (0 for an empty set) and recall R⁺/(R⁺+R⁻);
* F-beta with beta = 0.5, T10F = 1.25R⁺ / (0.25R⁻ + N⁺ + 1.25R⁺), 0 when R⁺ = N⁺ = 0;
* utility T10U = 2R⁺ − N⁺, and for averaging the scaled utility
  T10SU = (max(T10U, U_min) − U_min) / (U_max − U_min) with U_max = 2·(R⁺+R⁻)
  ("twice the number of relevant documents") and U_min = −100.

Table 5 gives the macro-averaged recall and precision, mean T10SU, mean F-beta
and the number of zero-return topics; Figure 4 the per-topic difference from
the median run of the measure the run was optimised for.
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
from yardstick.presentation.charts.median_difference import median_difference
from yardstick.presentation.charts.ranked_relevance import ranked_relevance, relevant_counts
from yardstick.presentation.reports import figures
from yardstick.presentation.reports.document import (
    ReportDocument,
    ReportFigure,
    ReportPage,
    ReportTable,
)

__all__ = ["set_scores", "FilteringSummary", "filtering_summary", "filtering_report",
           "t10f", "t10u", "t10su"]


def t10f(r_plus, r_minus, n_plus, beta: float = 0.5) -> np.ndarray:
    """F-beta as defined for TREC 2001 filtering (appendix §4); beta = 0.5 gives T10F."""
    r_plus, r_minus, n_plus = (np.asarray(a, dtype=float) for a in (r_plus, r_minus, n_plus))
    b2 = beta * beta
    num = (1 + b2) * r_plus
    den = b2 * r_minus + n_plus + num
    return np.where((r_plus == 0) & (n_plus == 0), 0.0, num / np.where(den > 0, den, 1.0))


def t10u(r_plus, n_plus) -> np.ndarray:
    """Linear utility T10U = 2R⁺ − N⁺."""
    return 2.0 * np.asarray(r_plus, float) - np.asarray(n_plus, float)


def t10su(r_plus, n_plus, num_rel, min_utility: float = -100.0) -> np.ndarray:
    """T10U scaled between −100 and twice the topic's relevant documents (appendix §4)."""
    u = t10u(r_plus, n_plus)
    umax = 2.0 * np.asarray(num_rel, float)
    return (np.maximum(u, min_utility) - min_utility) / (umax - min_utility)


def set_scores(run: Run, qrels: Qrels, options: EvalOptions | None = None,
               topics: Sequence[str] | None = None) -> pd.DataFrame:
    """Per topic: ``retrieved``, ``R+``, ``N+``, ``R-``, ``precision``, ``recall``, ``T10F``,
    ``T10U``, ``T10SU``.

    Topics are every qrels topic with a relevant document (or ``topics``); a
    topic the run has no documents for is a zero return.
    """
    options = options or EvalOptions()
    counts = relevant_counts(qrels, options.relevance_level)
    if topics is None:
        topics = counts.index[counts.to_numpy() > 0]
    topics = pd.Index([str(t) for t in topics], name="topic")
    rr = ranked_relevance(run, qrels, options)
    idx = pd.Index(rr.topics.astype(str))
    ret = pd.Series(rr.num_ret, index=idx).reindex(topics, fill_value=0).to_numpy()
    rp = pd.Series(rr.relevant_retrieved(), index=idx).reindex(topics, fill_value=0).to_numpy()
    nrel = counts.reindex(topics, fill_value=0).to_numpy()
    npl = ret - rp
    rm = nrel - rp
    with np.errstate(invalid="ignore", divide="ignore"):
        prec = np.where(ret > 0, rp / np.maximum(ret, 1), 0.0)
        rec = np.where(nrel > 0, rp / np.maximum(nrel, 1), 0.0)
    return pd.DataFrame({"retrieved": ret, "R+": rp, "N+": npl, "R-": rm, "precision": prec,
                         "recall": rec, "T10F": t10f(rp, rm, npl), "T10U": t10u(rp, npl),
                         "T10SU": t10su(rp, npl, nrel)}, index=topics)


@dataclass(frozen=True, eq=False)
class FilteringSummary:
    """Table 5 of the appendix for one run."""

    run: str
    n_topics: int
    retrieved: int
    relevant_retrieved: int
    recall: float
    precision: float
    t10su: float
    t10f: float
    zero_returns: int

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame({"value": [self.run, self.n_topics, self.retrieved,
                                       self.relevant_retrieved, round(self.recall, 4),
                                       round(self.precision, 4), round(self.t10su, 4),
                                       round(self.t10f, 4), self.zero_returns]},
                            index=pd.Index(["Run ID", "Number of Topics", "Total retrieved",
                                            "Relevant retrieved", "Macro average recall",
                                            "Macro average precision", "Mean T10SU",
                                            "Mean F-Beta", "Zero returns"],
                                           name="Summary Statistics"), dtype=object)


def filtering_summary(scores: pd.DataFrame, run: str) -> FilteringSummary:
    return FilteringSummary(run, len(scores), int(scores["retrieved"].sum()),
                            int(scores["R+"].sum()), float(scores["recall"].mean()),
                            float(scores["precision"].mean()), float(scores["T10SU"].mean()),
                            float(scores["T10F"].mean()), int((scores["retrieved"] == 0).sum()))


def filtering_report(runs: Sequence[Run], qrels: Qrels, options: EvalOptions | None = None,
                     report_runs: Sequence[str] | None = None, optimized_for: str = "T10SU",
                     title: str = "Filtering report") -> ReportDocument:
    """One page per run; medians are over all ``runs``."""
    if optimized_for not in ("T10SU", "T10F"):
        raise ValueError("optimized_for must be 'T10SU' or 'T10F'")
    per_run = {r.name: set_scores(r, qrels, options) for r in runs}
    matrix = pd.DataFrame({n: s[optimized_for] for n, s in per_run.items()})
    names = list(report_runs) if report_runs is not None else list(per_run)
    pages = []
    for name in names:
        summ = filtering_summary(per_run[name], name)
        md = median_difference(matrix, name, optimized_for)
        pages.append(ReportPage(
            name, f"set retrieval; median graph of {optimized_for}",
            (ReportTable("summary", "Summary Statistics", summ.to_frame(), header=False),
             ReportTable("per_topic", "Per-topic set measures", per_run[name], in_pdf=False)),
            (ReportFigure(f"{optimized_for}_vs_median", f"{optimized_for} vs median",
                          partial(figures.draw_median_difference, md=md, show_max=False),
                          md.to_frame()),)))
    return ReportDocument(title, "filtering", tuple(pages))
