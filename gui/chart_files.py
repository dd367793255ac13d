"""A chart written to a file or the clipboard: PNG, SVG or PDF.

Charts drawn from a figure spec (:mod:`yardstick.presentation.charts.figure_spec`) are
written by matplotlib from the same spec the window shows
(:func:`yardstick.presentation.charts.render_mpl.write_figure`), at the on-screen
proportions (96 px = 1 inch).  Other plots (a bare PlotWidget) go through pyqtgraph's
``ImageExporter`` / ``SVGExporter`` and, for PDF, that SVG drawn by Qt's SVG renderer
into a ``QPdfWriter`` page.  Files are written atomically.  The menus and dialogs that
call these are in :mod:`yardstick.gui.export_actions`.
"""

from __future__ import annotations

import os
from pathlib import Path

import pyqtgraph as pg
import pyqtgraph.exporters  # noqa: F401  (registers pg.exporters)
from PySide6.QtCore import QMarginsF, QRectF, QSizeF
from PySide6.QtGui import QGuiApplication, QPageLayout, QPageSize, QPainter, QPdfWriter

from yardstick.inputs.io.atomic import atomic_write, atomic_write_bytes

__all__ = ["export_plot", "plot_item_of", "resolve_chart", "spec_of_chart", "screen_inches",
           "copy_chart_image"]


def plot_item_of(obj):
    """The graphics item to export from a chart widget, PlotWidget, PlotItem or layout."""
    if hasattr(obj, "export_item"):
        return obj.export_item()
    if isinstance(obj, pg.PlotWidget):
        return obj.getPlotItem()
    if isinstance(obj, pg.GraphicsLayoutWidget):
        return obj.ci
    if isinstance(obj, pg.GraphicsView):
        return obj.sceneObj
    if isinstance(obj, (pg.PlotItem, pg.GraphicsLayout, pg.GraphicsObject, pg.GraphicsWidget)):
        return obj
    if hasattr(obj, "plot") and not callable(obj.plot):
        return plot_item_of(obj.plot)
    raise TypeError(f"cannot export a {type(obj).__name__} as a chart")


def resolve_chart(obj):
    """A getter (``panel.current_chart``) gives the chart shown now."""
    import types

    return obj() if isinstance(obj, (types.FunctionType, types.MethodType)) else obj


def spec_of_chart(obj):
    from yardstick.gui.charts.render_pg import spec_of

    return spec_of(resolve_chart(obj))


def screen_inches(obj) -> tuple[float, float]:
    """The chart's on-screen size in inches at 96 px per inch (5×3.5 in when hidden)."""
    w = h = 0
    if hasattr(obj, "width") and callable(obj.width):
        w, h = obj.width(), obj.height()
    if w < 200 or h < 150:
        return 6.4, 4.2
    return w / 96, h / 96


def export_plot(obj, path: str | os.PathLike, fmt: str | None = None, width: int | None = None,
                dpi: int = 96, provenance=None) -> Path:
    """Write the chart to ``path`` as png | svg | pdf (from the suffix if ``fmt`` is None).

    ``width`` (pixels, PNG only) defaults to the on-screen width; the height
    keeps the aspect ratio.  Charts with a figure spec are drawn by matplotlib
    from that spec; other plots by pyqtgraph's exporters.
    """
    path = Path(path)
    fmt = (fmt or path.suffix.lstrip(".")).lower()
    spec = spec_of_chart(obj)
    if spec is not None:
        from yardstick.presentation.charts.render_mpl import write_figure

        w_in, h_in = screen_inches(resolve_chart(obj))
        if fmt == "png" and width:
            w_in, h_in = width / dpi, width / dpi * h_in / w_in
        return write_figure(spec, path, fmt, w_in, h_in, dpi, provenance=provenance)
    item = plot_item_of(resolve_chart(obj))
    QGuiApplication.processEvents()
    if fmt == "png":
        ex = pg.exporters.ImageExporter(item)
        if width:
            ex.parameters()["width"] = int(width)
        img = ex.export(toBytes=True)
        dpm = round(dpi / 0.0254)
        img.setDotsPerMeterX(dpm)
        img.setDotsPerMeterY(dpm)

        def _save(tmp: str) -> None:
            if not img.save(tmp, "PNG"):
                raise OSError(f"could not write {path}")
        atomic_write(path, _save)
    elif fmt == "svg":
        data = pg.exporters.SVGExporter(item).export(toBytes=True)
        atomic_write_bytes(path, data if isinstance(data, bytes) else bytes(data))
    elif fmt == "pdf":
        atomic_write(path, lambda tmp: _render_pdf(item, tmp))
    else:
        raise ValueError(f"unknown chart format {fmt!r}; expected png, svg or pdf")
    return path


def _render_pdf(item, tmp: str) -> None:
    """The chart as vector PDF: pyqtgraph's SVG of it, drawn by Qt's SVG renderer into
    a PDF page of the same size (96 px = 72 pt).

    Rendering the scene straight into a ``QPdfWriter`` scaled the axes by the
    writer's resolution (text and ticks about 3× too big), embedded the markers
    as JPEG pixmaps and wrote colour operators PDF readers reject; the SVG route
    keeps every line, marker and label a vector path or text.
    """
    from PySide6.QtCore import QByteArray
    from PySide6.QtSvg import QSvgRenderer

    data = pg.exporters.SVGExporter(item).export(toBytes=True)
    renderer = QSvgRenderer(QByteArray(bytes(data)))
    if not renderer.isValid():
        raise OSError("the chart's SVG could not be read back to make the PDF")
    box = renderer.viewBoxF()
    w, h = (box.width(), box.height()) if box.width() > 0 else \
        (renderer.defaultSize().width(), renderer.defaultSize().height())
    writer = QPdfWriter(tmp)
    writer.setResolution(96)                     # one device unit = one SVG pixel
    writer.setPageLayout(QPageLayout(QPageSize(QSizeF(w * 0.75, h * 0.75),
                                               QPageSize.Unit.Point, "chart"),
                                     QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)))
    painter = QPainter(writer)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter, QRectF(0, 0, writer.width(), writer.height()))
    finally:
        painter.end()


def copy_chart_image(obj) -> None:
    spec = spec_of_chart(obj)
    if spec is not None:
        from PySide6.QtGui import QImage

        from yardstick.presentation.charts.render_mpl import figure_bytes

        img = QImage.fromData(figure_bytes(spec, "png", *screen_inches(resolve_chart(obj)),
                                           dpi=144))
    else:
        img = pg.exporters.ImageExporter(plot_item_of(resolve_chart(obj))).export(toBytes=True)
    cb = QGuiApplication.clipboard()
    if cb is not None:
        cb.setImage(img)
