"""The report's "Judgment sets" and "Systems" pages (``yardstick report --qrels-also``,
``--systems``).

* :func:`judgment_page` — a second (third …) qrels against the report's own: per pair of
  sets the documents judged by both and by one only, Cohen's kappa (binary at the
  relevance level, weighted linearly and quadratically over grades) and Voorhees's
  overlap of the relevant sets (Voorhees, "Variations in relevance judgments and the
  measurement of retrieval effectiveness", IP&M 36(5), 2000, §3: intersection over
  union, mean over topics); then what each set does to the ranking of the runs:
  Kendall's tau-b, tau_AP (Yilmaz, Aslam & Robertson, "A new rank correlation
  coefficient for information retrieval", SIGIR 2008), swapped run pairs and the
  largest rank change; with the ranking-against-overlap chart (Voorhees 2000's finding)
  and the run-score scatter of each set against the reference.
* :func:`systems_page` — systems of runs: per system the mean over its runs, the
  run-to-run spread and the topic-based 95% interval; per pair the linear mixed model
  (Ferro & Silvello, "A general linear mixed models approach to study system component
  effects", SIGIR 2016) beside the two shortcuts, each with the sentence saying what it
  assumes, corrected as the page says; with the systems chart.

The numbers are those of :mod:`yardstick.analysis.qrels_comparison` and
:mod:`yardstick.analysis.systems_comparison` (what ``ys.compare_qrels`` and
``ys.compare_systems`` return); the tables and figures go through the report's one
export and figure path.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

import pandas as pd

from yardstick.presentation.charts.judgment_specs import (
    qrels_scatter_figure,
    ranking_vs_overlap_figure,
    systems_figure,
)
from yardstick.presentation.reports import figures
from yardstick.presentation.reports.document import ReportFigure, ReportPage, ReportTable

__all__ = ["judgment_page", "systems_page", "AGREEMENT_COLUMNS", "CORRELATION_COLUMNS",
           "SYSTEM_COLUMNS", "PAIR_COLUMNS"]

#: columns of the agreement table (overall rows of ``agreement``)
AGREEMENT_COLUMNS = ("n_topics", "judged_both", "only_a", "only_b", "kappa", "kappa_linear",
                     "kappa_quadratic", "overlap")
#: columns of the rank-correlation table (``correlations``)
CORRELATION_COLUMNS = ("n_runs", "tau", "p_value", "tau_ap", "swaps", "n_pairs",
                       "max_rank_change", "max_rank_change_run")
#: columns of the per-system table (``systems``)
SYSTEM_COLUMNS = ("n_runs", "n_topics", "mean", "run_sd", "run_min", "run_max", "ci_low",
                  "ci_high")
#: columns of the system-pair table (``system_pairs``)
PAIR_COLUMNS = ("mean_difference", "p_value_mixed_corrected", "p_value_averaged_corrected",
                "p_value_pooled_corrected")


def _pair_index(frame: pd.DataFrame, a: str = "a", b: str = "b") -> pd.Index:
    return pd.Index([f"{x} vs {y}" for x, y in zip(frame[a], frame[b])], name="pair")


def judgment_page(cmp, files: Mapping[str, str] | None = None) -> ReportPage:
    """The "Judgment sets" page of a comparison of qrels
    (:class:`~yardstick.analysis.qrels_comparison.QrelsComparison`; ``files``: set name ->
    file name, for the subtitle)."""
    files = dict(files or {})
    agree = cmp.agreement[cmp.agreement["topic"] == "all"]
    agreement = agree[list(AGREEMENT_COLUMNS)].set_axis(_pair_index(agree), axis=0)
    corr = cmp.correlations()
    correlations = corr[list(CORRELATION_COLUMNS)].set_axis(_pair_index(corr), axis=0)
    scores = cmp.scores_table().pivot(index="run", columns="qrels", values=["score", "rank"])
    scores.columns = [f"{v} {q}" for v, q in scores.columns]
    named = ", ".join(f"{n} ({files[n]})" if not files.get(n, n).startswith(n) else n
                      for n in cmp.names)
    one = cmp.topics_one_set
    left_out = (f" {len(one)} topics judged in some sets only are left out of every mean: "
                + " ".join(map(str, one["topic"][:20])) + (" …" if len(one) > 20 else "")
                + ".") if len(one) else ""
    subtitle = (f"Qrels {named}; the first is the reference. {cmp.measure} of "
                f"{len(cmp.runs)} runs over the {len(cmp.topics)} topics every set judged, "
                f"relevance level {cmp.level}.{left_out}")
    tables = (
        ReportTable("judgment_agreement", "Agreement of the judgment sets", agreement,
                    caption="Documents judged by both sets and by one only; Cohen's kappa on "
                    f"the documents both judged (binary at level {cmp.level}, weighted "
                    "linear and quadratic over grades); overlap = |relevant in both| / "
                    "|relevant in either|, mean over topics (Voorhees 2000)."),
        ReportTable("judgment_rank_correlation", "System rankings under each set",
                    correlations,
                    caption=f"Runs ranked by mean {cmp.measure}: Kendall's tau-b (ties as "
                    "ties) and its p-value, tau_AP (the first set as truth), run pairs "
                    "ordered the other way (of n_pairs), the largest rank change and its "
                    "run."),
        ReportTable("judgment_scores", f"Mean {cmp.measure} and rank under each set", scores,
                    in_pdf=False))
    ref = cmp.names[0]
    figs = [ReportFigure("ranking_vs_overlap", "System-ranking agreement against judgment "
                         "overlap", partial(figures.draw_spec,
                                            spec=ranking_vs_overlap_figure(corr)), corr)]
    for other in cmp.names[1:]:
        spec = qrels_scatter_figure(cmp, ref, other)
        figs.append(ReportFigure(f"qrels_scatter_{other}" if len(cmp.names) > 2
                                 else "qrels_scatter", f"Run scores under {other} against "
                                 f"{ref}", partial(figures.draw_spec, spec=spec),
                                 cmp.rank_changes(ref, other)))
    return ReportPage("Judgment sets", subtitle, tables, tuple(figs))


def systems_page(sc, source: str = "") -> ReportPage:
    """The "Systems" page of a comparison of systems
    (:class:`~yardstick.analysis.systems_comparison.SystemsComparison`; ``source``: where
    the systems came from, for the subtitle)."""
    st = sc.systems_table()
    systems = st[list(SYSTEM_COLUMNS)].set_axis(pd.Index(st["system"], name="system"), axis=0)
    pt = sc.pairs_table()
    pairs = pt[[c for c in PAIR_COLUMNS if c in pt.columns]].set_axis(
        _pair_index(pt, "system_a", "system_b"), axis=0)
    assumes = " ".join(f"{name}: {text}." for name, text in
                       zip(sc.assumptions()["test"], sc.assumptions()["assumes"]))
    runs = sum(len(v) for v in sc.systems.values())
    unassigned = (f" {len(sc.unassigned)} runs in no system: "
                  + " ".join(sc.unassigned[:20]) + (" …" if len(sc.unassigned) > 20 else "")
                  + ".") if sc.unassigned else ""
    m = sc.mixed
    fit = (f" Mixed model ({m.method}, {m.n_obs} scores): variance topic {m.var_topic:.5f}, "
           f"run {m.var_run:.5f}, residual {m.var_residual:.5f}"
           + (f" ({'; '.join(m.notes)})" if m.notes else "") + ".") if m is not None else ""
    subtitle = (f"{len(sc.systems)} systems of {runs} runs"
                + (f" ({source})" if source else "") + f", {sc.measure} over every qrels "
                f"topic; p-values {sc.correction}-corrected over the "
                f"{len(pairs)} system pairs.{unassigned}{fit} {assumes}")
    tables = (
        ReportTable("systems", f"Systems by mean {sc.measure}", systems,
                    caption="mean over the system's runs; run_sd, run_min, run_max: the "
                    "spread between its runs; ci_low, ci_high: 95% interval over topics."),
        ReportTable("system_pairs", "System pairs (difference = b - a)", pairs,
                    caption=f"p-values {sc.correction}-corrected. {assumes}"),
        ReportTable("system_assumptions", "What each test assumes", sc.assumptions()
                    .set_index("test"), in_pdf=False))
    spec = systems_figure(sc)
    fig = ReportFigure("systems_chart", spec.title, partial(figures.draw_spec, spec=spec), st)
    return ReportPage("Systems", subtitle, tables, (fig,))
