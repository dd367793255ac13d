"""The window's tables show counts (``num_ret``, ``num_rel``, ``num_rel_ret`` ... as rows of
the Topic explorer's what-if table, or as columns) as trec_eval prints them: ``1000``, not
``1000.0000`` (issue #28, seen at 1280x800 on a 150-run track), while the frame keeps its
float dtype (an object frame changed the columns' fitted widths)."""

from __future__ import annotations

import pandas as pd
from PySide6.QtCore import Qt

from yardstick.gui.table_model import DataFrameModel


def _shown(model, r, c):
    return model.data(model.index(r, c), Qt.ItemDataRole.DisplayRole)


def _what_if_frame() -> pd.DataFrame:
    # the shape of gui.teaching_views.what_if_frames: measures as rows, float columns
    return pd.DataFrame({"topic now": [0.3125, 1000.0, 31.0, 12.0],
                         "topic was": [0.2969, 1000.0, 31.0, 11.0],
                         "mean now": [0.2512, 49000.0, 1837.0, 1042.5],
                         "mean was": [0.2509, 49000.0, 1837.0, 1041.0]},
                        index=pd.Index(["map", "num_ret", "num_rel", "num_rel_ret"]))


def test_count_rows_of_the_what_if_table_read_as_trec_eval_prints_them():
    frame = _what_if_frame()
    m = DataFrameModel(frame)
    assert all(t.kind == "f" for t in m.frame().dtypes)          # the frame is unchanged
    rows = {m.row_key(r): [_shown(m, r, c) for c in range(1, m.columnCount())]
            for r in range(m.rowCount())}
    assert rows["num_ret"] == ["1000", "1000", "49000", "49000"]
    assert rows["num_rel"] == ["31", "31", "1837", "1837"]
    assert rows["num_rel_ret"] == ["12", "11", "1042.5000", "1041"]   # a fraction stays one
    assert rows["map"] == ["0.3125", "0.2969", "0.2512", "0.2509"]


def test_count_columns_read_as_integers_and_measures_keep_four_decimals():
    frame = pd.DataFrame({"map": [0.31, 0.2], "num_ret": [1000.0, 997.0],
                          "num_rel_ret": [1837.0, float("nan")]},
                         index=pd.Index(["a", "b"], name="run"))
    m = DataFrameModel(frame)
    texts = [[_shown(m, r, c) for c in range(m.columnCount())] for r in range(m.rowCount())]
    assert texts == [["a", "0.3100", "1000", "1837"], ["b", "0.2000", "997", ""]]


def test_a_count_column_is_sized_for_the_integer_it_shows(qtbot):
    from yardstick.gui.table_view import FrameTableView

    view = FrameTableView()
    qtbot.addWidget(view)
    view.resize(900, 400)
    view.set_frame(_what_if_frame())
    view.fit_columns()
    fm = view.fontMetrics()
    col = 3                                                  # "mean now" (the index first)
    assert view.source.data(view.source.index(1, col)) == "49000"
    assert view.columnWidth(col) >= fm.horizontalAdvance("1042.5000") + 12


def test_a_rank_column_with_a_fraction_keeps_its_decimals_in_every_row():
    """As the files decide (``is_count_column``): a ``*rank`` column is shown as counts
    only when every value is whole, so a mean rank column does not mix 2 and 2.5000."""
    frame = pd.DataFrame({"mean_rank": [2.0, 2.5], "earliest_rank": [4.0, float("nan")]},
                         index=pd.Index(["a", "b"], name="run"))
    m = DataFrameModel(frame)
    assert [_shown(m, r, 1) for r in range(2)] == ["2.0000", "2.5000"]
    assert [_shown(m, r, 2) for r in range(2)] == ["4", ""]


def test_recip_rank_is_a_measure_not_a_count():
    """``recip_rank`` ends in "rank" but is 1/rank: a topic's 1.0 reads 1.0000 beside its
    0.0909 (the Topic panel showed 1 and 0.0909 in one column)."""
    frame = pd.DataFrame({"recip_rank": [1.0, 1.0]}, index=pd.Index(["a", "b"], name="run"))
    m = DataFrameModel(frame)
    assert [_shown(m, r, 1) for r in range(2)] == ["1.0000", "1.0000"]
    from yardstick.presentation.export.tables import table_to_text

    assert "1.0000" in table_to_text(frame, "markdown")


def test_precision_at_10_is_a_measure_not_a_p_value():
    """``P_10`` was taken for a p-value column (``p_*``), so a topic's P_10 of 0 read
    ``0`` (an exact p of 0) beside 0.1000 in the Topic panel."""
    frame = pd.DataFrame({"P_10": [0.0, 0.1], "p_vs_best": [0.0, 3e-7]},
                         index=pd.Index(["a", "b"], name="run"))
    m = DataFrameModel(frame)
    assert [_shown(m, r, 1) for r in range(2)] == ["0.0000", "0.1000"]
    assert [_shown(m, r, 2) for r in range(2)] == ["0", "3.00e-07"]


def test_appended_rows_with_a_fraction_turn_a_count_column_back_to_decimals(qtbot):
    """Round five: ``append_rows`` (a load's new runs) kept the count flags of the rows
    shown first; a ``num_rel_ret`` that later gets 1041.5 showed its old rows as integers
    beside it.  Every row of the column now reads as the whole table would."""
    first = pd.DataFrame({"map": [0.31, 0.2], "num_ret": [1000.0, 997.0],
                          "num_rel_ret": [12.0, 11.0]},
                         index=pd.Index(["a", "b"], name="run"))
    m = DataFrameModel(first)
    assert _shown(m, 0, 3) == "12"                          # shown (and kept) as a count
    changed = []
    m.dataChanged.connect(lambda tl, br, roles: changed.append((tl.column(), tl.row(),
                                                                br.row())))
    more = pd.concat([first, pd.DataFrame({"map": [0.1], "num_ret": [990.0],
                                           "num_rel_ret": [1041.5]},
                                          index=pd.Index(["c"], name="run"))])
    assert m.append_rows(more)
    assert [_shown(m, r, 3) for r in range(3)] == ["12.0000", "11.0000", "1041.5000"]
    assert [_shown(m, r, 2) for r in range(3)] == ["1000", "997", "990"]   # still counts
    # what a fresh model of the whole frame shows, cell for cell
    fresh = DataFrameModel(more)
    assert all(_shown(m, r, c) == _shown(fresh, r, c) for r in range(3) for c in range(4))
    assert changed == [(3, 0, 1)]                           # the old rows repainted
