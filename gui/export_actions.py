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
panels and the teaching views) are written by matplotlib from the same spec the window
shows: the same runs, filter, labels and highlight; PNG at the chosen width and DPI,
SVG (text kept as text) and PDF, both vector (:mod:`yardstick.gui.chart_files`).
Tables go through :mod:`yardstick.presentation.export.tables`.  All files are written
atomically.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
from PySide6.QtGui import QGuiApplication
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

from yardstick.gui.chart_files import (
    copy_chart_image,
    export_plot,
    plot_item_of,
    resolve_chart,
    screen_inches,
    spec_of_chart,
)
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

    spec = spec_of_chart(obj)
    if spec is not None:
        return chart_stem(spec)
    return file_stem(getattr(resolve_chart(obj), "export_name", None) or "chart")


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
        w0 = int(screen_inches(resolve_chart(obj))[0] * 96)
        dlg = _PngDialog(max(w0 * 2, 400), parent)
        if not dlg.exec():
            return None
        width, dpi = dlg.width_box.value(), dlg.dpi_box.value()
        _settings().setValue("export/png_dpi", dpi)
    spec = spec_of_chart(obj)
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
    menu.addAction("Copy image", lambda: copy_chart_image(widget_or_plot))
    return menu


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
