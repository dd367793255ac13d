"""The Python API's outputs: matplotlib figures (:func:`plot_recall_precision`) and
result tables written with their provenance (:func:`export_table`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import pandas as pd

from yardstick.api.evaluation import PathLike, evaluations

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["plot_recall_precision", "export_table"]


def plot_recall_precision(qrels: Any, runs: Any, ax: Axes | None = None) -> Figure:
    """The averaged 11-point recall-precision curves of the runs, drawn with matplotlib.

    Returns the matplotlib ``Figure`` (a new one unless ``ax`` is given); save it
    with ``fig.savefig("rp.svg")`` (PNG, SVG and PDF are all vector-exact).
    """
    from yardstick.presentation.charts.recall_precision import recall_precision_curves
    from yardstick.presentation.reports.figures import draw_recall_precision, new_figure

    evs = evaluations(qrels, runs, ["map", "iprec_at_recall"])
    curves = recall_precision_curves(evs)
    if ax is None:
        ax = new_figure(6.0, 4.2).add_subplot()
    draw_recall_precision(ax, curves)
    return ax.figure


def export_table(frame: pd.DataFrame, path: PathLike, fmt: str | None = None,
                 **kwargs) -> str:
    """Write a result table as CSV, XLSX, LaTeX, Markdown or HTML (by ``fmt`` or the suffix).

    A table from :func:`~yardstick.api.evaluate`, :func:`~yardstick.api.compare` or
    :func:`~yardstick.api.experiment` carries the files it was computed from; they are
    hashed into its provenance (the XLSX ``provenance`` sheet, a LaTeX comment,
    ``.provenance.json`` beside CSV and Markdown), as the window's and ``yardstick
    report``'s exports are.  ``provenance=`` overrides it.
    """
    from yardstick.presentation.export.table_sources import decimals_by_column, sources_provenance
    from yardstick.presentation.export.tables import write_table

    if isinstance(kwargs.get("decimals"), Mapping):  # {"P.10": 3} / {"P@10": 3} for P_10
        kwargs["decimals"] = decimals_by_column(frame, kwargs["decimals"])
    if "provenance" not in kwargs:
        prov = sources_provenance(frame)
        if prov is not None:
            kwargs["provenance"] = prov
    return str(write_table(frame, path, fmt, **kwargs))
