"""Hover emphasis in the Stability and Pool panels' figures
(:func:`yardstick.gui.charts.render_pg.draw_figure`)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from yardstick.presentation.charts.figure_spec import Line, RefLine, Text

__all__ = ["FigureHover"]


class FigureHover:
    """Hover emphasis for a figure drawn by :func:`~yardstick.gui.charts.render_pg.draw_figure`
    (stability and pool
    charts): with the mouse within a few pixels of a named line's point (an ASL curve,
    a simulation strategy, a run), the other named series of that plot fade until the
    mouse moves away.  Only opacities change; the spec, and so the export, stay."""

    PIXELS = 12

    def __init__(self, view: pg.GraphicsLayoutWidget):
        self.view = view
        self.plots: list[tuple[pg.PlotItem, list]] = []   # (plot, [(series, item)])
        self.current: tuple[int, str] | None = None       # (plot number, series name)
        view.scene().sigMouseMoved.connect(self._moved)

    def set_drawn(self, plots: list[tuple[pg.PlotItem, list]]) -> None:
        self.plots = plots
        self.current = None

    def nearest(self, scene_pos) -> tuple[int, str] | None:
        for k, (p, drawn) in enumerate(self.plots):
            vb = p.getViewBox()
            if not vb.sceneBoundingRect().contains(scene_pos):
                continue
            at = vb.mapSceneToView(scene_pos)
            px, py = vb.viewPixelSize()
            best, best_d = None, float(self.PIXELS)
            for s, _item in drawn:
                if not isinstance(s, Line) or not s.name or not len(s.x):
                    continue
                with np.errstate(invalid="ignore"):
                    d = np.hypot((s.x - at.x()) / (px or 1e-9), (s.y - at.y()) / (py or 1e-9))
                d = np.where(np.isfinite(d), d, np.inf)
                if d.min() < best_d:
                    best, best_d = s.name, float(d.min())
            return None if best is None else (k, best)
        return None

    def emphasise(self, target: tuple[int, str] | None) -> None:
        if target == self.current:
            return
        self.current = target
        for k, (_p, drawn) in enumerate(self.plots):
            for s, item in drawn:
                name = getattr(s, "name", "")
                if not name or isinstance(s, (RefLine, Text)):
                    continue
                faded = target is not None and target[0] == k and name != target[1]
                item.setOpacity(0.2 if faded else 1.0)

    def _moved(self, scene_pos) -> None:
        self.emphasise(self.nearest(scene_pos))
