"""The one place for how chart text is set, on screen and in files.

Sizes (points) of a figure's heading and of a plot's own title, shared by the
matplotlib renderer (:mod:`yardstick.presentation.charts.render_mpl`) and the window's
pyqtgraph one (``yardstick.gui.charts.render_pg``), so a chart exported reads like
the chart on screen; how many characters of a heading fit on a line; and how files
hold their text (:data:`FILE_FONTS`).  Qt-free: the window reads these numbers.
"""

from __future__ import annotations

__all__ = ["FILE_FONTS", "use_file_fonts", "HEADING_PT", "PLOT_TITLE_PT", "FILE_EM",
           "chars_per_line"]

#: how every file Yardstick writes with matplotlib holds its text: PDF (and PostScript)
#: fonts embedded as TrueType (Type 42), which the ACM and IEEE PDF checkers accept, not
#: matplotlib's default Type 3; SVG text kept as ``<text>`` (searchable, editable), not
#: paths; and text drawn as written, never read as mathtext (a run tagged ``x$^$y`` stopped
#: ``stability``, ``pool`` and ``report --out`` with a ParseSyntaxException)
FILE_FONTS = {"pdf.fonttype": 42, "ps.fonttype": 42, "svg.fonttype": "none",
              "text.parse_math": False}

#: a figure's heading (title, subtitle and caption above the plots), points
HEADING_PT = 10
#: a plot's own title in a figure of several plots, points
PLOT_TITLE_PT = 9
#: matplotlib's mean character width in DejaVu Sans, in ems
FILE_EM = 0.55


def use_file_fonts() -> None:
    """Set :data:`FILE_FONTS` in matplotlib's rcParams (read when a file is saved).

    Done once when :mod:`yardstick.presentation.charts.render_mpl` is imported, which
    every figure file, report sheet and chart export goes through (also in the report's
    worker processes)."""
    import matplotlib

    matplotlib.rcParams.update(FILE_FONTS)


def chars_per_line(width_pt: float, size_pt: float = HEADING_PT, em: float = FILE_EM) -> int:
    """How many characters of text ``size_pt`` points high fit in ``width_pt`` points,
    at a mean character width of ``em`` ems (wider on screen than in a file)."""
    return int(width_pt / (size_pt * em))
