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
