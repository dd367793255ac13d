"""Charts comparing tracks of an archive study (:mod:`yardstick.session.archive_study`).

One panel per quantity (minimum differences for a 5 % swap rate, discriminative power,
leave-out-uniques largest drop, judged depth), a bar per track, in the table's order —
the comparison Voorhees & Buckley (SIGIR 2002, Table 2) and Buckley et al. (Information
Retrieval 2007, §4) make across collections.
"""

from __future__ import annotations

import os

import pandas as pd

__all__ = ["archive_figure"]

#: (column prefix, panel title)
PANELS = (("min_diff_5%_at_", "Minimum difference, 5 % swaps"),
          ("discriminative_power", "Discriminative power"),
          ("uniques_largest_drop_%", "Leave-out-uniques: largest drop (%)"),
          ("judged_depth", "Judged depth (median)"))


def archive_figure(table: pd.DataFrame, path: str | os.PathLike) -> str:
    """Write the comparison chart of an archive table (PNG, PDF or SVG by suffix).

    The tracks are named once, under the lower panels (the upper ones share their axis),
    slanted more and given more width as there are more of them, so ten tracks' names
    stay apart; text goes into PDF and SVG as fonts
    (:data:`~yardstick.presentation.charts.chart_fonts.FILE_FONTS`), as every other
    chart Yardstick writes."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    from yardstick.presentation.charts.chart_fonts import FILE_FONTS

    with matplotlib.rc_context(FILE_FONTS):   # a directory's name as text, not mathtext
        _draw(Figure, table, path)
    return str(path)


def _draw(figure, table: pd.DataFrame, path: str | os.PathLike) -> None:
    tracks = table["track"].astype(str).tolist()
    longest = max((len(t) for t in tracks), default=1)
    fig = figure(figsize=(max(10.0, 4.0 + 0.55 * len(tracks)), 7 + min(3.0, 0.05 * longest)),
                 layout="constrained")
    axes = fig.subplots(2, 2, sharex=True).ravel()
    slant = 30 if len(tracks) <= 5 and longest <= 12 else 60
    for ax, (prefix, title) in zip(axes, PANELS):
        cols = [c for c in table.columns if c.startswith(prefix)]
        width = 0.8 / max(1, len(cols))
        for k, c in enumerate(cols):
            xs = [i + (k - (len(cols) - 1) / 2) * width for i in range(len(tracks))]
            label = c.removeprefix(prefix) + " topics" if c != prefix else None
            ax.bar(xs, table[c].astype(float), width, label=label)
        ax.set_xticks(range(len(tracks)), tracks, rotation=slant, ha="right",
                      rotation_mode="anchor")
        ax.tick_params(axis="x", labelbottom=ax in axes[2:])
        ax.set_title(title)
        ax.grid(axis="y", alpha=0.3)
        if len(cols) > 1:
            ax.legend(fontsize="small")
    fig.savefig(path)
