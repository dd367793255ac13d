"""Export dialogs offer a file named after what is exported (issue 28): the kind of chart or
table, its measure, its runs or baseline — not "chart.png" / "table.csv"."""

from __future__ import annotations

from yardstick.presentation.charts.figure_spec import Axis, FigureSpec, Plot
from yardstick.presentation.export.file_names import chart_stem, file_stem, measure_in


def _spec(title, name, runs, y="Precision"):
    return FigureSpec(title, (Plot(x=Axis("Recall"), y=Axis(y), series=()),), name=name,
                      runs=tuple(runs))


def test_file_stem_is_portable_and_joins_the_parts():
    assert file_stem("compare", "map", "vs", "BM25") == "compare_map_vs_BM25"
    assert file_stem("topic", "301", "run/with spaces:*?", "ranking") == \
        "topic_301_run-with-spaces_ranking"
    assert file_stem("", None, "x") == "x" and file_stem() == "export"
    long = file_stem("stability", "Minimum difference for 95% confidence (Swap rates "
                     "(Voorhees–Buckley))")
    assert len(long) <= 80 and long.startswith("stability_Minimum-difference")


def test_measure_found_as_trec_eval_prints_it():
    assert measure_in("Recall-Precision Curve — top 12 of 150 runs by map") == "map"
    assert measure_in("ndcg_cut_10 per topic") == "ndcg_cut_10"
    assert measure_in("P_10 vs map") == "P_10"
    assert measure_in("Recall-Precision Curve") is None


def test_chart_stems_name_kind_measure_and_runs():
    rp = _spec("Recall-Precision Curve — top 3 of 150 runs by map", "recall_precision",
               ["a", "b", "c"])
    assert chart_stem(rp) == "recall_precision_map_3runs"
    one = _spec("Per-topic difference from the median: ndcg_cut_10", "median_difference",
                ["BM25+RM3"], y="ndcg_cut_10 − median")
    assert chart_stem(one) == "median_difference_ndcg_cut_10_BM25+RM3"
    mapx = _spec("map(X) vs X", "map_at_x", ["a", "b"], y="map(X)")
    assert chart_stem(mapx) == "map_at_x_2runs"
