"""The Pool panel's charts: the figures of :mod:`yardstick.presentation.charts.pool_specs` drawn
with
pyqtgraph (:func:`yardstick.gui.charts.render_pg.draw_figure`).  What each chart
shows, its titles, labels and styles are defined there, once, for the window and
for every export."""

from __future__ import annotations

import pyqtgraph as pg

from yardstick.analysis.pool.report import PoolReport
from yardstick.gui.charts.render_pg import draw_figure
from yardstick.presentation.charts.pool_specs import CHARTS, chart_available, pool_figure

__all__ = ["CHARTS", "chart_available", "draw_pool_chart"]


def draw_pool_chart(chart: pg.GraphicsLayoutWidget, r: PoolReport | None,
                    key: str | None) -> None:
    """Draw chart ``key`` of :data:`CHARTS` from report ``r`` into ``chart`` (cleared first)."""
    draw_figure(chart, pool_figure(r, key))
