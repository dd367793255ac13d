"""The Charts panel's chart kinds: their names, which of them follow the run filter,
how each one's data is computed from a request captured on the GUI thread (plain data
in, plain data out: it runs in a worker) and how its widget draws it.

The data come from :mod:`yardstick.presentation.charts`; the figures from
:mod:`yardstick.presentation.charts.specs` (drawn by the widgets of :mod:`yardstick.gui.charts`).
"""

from __future__ import annotations

from yardstick.presentation.charts.map_at_x import map_at_x
from yardstick.presentation.charts.measure_scatter import measure_scatter
from yardstick.presentation.charts.median_difference import median_difference, median_runs
from yardstick.presentation.charts.precision_cutoffs import precision_at_cutoffs
from yardstick.presentation.charts.rank_correlation import rank_correlation
from yardstick.presentation.charts.recall_precision import (
    recall_precision_curves,
    topic_recall_precision_of_run,
)
from yardstick.presentation.charts.run_filter import AUTO_LIMIT
from yardstick.presentation.charts.specs import (
    map_at_x_figure,
    measure_scatter_figure,
    median_difference_figure,
    precision_cutoffs_figure,
    rank_correlation_figure,
    recall_precision_figure,
    system_ranking_figure,
    topic_recall_precision_figure,
    topic_spread_figure,
)
from yardstick.presentation.charts.system_ranking import ranked_means
from yardstick.presentation.charts.topic_spread import topic_spread

RP, RP_TOPIC, MEDIAN, SPREAD, BOXES, MAPX, CUTOFFS, SCATTER, CORR, SYSTEM = (
    "Recall-precision", "Recall-precision (one topic)", "Per-topic vs median",
    "Per-topic median and maximum", "Box plots by topic", "MAP(X) vs X",
    "Precision at cutoffs", "Measure scatter", "Rank correlation of measures",
    "System ranking (95% CI)")
CHARTS = (RP, RP_TOPIC, MEDIAN, SPREAD, BOXES, MAPX, CUTOFFS, SCATTER, CORR, SYSTEM)
ALL_TOPICS = "All topics"
ALL_RUNS, PER_TEAM, OFFICIAL = "all shown runs", "one run per team", "official medians…"
MEDIAN_SOURCES = (ALL_RUNS, PER_TEAM, OFFICIAL)
#: charts with one curve or point per run: these draw the runs the run filter keeps
FILTERED = (RP, MAPX, CUTOFFS, SCATTER, SYSTEM)
#: run filter choices (text shown -> RunFilter mode)
FILTER_MODES = {f"auto (top N above {AUTO_LIMIT} runs)": "auto", "top N by measure": "top",
                "one team": "team", "search": "search", "all ticked runs": "all"}
#: measures the heat map correlates by default (when evaluated)
CORR_MEASURES = ("map", "gm_map", "Rprec", "bpref", "recip_rank", "P_10", "P_30",
                 "ndcg_cut_10", "iprec_at_recall_0.00")




def _all(req: dict) -> dict:
    """Every ticked run's evaluation (charts that summarise over runs)."""
    return req.get("all_evaluations") or req["evaluations"]


def _median_data(req: dict):
    evs, measure, topics = _all(req), req["measure"], req["topics"]
    how = req.get("median_source", ALL_RUNS)
    if how == OFFICIAL and req.get("official_medians") is not None:
        frame, name = req["official_medians"]
        return median_difference(evs, req["run"], measure, req["order"], topics=topics,
                                 medians=frame, median_source=f"official medians ({name})")
    if how == PER_TEAM:
        names = list(evs)
        chosen, said = median_runs(names, "per-team",
                                   groups=[req["teams"].get(n, n) for n in names])
        return median_difference(evs, req["run"], measure, req["order"], runs=chosen,
                                 topics=topics, median_source=said)
    return median_difference(evs, req["run"], measure, req["order"], topics=topics)


def _correlation_data(req: dict):
    evs = _all(req)
    pt = next(iter(evs.values())).per_topic
    return rank_correlation(evs, [m for m in CORR_MEASURES if m in pt.columns],
                            topics=req["topics"])


#: chart name -> the function computing its data from a request (chart_request)
CHART_DATA = {
    RP: lambda r: recall_precision_curves(r["evaluations"], topics=r["topics"]),
    RP_TOPIC: lambda r: topic_recall_precision_of_run(r["run_object"], r["qrels"], r["topic"],
                                                      r["options"]),
    MEDIAN: _median_data,
    SPREAD: lambda r: topic_spread(_all(r), r["measure"], topics=r["topics"]),
    BOXES: lambda r: topic_spread(_all(r), r["measure"], topics=r["topics"]),
    MAPX: lambda r: map_at_x(r["evaluations"], r["measure"], topics=r["topics"]),
    CUTOFFS: lambda r: precision_at_cutoffs(r["evaluations"], topics=r["topics"]),
    SCATTER: lambda r: measure_scatter(r["evaluations"], r["measure"], r["measure2"],
                                       topics=r["topics"]),
    CORR: _correlation_data,
    SYSTEM: lambda r: ranked_means(r["evaluations"], r["measure"], topics=r["topics"],
                                     baseline=r["run"] or None),
}


def _spread_figure(boxes: bool):
    def figure(d, ctx):
        return topic_spread_figure(d, boxes, ctx["groups"].get(f"difficult ({d.measure})", ()))
    return figure


#: chart name -> its figure from the data and a context captured on the GUI thread (run
#: colours, options, topic groups, caption): plain data, so it is built in the job too
FIGURE = {
    RP: lambda d, ctx: recall_precision_figure(d, ctx["colors"], ctx["caption"]),
    RP_TOPIC: lambda d, ctx: topic_recall_precision_figure(d),
    MEDIAN: lambda d, ctx: median_difference_figure(d),
    SPREAD: _spread_figure(False),
    BOXES: _spread_figure(True),
    MAPX: lambda d, ctx: map_at_x_figure(d, ctx["colors"], ctx["quarter"], ctx["caption"]),
    CUTOFFS: lambda d, ctx: precision_cutoffs_figure(d, ctx["colors"], ctx["caption"]),
    SCATTER: lambda d, ctx: measure_scatter_figure(d, ctx["colors"], ctx["caption"]),
    CORR: lambda d, ctx: rank_correlation_figure(d),
    SYSTEM: lambda d, ctx: system_ranking_figure(d, ctx["caption"], SYSTEM_LABELS),
}
#: run names the system ranking writes on its axis at most (every k-th beyond that)
SYSTEM_LABELS = 40


def _draw(chart: str):
    return lambda w, d, ctx: w.show_figure(FIGURE[chart](d, ctx))


#: chart name -> how its widget draws the data (ctx: run colours, options, topic groups)
DRAW = {name: _draw(name) for name in CHARTS}


def chart_figure(chart: str, req: dict, ctx: dict):
    """``(data, figure)`` of a chart: its data (:func:`chart_data`) and the figure the
    widget draws (runs in a worker thread: building a figure of 150 runs or 50 topics
    on the GUI thread took up to 60 ms)."""
    data = chart_data(req)
    return data, FIGURE[chart](data, ctx)


def chart_data(req: dict):
    """The chart dataclass for a request captured by
    :meth:`~yardstick.gui.panels.charts_panel.ChartsPanel.chart_request`
    (runs in a worker thread: plain data in, plain data out)."""
    return CHART_DATA[req["chart"]](req)

