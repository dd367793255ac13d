"""Export buttons for every chart (PNG / SVG / PDF) and every table (CSV / XLSX / LaTeX /
Markdown / HTML / clipboard).

Dialogs offer a file named after what is exported (``recall_precision_map_12runs.png``,
``compare_map_vs_BM25.csv``: :mod:`yardstick.presentation.export.file_names`) in the
last folder an export went to.

* ``add_plot_export(widget_or_plot, menu_or_toolbar)`` adds an "Export chart" menu;
* ``add_table_export(table_view_or_frame_getter, toolbar)`` adds "Export table".

The work is done by plain functions (:func:`export_plot`, :func:`export_table`,
:func:`copy_table`) that tests call directly; the menus only ask for a file
name.  Dialogs start in the last folder used and preselect the last format
(QSettings keys ``export/<kind>_dir`` and ``export/<kind>_format``).

Charts drawn from a figure spec (every chart of the Charts, Stability and Pool
panels and the teaching views: :mod:`yardstick.presentation.charts.figure_spec`) are written by
matplotlib from the same spec the window shows
(:func:`yardstick.presentation.charts.render_mpl.write_figure`): the same runs, filter, labels
and highlight; PNG at the chosen width and DPI, SVG (text kept as text) and PDF,
both vector.  The figure keeps the on-screen proportions (96 px = 1 inch).  Other
plots (a bare PlotWidget) still go through pyqtgraph's ``ImageExporter`` /
``SVGExporter`` and, for PDF, that SVG drawn by Qt's SVG renderer into a
``QPdfWriter`` page.  Tables go through :mod:`yardstick.presentation.export.tables`.
All files are written atomically.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pyqtgraph as pg
import pyqtgraph.exporters  # noqa: F401  (registers pg.exporters)
from PySide6.QtCore import QMarginsF, QRectF, QSizeF
from PySide6.QtGui import QGuiApplication, QPageLayout, QPageSize, QPainter, QPdfWriter
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QMenu,
    QSpinBox,
    QToolBar,
    QToolButton,
    QWidget,
)

from yardstick.inputs.io.atomic import atomic_write, atomic_write_bytes
from yardstick.presentation.export.tables import table_to_text, write_table

__all__ = ["add_plot_export", "add_table_export", "export_plot", "export_table", "copy_table",
           "plot_item_of", "frame_of", "PLOT_FORMATS", "TABLE_FORMATS"]

PLOT_FORMATS = {"png": "PNG image (*.png)", "svg": "SVG vector image (*.svg)",
                "pdf": "PDF document (*.pdf)"}
TABLE_FORMATS = {"csv": "CSV (*.csv)", "xlsx": "Excel workbook (*.xlsx)",
                 "latex": "LaTeX booktabs (*.tex)", "markdown": "Markdown (*.md)",
                 "html": "HTML (*.html)"}
_SUFFIX = {"png": ".png", "svg": ".svg", "pdf": ".pdf", "csv": ".csv", "xlsx": ".xlsx",
           "latex": ".tex", "markdown": ".md", "html": ".html"}


# ---------------------------------------------------------------- settings

def _settings():
    from yardstick.gui.settings import settings

    return settings()


def last_export(kind: str) -> tuple[str, str]:
    """(last folder, last format) for ``kind`` in {"plot", "table"}."""
    s = _settings()
    folder = str(s.value(f"export/{kind}_dir", "") or "")
    fmt = str(s.value(f"export/{kind}_format", "") or "")
    if not folder or not os.path.isdir(folder):
        folder = str(Path.home())
    default = "png" if kind == "plot" else "csv"
    return folder, fmt or default


def remember_export(kind: str, path: str | os.PathLike, fmt: str) -> None:
    s = _settings()
    s.setValue(f"export/{kind}_dir", str(Path(path).resolve().parent))
    s.setValue(f"export/{kind}_format", fmt)
    s.sync()


# ---------------------------------------------------------------- plots

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


def _resolve(obj):
    """A getter (``panel.current_chart``) gives the chart shown now."""
    import types

    return obj() if isinstance(obj, (types.FunctionType, types.MethodType)) else obj


def _spec_of(obj):
    from yardstick.gui.charts.render_pg import spec_of

    return spec_of(_resolve(obj))


def _screen_inches(obj) -> tuple[float, float]:
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
    spec = _spec_of(obj)
    if spec is not None:
        from yardstick.presentation.charts.render_mpl import write_figure

        w_in, h_in = _screen_inches(_resolve(obj))
        if fmt == "png" and width:
            w_in, h_in = width / dpi, width / dpi * h_in / w_in
        return write_figure(spec, path, fmt, w_in, h_in, dpi, provenance=provenance)
    item = plot_item_of(_resolve(obj))
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


class _PngDialog(QDialog):
    def __init__(self, width: int, parent=None):
        super().__init__(parent)
        self.setWindowTitle("PNG size")
        self.width_box = QSpinBox(minimum=100, maximum=20000, value=width, suffix=" px")
        self.dpi_box = QSpinBox(minimum=50, maximum=1200, value=int(_settings().value(
            "export/png_dpi", 150) or 150), suffix=" dpi")
        lay = QFormLayout(self)
        lay.addRow("Width", self.width_box)
        lay.addRow("Resolution", self.dpi_box)
        bb = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                              | QDialogButtonBox.StandardButton.Cancel)
        bb.accepted.connect(self.accept)
        bb.rejected.connect(self.reject)
        lay.addRow(bb)


def _ask_path(parent, kind: str, formats: dict[str, str], fmt: str | None,
              name: str) -> tuple[str, str] | None:
    folder, last = last_export(kind)
    fmt = fmt or last
    filters = list(formats.values())
    path, chosen = QFileDialog.getSaveFileName(parent, "Export", str(Path(folder) / (
        name + _SUFFIX.get(fmt, ""))), ";;".join(filters), formats.get(fmt, filters[0]))
    if not path:
        return None
    fmt = next((k for k, v in formats.items() if v == chosen), fmt)
    if not Path(path).suffix:
        path += _SUFFIX[fmt]
    remember_export(kind, path, fmt)
    return path, fmt


def plot_file_stem(obj) -> str:
    """The name offered for a chart: what it shows (``recall_precision_map_12runs``),
    from its figure spec (:func:`yardstick.presentation.export.file_names.chart_stem`)."""
    from yardstick.presentation.export.file_names import chart_stem, file_stem

    spec = _spec_of(obj)
    if spec is not None:
        return chart_stem(spec)
    return file_stem(getattr(_resolve(obj), "export_name", None) or "chart")


def table_file_stem(name, parent) -> str:
    """The name offered for a table: ``name`` (a text or a function giving one), else
    the title of the panel holding the export button, with ``_table``."""
    from yardstick.presentation.export.file_names import file_stem

    if callable(name):
        name = name()
    if name:
        return file_stem(name)
    w = parent
    while w is not None and not isinstance(getattr(type(w), "TITLE", None), str):
        w = w.parentWidget()
    return file_stem(type(w).TITLE.lower() if w is not None else "", "table")


def _plot_dialog(obj, parent: QWidget | None, fmt: str | None = None) -> Path | None:
    got = _ask_path(parent, "plot", PLOT_FORMATS, fmt, plot_file_stem(obj))
    if got is None:
        return None
    path, fmt = got
    width, dpi = None, 96
    if fmt == "png":
        w0 = int(_screen_inches(_resolve(obj))[0] * 96)
        dlg = _PngDialog(max(w0 * 2, 400), parent)
        if not dlg.exec():
            return None
        width, dpi = dlg.width_box.value(), dlg.dpi_box.value()
        _settings().setValue("export/png_dpi", dpi)
    spec = _spec_of(obj)
    return export_plot(obj, path, fmt, width=width, dpi=dpi,
                       provenance=window_provenance(parent, runs=spec.runs if spec else None,
                                                    chart=spec.title if spec else None,
                                                    shown=spec.caption if spec else None))


def add_plot_export(widget_or_plot, menu_or_toolbar) -> QMenu:
    """Add "Export chart" (PNG…, SVG…, PDF…, Copy image) to a toolbar or menu."""
    parent = menu_or_toolbar if isinstance(menu_or_toolbar, QWidget) else None
    menu = _attach_menu(menu_or_toolbar, "Export chart")
    for fmt, label in (("png", "PNG image…"), ("svg", "SVG image…"), ("pdf", "PDF…")):
        menu.addAction(label, lambda f=fmt: _plot_dialog(widget_or_plot, parent, f))
    menu.addAction("Copy image", lambda: _copy_image(widget_or_plot))
    return menu


def _copy_image(obj) -> None:
    spec = _spec_of(obj)
    if spec is not None:
        from PySide6.QtGui import QImage

        from yardstick.presentation.charts.render_mpl import figure_bytes

        img = QImage.fromData(figure_bytes(spec, "png", *_screen_inches(_resolve(obj)),
                                           dpi=144))
    else:
        img = pg.exporters.ImageExporter(plot_item_of(_resolve(obj))).export(toBytes=True)
    cb = QGuiApplication.clipboard()
    if cb is not None:
        cb.setImage(img)


# ---------------------------------------------------------------- tables

def frame_of(source) -> pd.DataFrame:
    """The DataFrame behind a getter, a view with ``visible_frame()`` or any QTableView."""
    if isinstance(source, pd.DataFrame):
        return source
    if hasattr(source, "visible_frame"):
        return source.visible_frame()
    if callable(source):
        return source()
    model = source.model() if hasattr(source, "model") else None
    if model is None:
        raise TypeError(f"cannot get a table from {type(source).__name__}")
    from PySide6.QtCore import Qt
    rows, cols = model.rowCount(), model.columnCount()
    header = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(cols)]
    data = [[model.data(model.index(r, c)) for c in range(cols)] for r in range(rows)]
    return pd.DataFrame(data, columns=header)


def export_table(source, path: str | os.PathLike, fmt: str | None = None,
                 decimals: int = 4, markers=None, caption: str | None = None,
                 provenance=None) -> Path:
    """Write the table to ``path`` (csv | xlsx | latex | markdown | html), with its
    ``provenance`` (XLSX sheet, LaTeX comment, ``.provenance.json`` beside the others)."""
    return write_table(frame_of(source), path, fmt, decimals=decimals, markers=markers,
                       caption=caption, provenance=provenance)


def window_provenance(widget, runs=None, **extra):
    """The provenance of what the window holding ``widget`` shows (its qrels, the runs
    drawn — all loaded when ``runs`` is empty —, measures and options;
    :func:`yardstick.common.provenance.workspace_provenance`), or None outside a window."""
    from yardstick.common.provenance import workspace_provenance

    win = widget.window() if isinstance(widget, QWidget) else None
    state = getattr(win, "state", None)
    ws = getattr(state, "workspace", None)
    if ws is None:
        return None
    return workspace_provenance(ws, runs=list(runs) if runs else None, **extra)


def copy_table(source, fmt: str = "tsv", decimals: int = 4) -> str:
    """Put the table on the clipboard as tsv | latex | markdown | csv | html; returns the text."""
    text = table_to_text(frame_of(source), fmt, decimals=decimals)
    cb = QGuiApplication.clipboard()
    if cb is not None:
        cb.setText(text)
    return text


def _table_dialog(source, parent, fmt: str | None, name=None) -> Path | None:
    got = _ask_path(parent, "table", TABLE_FORMATS, fmt, table_file_stem(name, parent))
    if got is None:
        return None
    path, fmt = got
    return export_table(source, path, fmt, provenance=window_provenance(parent))


def add_table_export(table_view_or_frame_getter, toolbar, name=None) -> QMenu:
    """Add "Export table" (CSV…, XLSX…, LaTeX…, Markdown…, HTML…, copy as …) to a toolbar;
    ``name`` (a text or a function giving one) names the file offered."""
    src = table_view_or_frame_getter
    parent = toolbar if isinstance(toolbar, QWidget) else None
    menu = _attach_menu(toolbar, "Export table")
    for fmt, label in (("csv", "CSV…"), ("xlsx", "Excel (XLSX)…"), ("latex", "LaTeX…"),
                       ("markdown", "Markdown…"), ("html", "HTML…")):
        menu.addAction(label, lambda f=fmt: _table_dialog(src, parent, f, name))
    menu.addSeparator()
    for fmt, label in (("tsv", "Copy (tab-separated)"), ("latex", "Copy as LaTeX"),
                       ("markdown", "Copy as Markdown")):
        menu.addAction(label, lambda f=fmt: copy_table(src, f))
    return menu


def _attach_menu(target, title: str) -> QMenu:
    if isinstance(target, QMenu):
        return target.addMenu(title)
    menu = QMenu(title, target if isinstance(target, QWidget) else None)
    from yardstick.gui.flow_bar import FlowBar

    if isinstance(target, (QToolBar, FlowBar)):
        button = QToolButton(target)
        button.setText(title)
        button.setAutoRaise(True)
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        button.setMenu(menu)
        target.addWidget(button)
    elif isinstance(target, QWidget) and hasattr(target, "addAction"):
        target.addAction(menu.menuAction())
    else:
        raise TypeError(f"cannot add an export menu to {type(target).__name__}")
    return menu
