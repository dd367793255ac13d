"""A load's new runs are inserted into a shown table (``rowsInserted``), not a model reset;
the sort the user chose places them; a changed row still resets the model."""

from __future__ import annotations

import numpy as np
import pandas as pd
from PySide6.QtCore import Qt

from yardstick.gui.table_view import FrameTableView


def _frame(names, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"map": rng.random(len(names)), "P_10": rng.random(len(names))},
                        index=pd.Index(names, name="run"))


def _shown(view):
    return [view.proxy.index(r, 0).data() for r in range(view.proxy.rowCount())]


def test_rows_added_are_inserted_and_sorted_in(qtbot):
    view = FrameTableView()
    qtbot.addWidget(view)
    whole = _frame([f"run{i}" for i in range(12)])
    view.set_frame(whole.iloc[:5])
    view.sortByColumn(1, Qt.SortOrder.DescendingOrder)
    events = []
    view.source.modelReset.connect(lambda: events.append("reset"))
    view.source.rowsInserted.connect(lambda _p, a, b: events.append((a, b)))
    view.set_frame(whole)
    assert events == [(5, 11)]
    # the order shown is the frame's sorted by map, descending (pandas decides it here)
    assert _shown(view) == list(whole.sort_values("map", ascending=False).index)
    assert view.source.raw(11, 1) == whole["map"].iloc[11]


def test_a_changed_row_resets(qtbot):
    view = FrameTableView()
    qtbot.addWidget(view)
    view.set_frame(_frame(["a", "b", "c"]))
    events = []
    view.source.modelReset.connect(lambda: events.append("reset"))
    view.source.rowsInserted.connect(lambda *_: events.append("insert"))
    changed = _frame(["a", "b", "c", "d"], seed=1)       # same names, other values
    view.set_frame(changed)
    assert events == ["reset"]
    assert [view.source.raw(r, 1) for r in range(4)] == list(changed["map"])
