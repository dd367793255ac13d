"""The ad hoc evaluation report of the TREC appendix ("Common Evaluation Measures" §2).

Per run: the "Summary Statistics" table (run, number of topics, documents
retrieved, relevant, relevant retrieved — Table 1), "Recall Level Precision
Averages" (interpolated precision at the 11 recall levels and non-interpolated
average precision — Table 2), "Document Level Averages" (precision at 5, 10,
15, 20, 30, 100, 200, 500 and 1000 documents and exact R-precision —
Table 3), the recall-precision graph (Figure 1) and the average-precision
histogram against the per-topic median of all runs (Figure 2).  With several
runs a first page superimposes their recall-precision curves (with more than
:data:`MAX_CURVES` runs, those of the best by MAP, as its title says).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial

import pandas as pd

from yardstick.evaluation.evaluation_service import Evaluation
from yardstick.presentation.charts.median_difference import median_difference
from yardstick.presentation.charts.precision_cutoffs import CUTOFFS
from yardstick.presentation.charts.recall_precision import (
    RECALL_LEVELS,
    iprec_column,
    recall_precision_curves,
)
from yardstick.presentation.charts.system_ranking import ranked_means
from yardstick.presentation.reports import figures
from yardstick.presentation.reports.document import (
    ReportDocument,
    ReportFigure,
    ReportPage,
    ReportTable,
)

__all__ = ["ADHOC_MEASURES", "AdhocTables", "adhoc_tables", "adhoc_report"]

#: what the evaluations must hold (trec_eval names)
ADHOC_MEASURES = ("num_ret", "num_rel", "num_rel_ret", "map", "Rprec", "iprec_at_recall",
                  "P." + ",".join(str(k) for k in CUTOFFS))


@dataclass(frozen=True, eq=False)
class AdhocTables:
    """The three tables of one run's report."""

    run: str
    summary: pd.DataFrame
    recall_levels: pd.DataFrame
    document_levels: pd.DataFrame

    def to_frame(self) -> pd.DataFrame:
        """All three tables stacked (``table``, ``row``, ``value``)."""
        parts = []
        for name, f in (("Summary Statistics", self.summary),
                        ("Recall Level Precision Averages", self.recall_levels),
                        ("Document Level Averages", self.document_levels)):
            parts.append(pd.DataFrame({"table": name, "row": f.index.astype(str),
                                       "value": f.iloc[:, 0].to_numpy(object)}))
        out = pd.concat(parts, ignore_index=True)
        out.insert(0, "run", self.run)
        return out


#: the "All runs" page draws at most this many recall-precision curves (the best by MAP)
MAX_CURVES = 10


def _titled(draw, title: str, ax) -> None:
    """``draw(ax)``, then ``title`` as the axes title."""
    draw(ax)
    ax.set_title(title)


def adhoc_tables(evaluation: Evaluation) -> AdhocTables:
    """Tables 1-3 of the appendix for one evaluated run."""
    s = evaluation.summary
    need = ["num_ret", "num_rel", "num_rel_ret", "map", "Rprec", iprec_column(0.0)]
    missing = [m for m in need if m not in s.index]
    if missing:
        raise KeyError(f"evaluation of {evaluation.run_name} lacks {missing}; evaluate with "
                       f"{ADHOC_MEASURES}")
    run_label = evaluation.run_name if evaluation.runid in ("", evaluation.run_name) \
        else f"{evaluation.run_name} ({evaluation.runid})"
    summary = pd.DataFrame({"value": [run_label, len(evaluation.per_topic), int(s["num_ret"]),
                                      int(s["num_rel"]), int(s["num_rel_ret"])]},
                           index=pd.Index(["Run", "Number of Topics", "Retrieved",
                                           "Relevant", "Rel_ret"], name="Summary Statistics"),
                           dtype=object)
    rl = pd.DataFrame({"Precision": [float(s[iprec_column(lv)]) for lv in RECALL_LEVELS]
                       + [float(s["map"])]},
                      index=pd.Index([f"{lv:.2f}" for lv in RECALL_LEVELS]
                                     + ["Non-interpolated AP"], name="Recall"))
    cuts = [k for k in CUTOFFS if f"P_{k}" in s.index]
    dl = pd.DataFrame({"Precision": [float(s[f"P_{k}"]) for k in cuts] + [float(s["Rprec"])]},
                      index=pd.Index([f"At {k} docs" for k in cuts] + ["R-Precision (exact)"],
                                     name="Document Level Averages"))
    return AdhocTables(evaluation.run_name, summary, rl, dl)


def _engine_means(ranking, evaluations):
    """``ranking`` with the engine's means (trec_eval's summation order), the ones the
    overview and comparison tables print, where numpy's sum differs in the last digit
    only: one mean per run in every file, so ``system_ranking.csv`` joins them."""
    import numpy as np

    engine = np.array([float(evaluations[r].summary[ranking.measure]) for r in ranking.runs])
    same = np.isclose(engine, ranking.mean, rtol=0, atol=1e-12)
    return replace(ranking, mean=np.where(same, engine, ranking.mean))


def adhoc_report(evaluations: Mapping[str, Evaluation], runs: Sequence[str] | None = None,
                 histogram_measure: str = "map", title: str = "Ad hoc evaluation report",
                 medians: pd.DataFrame | None = None, median_runs: Sequence[str] | None = None,
                 median_source: str = "") -> ReportDocument:
    """The appendix report: the summary of all ``evaluations`` and a page for each of
    ``runs`` (default all, ``[]`` none); medians are over all ``evaluations``,
    over ``median_runs``, or official ``medians`` (:mod:`yardstick.inputs.io.medians_file`)."""
    names = list(evaluations)           # the summary of all runs
    pages = []
    if len(names) > 1:
        shown = names
        rp_title = "Recall-Precision Curves"
        if len(names) > MAX_CURVES:      # 150 curves and a 150-line legend say nothing
            best = sorted(names, key=lambda n: -float(evaluations[n].summary["map"]))
            shown = best[:MAX_CURVES]
            rp_title = (f"Recall-Precision Curves of the {MAX_CURVES} runs with the highest "
                        f"MAP (of {len(names)})")
        curves = recall_precision_curves(evaluations, shown)
        ranking = _engine_means(ranked_means(evaluations, "map", runs=names), evaluations)
        overview = pd.DataFrame({
            "topics": [len(evaluations[n].per_topic) for n in names],
            "map": [float(evaluations[n].summary["map"]) for n in names],
            "Rprec": [float(evaluations[n].summary["Rprec"]) for n in names],
            "P_10": [float(evaluations[n].summary.get("P_10", float("nan"))) for n in names]},
            index=pd.Index(names, name="run"))
        pages.append(ReportPage(
            "All runs", f"{len(names)} runs",
            (ReportTable("overview", "Runs", overview),),
            (ReportFigure("recall_precision", rp_title,
                          partial(_titled, partial(figures.draw_recall_precision, curves=curves),
                                  rp_title),
                          curves.to_frame()),
             ReportFigure("system_ranking", "Runs by mean MAP with 95% confidence intervals",
                          partial(figures.draw_system_ranking, sr=ranking),
                          ranking.to_frame(), rows=len(ranking.runs)))))
    for name in (list(runs) if runs is not None else names):    # the pages chosen
        ev = evaluations[name]
        t = adhoc_tables(ev)
        curves = recall_precision_curves(evaluations, [name])
        md = median_difference(evaluations, name, histogram_measure, runs=median_runs,
                               medians=medians, median_source=median_source)
        pages.append(ReportPage(
            name, f"runid {ev.runid}" if ev.runid else "",
            (ReportTable("summary", "Summary Statistics", t.summary, header=False),
             ReportTable("recall_levels", "Recall Level Precision Averages", t.recall_levels,
                         header=False),
             ReportTable("document_levels", "Document Level Averages", t.document_levels,
                         header=False)),
            (ReportFigure("recall_precision", "Recall-Precision Curve",
                          partial(figures.draw_recall_precision, curves=curves),
                          curves.to_frame()),
             ReportFigure(f"{histogram_measure}_vs_median",
                          "Average Precision" if histogram_measure == "map"
                          else f"{histogram_measure} vs median",
                          partial(figures.draw_median_difference, md=md),
                          md.to_frame(), per_topic=True))))
    return ReportDocument(title, "adhoc", tuple(pages))
