"""Charts without Qt: their data (one module per chart, each returning a frozen
dataclass with ``to_frame()``) and their one definition (figure specs): the
window (``gui/charts``, pyqtgraph) and every export and report
(:mod:`yardstick.presentation.charts.render_mpl`, matplotlib) draw the same spec.

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
``figure_spec``           the figure definition: series, axes, styles
``specs``                 figure specs of the charts above
``stability_specs``       figure specs of the stability analyses
``pool_specs``            figure specs of the pool diagnostics
``lesson_specs``          figure specs of the teaching views
``render_mpl``            matplotlib renderer (PNG at a DPI, SVG, PDF)
``run_filter``            which runs a chart draws (top N, team, search)
========================  =================================================
"""
