"""The Compare panel's chart, defined once: per-topic differences of a run from the
baseline, sorted from the largest gain to the largest loss, with the wins, ties and
losses that the sign test counts (``yardstick.analysis.significance``).  Drawn by the window's
pyqtgraph renderer and by the matplotlib renderer of every export, from this one
:class:`FigureSpec`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from yardstick.inputs.io.text_source import shown
from yardstick.presentation.charts.figure_spec import Axis, Bars, FigureSpec, Plot, RefLine, Style
from yardstick.presentation.charts.specs import topic_axis

__all__ = ["differences_figure", "GAIN_COLOR", "LOSS_COLOR", "TIE_COLOR"]

GAIN_COLOR, LOSS_COLOR, TIE_COLOR = "#2ca02c", "#d62728", "#7f7f7f"


def differences_figure(differences: pd.Series, measure: str, run: str, baseline: str
                       ) -> FigureSpec:
    """Bars of ``run − baseline`` per topic in the order of ``differences`` (its index
    are the topics); the title counts wins, ties and losses."""
    topics = tuple(map(str, differences.index))
    d = differences.to_numpy(dtype=float)
    x = np.arange(len(d), dtype=float)
    colors = tuple(GAIN_COLOR if v > 0 else LOSS_COLOR if v < 0 else TIE_COLOR for v in d)
    hover = tuple(f"topic {shown(t)}\n{shown(run)} − {shown(baseline)}: {v:+.4f}"
                  for t, v in zip(topics, d))
    lim = max(float(np.nanmax(np.abs(d))) if d.size else 0.0, 1e-3) * 1.05
    plot = Plot(x=topic_axis(topics, "Topic (sorted by difference)"),
                y=Axis(f"{measure}: {shown(run)} − {shown(baseline)}", (-lim, lim)),
                series=(Bars(x, d, colors=colors, name=f"{shown(run)} − {shown(baseline)}",
                             run=run, hover=hover, topics=topics),
                        RefLine(0.0, True, Style("#000000", 0.8))),
                legend=False)
    wins, losses = int((d > 0).sum()), int((d < 0).sum())
    title = (f"{measure}: {shown(run)} − {shown(baseline)} per topic "
             f"(wins {wins}, ties {len(d) - wins - losses}, losses {losses})")
    return FigureSpec(title, (plot,), name="compare_differences", size=(8.0, 4.2), runs=(run,))
