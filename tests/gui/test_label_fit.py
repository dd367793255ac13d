"""Point labels on screen stay inside the plot and apart (issue 28: "labels of scatter and
legend never overlap or clip"): a label placed for the figure's nominal size that runs out
of a narrower plot takes another corner, or is hidden and the heading says so."""

from __future__ import annotations

import pyqtgraph as pg

from yardstick.gui.charts.label_fit import fit_labels, labelled_note


def _plot(qtbot, width=300, height=200):
    w = pg.PlotWidget()
    w.resize(width, height)
    w.setXRange(0, 1, padding=0)
    w.setYRange(0, 1, padding=0)
    w.show()
    qtbot.waitExposed(w)
    return w


def _label(w, text, x, y, anchor=(0.0, 1.0)):
    t = pg.TextItem(text, anchor=anchor)
    t.setPos(x, y)
    w.getPlotItem().addItem(t)
    return t


def test_a_label_running_out_at_the_right_takes_the_left_corner(qtbot):
    w = _plot(qtbot)
    vb = w.getPlotItem().getViewBox()
    t = _label(w, "a-rather-long-run-name-0", 0.95, 0.5)
    qtbot.wait(10)
    assert not vb.sceneBoundingRect().contains(t.sceneBoundingRect())   # as placed: out
    assert fit_labels(vb, [(t, (0.0, 1.0))]) == 1
    assert t.isVisible() and tuple(t.anchor) == (1.0, 1.0)              # right-aligned now
    assert vb.sceneBoundingRect().contains(t.sceneBoundingRect())


def test_a_label_over_one_kept_before_moves_or_is_hidden(qtbot):
    w = _plot(qtbot)
    vb = w.getPlotItem().getViewBox()
    first = _label(w, "first-run", 0.5, 0.5)
    second = _label(w, "second-run", 0.5, 0.5)
    third = _label(w, "third-run", 0.5, 0.5)
    fourth = _label(w, "fourth-run", 0.5, 0.5)
    fifth = _label(w, "fifth-run", 0.5, 0.5)
    items = [(t, (0.0, 1.0)) for t in (first, second, third, fourth, fifth)]
    qtbot.wait(10)
    assert fit_labels(vb, items) == 4              # four corners around one point
    assert [t.isVisible() for t, _ in items] == [True, True, True, True, False]
    rects = [t.sceneBoundingRect() for t, _ in items[:4]]
    assert not any(a.intersects(b) for i, a in enumerate(rects) for b in rects[i + 1:])


def test_the_heading_counts_the_labels_shown():
    note = "top 12 of 150 runs by map; 7 of 12 labelled (hover for the others)"
    assert labelled_note(note, 5, 7, 12) == \
        "top 12 of 150 runs by map; 5 of 12 labelled (hover for the others)"
    assert labelled_note("top 12 of 150 runs by map", 10, 12, 12) == \
        "top 12 of 150 runs by map; 10 of 12 labelled (hover for the others)"
    assert labelled_note(note, 7, 7, 12) == note
