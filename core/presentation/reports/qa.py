"""Question-answering (main task) report (TREC appendix §3.1, Table 4 and Figure 3).

"The score for an individual question is the reciprocal of the rank at which
the first correct response was found, or zero if no correct response was found
in the first five responses"; the run's score is the mean over questions.
Strict evaluation counts only supported answers as correct, lenient also
unsupported ones: here two relevance thresholds on the qrels (default: strict
``rel >= 2``, lenient ``rel >= 1``).  The report gives both MRRs, the number
and % of questions not answered in the top five under each, and the histogram
of first-correct ranks for the run and a hypothetical median run.
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
from yardstick.presentation.charts.first_relevant import first_relevant_ranks, rank_histogram
from yardstick.presentation.reports import figures
from yardstick.presentation.reports.document import (
    ReportDocument,
    ReportFigure,
    ReportPage,
    ReportTable,
)

__all__ = ["QASummary", "qa_ranks", "qa_summary", "qa_report"]


@dataclass(frozen=True, eq=False)
class QASummary:
    run: str
    n_questions: int
    mrr_strict: float
    mrr_lenient: float
    not_found_strict: int
    not_found_lenient: int

    def to_frame(self) -> pd.DataFrame:
        def cell(n):
            pct = 100.0 * n / self.n_questions if self.n_questions else 0.0
            return f"{n} ({pct:.1f}%)"
        return pd.DataFrame({"value": [self.run, self.n_questions, round(self.mrr_strict, 4),
                                       round(self.mrr_lenient, 4), cell(self.not_found_strict),
                                       cell(self.not_found_lenient)]},
                            index=pd.Index(["Run ID", "Num questions",
                                            "Mean reciprocal rank (strict)",
                                            "Mean reciprocal rank (lenient)",
                                            "Num answers not found (strict)",
                                            "Num answers not found (lenient)"],
                                           name="Summary Statistics"), dtype=object)


def qa_ranks(runs: Sequence[Run], qrels: Qrels, strict_level: int = 2, lenient_level: int = 1,
             depth: int = 5, options: EvalOptions | None = None
             ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Topics × runs first-correct ranks within ``depth`` (strict, lenient; ``inf`` = none).

    The question set is every qrels topic with a lenient-correct answer; under
    the strict threshold a question without a supported answer is not found.
    """
    lenient = first_relevant_ranks(runs, qrels, options, lenient_level, depth)
    strict = first_relevant_ranks(runs, qrels, options, strict_level, depth)
    strict = strict.reindex(lenient.index, fill_value=np.inf)
    return strict, lenient


def _mrr(r: np.ndarray) -> float:
    return float(np.where(np.isfinite(r), 1.0 / r, 0.0).mean()) if len(r) else 0.0


def qa_summary(strict: pd.Series, lenient: pd.Series, run: str) -> QASummary:
    s, l_ = strict.to_numpy(float), lenient.to_numpy(float)
    return QASummary(run, len(l_), _mrr(s), _mrr(l_), int((~np.isfinite(s)).sum()),
                     int((~np.isfinite(l_)).sum()))


def qa_report(runs: Sequence[Run], qrels: Qrels, strict_level: int = 2, lenient_level: int = 1,
              depth: int = 5, options: EvalOptions | None = None,
              report_runs: Sequence[str] | None = None, graph: str = "strict",
              title: str = "Question answering report") -> ReportDocument:
    """One page per run; the median run is over all ``runs``."""
    strict, lenient = qa_ranks(runs, qrels, strict_level, lenient_level, depth, options)
    names = list(report_runs) if report_runs is not None else list(lenient.columns)
    pages = []
    for name in names:
        summ = qa_summary(strict[name], lenient[name], name)
        hist = rank_histogram(strict if graph == "strict" else lenient, name, depth)
        per_topic = pd.DataFrame({"rank_strict": strict[name].replace(np.inf, np.nan),
                                  "rank_lenient": lenient[name].replace(np.inf, np.nan)})
        pages.append(ReportPage(
            name, f"strict: rel >= {strict_level}; lenient: rel >= {lenient_level}; "
                  f"first {depth} responses",
            (ReportTable("summary", "Summary Statistics", summ.to_frame(), header=False),
             ReportTable("per_topic", "Rank of the first correct response", per_topic,
                         decimals=0, in_pdf=False)),
            (ReportFigure("rank_histogram",
                          f"Questions by rank of first correct response ({graph})",
                          partial(figures.draw_rank_histogram, hist=hist), hist.to_frame()),)))
    return ReportDocument(title, "qa", tuple(pages))
