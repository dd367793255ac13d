"""The figure a chart widget shows, derived from the spec core made: runs the user
unticked in the legend left out, a clicked run highlighted (the others grey), the
legend's entries and the run behind an entry.

Plain functions of a :class:`~yardstick.presentation.charts.figure_spec.FigureSpec`
(no Qt), so the export writes exactly what the screen shows.
"""

from __future__ import annotations

from dataclasses import replace

from yardstick.presentation.charts.figure_spec import GREY, Bars, FigureSpec, Line, Text

__all__ = ["highlighted", "without_hidden", "legend_entries", "run_of_name"]


def highlighted(spec: FigureSpec, run: str | None) -> FigureSpec:
    """``spec`` with every run but ``run`` drawn grey (and ``run`` a little wider)."""
    if run is None or run not in spec.runs:
        return spec

    def grey(s):
        own = getattr(s, "run", None)
        if own is None:
            return s
        if own == run:
            if isinstance(s, Line):
                return replace(s, style=replace(s.style, width=s.style.width * 1.8 if
                                                s.style.width else 0))
            return s
        if isinstance(s, Line):
            return replace(s, style=replace(s.style, color=GREY))
        if isinstance(s, Text):
            return replace(s, color=GREY)
        if isinstance(s, Bars):
            return replace(s, colors=(GREY,))
        return s
    plots = []
    for p in spec.plots:
        series = [grey(s) for s in p.series]
        # the highlighted run drawn last (on top of the grey ones)
        series.sort(key=lambda s: getattr(s, "run", None) == run)
        plots.append(replace(p, series=tuple(series)))
    return replace(spec, plots=tuple(plots))


def without_hidden(spec: FigureSpec, hidden: set[str]) -> FigureSpec:
    """``spec`` without the series named in ``hidden`` and without every other series of
    the runs those series belong to."""
    if not hidden:
        return spec
    runs = {s.run for p in spec.plots for s in p.series
            if getattr(s, "name", "") in hidden and getattr(s, "run", None)}
    plots = tuple(replace(p, series=tuple(
        s for s in p.series
        if getattr(s, "name", "") not in hidden and getattr(s, "run", None) not in runs))
        for p in spec.plots)
    return replace(spec, plots=plots)


def legend_entries(spec: FigureSpec) -> dict[str, str]:
    """{legend name: colour} in drawing order (plots without a legend left out)."""
    out = {}
    for p in spec.plots:
        if not p.legend:
            continue
        for s in p.series:
            name = getattr(s, "name", "")
            if name and not isinstance(s, Text) and name not in out:
                color = (s.style.color if isinstance(s, Line) else
                         s.color_list()[0] if isinstance(s, Bars) and len(s.x) else
                         getattr(getattr(s, "style", None), "color", "#000000"))
                out[name] = color
    return out


def run_of_name(spec: FigureSpec | None, name: str) -> str | None:
    """The run of the first series named ``name`` (None: no such series, or no run)."""
    if spec is None:
        return None
    for p in spec.plots:
        for s in p.series:
            if getattr(s, "name", "") == name and getattr(s, "run", None):
                return s.run
    return None
