"""The window's tables show p-values (columns, or rows of a transposed table such as
What-if significance) without a false 0.0000 (issue #28)."""

from __future__ import annotations

import pandas as pd
from PySide6.QtCore import Qt

from yardstick.gui.table_model import DataFrameModel


def _shown(model, r, c):
    return model.data(model.index(r, c), Qt.ItemDataRole.DisplayRole)


def test_p_column_of_compare_table():
    frame = pd.DataFrame({"mean run": [0.31, 0.30], "p t-test": [1.29e-6, 0.0412],
                          "p t (holm)": [2.58e-6, 0.0412]}, index=pd.Index(["a", "b"], name="run"))
    m = DataFrameModel(frame)
    texts = [_shown(m, r, c) for r in range(m.rowCount()) for c in range(m.columnCount())]
    assert "0.0000" not in texts
    assert "1.29e-06" in texts and "2.58e-06" in texts and "0.0412" in texts


def test_p_rows_of_what_if_table():
    frame = pd.DataFrame({"original": pd.Series([0.3, 3e-7, 0.2], dtype=object).to_numpy(),
                          "now": pd.Series([0.31, 0.02, 0.2], dtype=object).to_numpy()},
                         index=pd.Index(["mean run", "p t-test", "CI low"], name="x vs y"))
    m = DataFrameModel(frame)
    texts = [str(_shown(m, r, c)) for r in range(m.rowCount()) for c in range(m.columnCount())]
    assert "0.0000" not in texts
    assert "3.00e-07" in texts


def test_a_p_column_is_as_wide_as_its_scientific_text(qtbot):
    """Widths are measured from the text shown: a column of p = 1e-24 is not sized for
    "0.0000" and then elided to "1....24" (seen at 1280x800 with 150 runs)."""
    from yardstick.gui.table_view import FrameTableView

    frame = pd.DataFrame({"diff": [-0.09] * 30, "p": [1.2345e-24] * 30},
                         index=pd.Index([f"r{i}" for i in range(30)], name="run"))
    view = FrameTableView()
    qtbot.addWidget(view)
    view.resize(900, 400)
    view.set_frame(frame)
    view.fit_columns()
    col = list(frame.columns).index("p") + 1          # (the run column first)
    text = view.source.data(view.source.index(0, col), Qt.ItemDataRole.DisplayRole)
    assert text == "1.23e-24"
    assert view.columnWidth(col) >= view.fontMetrics().horizontalAdvance(text) + 12
