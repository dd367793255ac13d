"""Chart data, computed without Qt: one module per chart, each returning a frozen
dataclass with ``to_frame()``.  The GUI (``gui/charts``) and the reports
(``core/reports``) draw them.

========================  =================================================
module                    chart
========================  =================================================
``recall_precision``      11-point RP curves of runs; one topic's RP picture
``median_difference``     per-topic run − median bars (AP histogram)
``topic_spread``          per-topic median / max / box plots; difficult topics
``map_at_x``              MAP(X) vs X and the worst-quarter area
``precision_cutoffs``     P@5 … P@1000
``measure_scatter``       two measures over runs
``rank_correlation``      Kendall tau between measure rankings
``known_item``            cumulative % of topics found by rank
========================  =================================================
"""
