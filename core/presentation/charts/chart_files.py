"""The charts of ``yardstick stability --out`` and ``yardstick pool --out`` as files.

Each analysis's chart is the window's own figure spec
(:func:`yardstick.presentation.charts.stability_specs.stability_figure`,
:func:`yardstick.presentation.charts.pool_specs.pool_figure`), written as PNG, SVG and
PDF by :func:`yardstick.presentation.charts.render_mpl.write_figure` (TrueType fonts in
the PDF, text as text in the SVG, the provenance in each file's metadata), so the
command line draws what the window draws.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path

from yardstick.presentation.charts.figure_spec import FigureSpec
from yardstick.presentation.charts.render_mpl import write_figure

__all__ = ["CHART_FORMATS", "stability_charts", "pool_charts", "write_charts"]

CHART_FORMATS = ("png", "svg", "pdf")
#: inches per labelled row of a file's chart (a 7-8 pt label and its gap)
ROW_IN = 0.14


def _stem(*parts) -> str:
    return re.sub(r"[^\w.-]+", "_", "_".join(str(p) for p in parts if p not in (None, "")))


def stability_charts(report) -> list[tuple[str, FigureSpec]]:
    """``(file stem, spec)`` for every chart of a
    :class:`~yardstick.analysis.stability.report.StabilityReport`: one per analysis,
    measure and topic set (swap-rate grid, ASL curves, error rates, Tukey HSD,
    sensitivity, topic-set size, the rank-correlation heat maps), and the ASL curves and
    error rates of every measure together."""
    from yardstick.presentation.charts.stability_specs import stability_figure

    out = []
    for analysis, results in report.results.items():
        if not isinstance(results, dict):
            continue
        if analysis in ("discriminative", "error-rate") and len(results) > 1:
            spec = stability_figure(report, analysis, None)
            if spec is not None:
                out.append((_stem("chart", analysis, "all"), spec))
        for key in results:
            spec = stability_figure(report, analysis, key)
            if spec is not None:
                parts = key if isinstance(key, tuple) else (key,)
                out.append((_stem("chart", analysis, *parts), spec))
    return out


def pool_charts(report) -> list[tuple[str, FigureSpec]]:
    """``(file stem, spec)`` for every chart of a pool report the analyses computed
    (earliest ranks, P(relevant) by rank, pool depth, uniques, leave-out-uniques,
    titlestat, simulations)."""
    from yardstick.presentation.charts.pool_specs import CHARTS, pool_figure

    out = []
    for key in CHARTS:
        spec = pool_figure(report, key)
        if spec is not None:
            out.append((_stem("chart", key), spec))
    return out


def every_row_labelled(spec: FigureSpec) -> FigureSpec:
    """``spec`` with every row of its categorical y axis labelled, the figure as tall as
    the rows need (:data:`ROW_IN` each).  The window thins the labels of a long axis (hover
    names every bar); a file has no hover, so a Tukey chart of 150 runs names all 150."""
    if len(spec.plots) != 1:
        return spec
    plot = spec.plots[0]
    ticks = plot.y.ticks
    if ticks is None or len(ticks) <= plot.y.max_labels:
        return spec
    plot = replace(plot, y=replace(plot.y, max_labels=len(ticks)))
    height = max(spec.size[1], 1.4 + ROW_IN * len(ticks))
    return replace(spec, plots=(plot,), size=(spec.size[0], height))


def write_charts(charts, folder: str | os.PathLike, provenance=None,
                 formats=CHART_FORMATS, dpi: int = 150) -> list[Path]:
    """Write every ``(stem, spec)`` as ``<folder>/<stem>.<fmt>`` (every row of a long
    axis labelled: :func:`every_row_labelled`); returns the paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    return [write_figure(every_row_labelled(spec), folder / f"{stem}.{fmt}", fmt, dpi=dpi,
                         provenance=provenance)
            for stem, spec in charts for fmt in formats]
