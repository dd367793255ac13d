"""One place for how chart text is set (issue 29, item 4: the font settings were made in
the matplotlib renderer and again, with other numbers, in the window's renderer).

Both renderers take the heading and plot-title sizes from
:mod:`yardstick.presentation.charts.chart_fonts`; the files' font embedding is set
there only, and no chart module writes a font size of its own.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _spec(plots: int):
    from yardstick.presentation.charts.figure_spec import FigureSpec, Line, Plot, Style

    line = Line([0, 1, 2], [0.0, 0.5, 1.0], Style("#1f77b4", 1.5), name="a")
    return FigureSpec("A heading", tuple(Plot(f"plot {k}", series=(line,))
                                         for k in range(plots)), columns=2)


def test_files_take_their_sizes_from_chart_fonts():
    from yardstick.presentation.charts.chart_fonts import HEADING_PT, PLOT_TITLE_PT
    from yardstick.presentation.charts.render_mpl import render_figure

    fig = render_figure(_spec(2), 6.4, 4.2)
    assert fig._suptitle.get_fontsize() == HEADING_PT
    assert [ax.title.get_fontsize() for ax in fig.axes] == [PLOT_TITLE_PT] * 2
    one = render_figure(_spec(1), 6.4, 4.2)
    assert one.axes[0].title.get_fontsize() == HEADING_PT
    assert HEADING_PT != PLOT_TITLE_PT        # the two sizes tell the two titles apart


def test_the_window_takes_its_sizes_from_chart_fonts(qtbot):
    import pyqtgraph as pg

    from yardstick.gui.charts.base import ChartWidget
    from yardstick.gui.charts.render_pg import draw_figure
    from yardstick.presentation.charts.chart_fonts import HEADING_PT, PLOT_TITLE_PT

    view = pg.GraphicsLayoutWidget()
    qtbot.addWidget(view)
    view.resize(700, 400)
    draw_figure(view, _spec(2))
    items = list({id(i): i for r in range(2) for c in range(4)
                  if (i := view.ci.getItem(r, c)) is not None}.values())
    labels = [i for i in items if isinstance(i, pg.LabelItem)]
    plots = [i for i in items if isinstance(i, pg.PlotItem)]
    assert [lb.opts["size"] for lb in labels] == [f"{HEADING_PT}pt"]
    assert [p.titleLabel.opts["size"] for p in plots] == [f"{PLOT_TITLE_PT}pt"] * 2
    chart = ChartWidget()
    qtbot.addWidget(chart)
    chart.show_figure(_spec(1))
    assert chart.plot_item.titleLabel.opts["size"] == f"{HEADING_PT}pt"


@pytest.mark.parametrize("folder", ["core/presentation/charts", "gui/charts"])
def test_no_chart_module_sets_fonts_of_its_own(folder):
    """Font embedding (``fonttype``) and title sizes in points are written only in
    chart_fonts.py."""
    own = re.compile(r"fonttype|size=\"\d+pt\"|TITLE_SIZE")
    found = [f"{p.name}:{n}" for p in sorted((ROOT / folder).glob("*.py"))
             if p.name != "chart_fonts.py"
             for n, line in enumerate(p.read_text().splitlines(), 1) if own.search(line)]
    assert found == []


def test_a_heading_wrapped_onto_three_lines_is_not_cut(qtbot):
    """pyqtgraph gives a plot's title one 30-pixel row; a chart's heading wrapped onto
    three lines (a long run name in a narrow chart) gets a row as tall as its lines."""
    from PySide6.QtGui import QFont, QFontMetrics

    from yardstick.gui.charts.base import ChartWidget
    from yardstick.presentation.charts.chart_fonts import HEADING_PT
    from yardstick.presentation.charts.figure_spec import FigureSpec, Line, Plot, Style

    name = "ICTNET_run_neural_reranker_bert_large_fold5_final"
    chart = ChartWidget()
    qtbot.addWidget(chart)
    chart.resize(420, 300)
    chart.show()
    qtbot.waitExposed(chart)
    line = Line([0, 1], [0.0, 1.0], Style("#1f77b4", 1.5), name=name, run=name)
    chart.show_figure(FigureSpec(f"Topic 301 — {name}: after rank 20 (R = 389)",
                                 (Plot("", series=(line,)),)))
    qtbot.wait(200)                                 # the layout settles (and a redraw)
    title = chart.plot_item.titleLabel
    lines = title.text.count("<br>") + 1
    assert lines >= 3
    font = QFont(title.item.font())
    font.setPointSizeF(HEADING_PT)
    needed = lines * QFontMetrics(font).lineSpacing()
    assert title.item.boundingRect().height() >= needed - 4
    assert title.geometry().height() >= title.item.boundingRect().height()
