"""The analysis panels show their answer columns right after the columns naming a row
(issue 28: Pool's ``red_flag`` sat past the right edge at 1280×800)."""

import pandas as pd

from yardstick.gui.panels.analysis_panel_base import answers_first


def test_answer_columns_follow_the_row_names_and_the_rest_keeps_its_order():
    f = pd.DataFrame({"run": ["a", "b"], "group": ["g", "h"], "score": [0.1, 0.2],
                      "diff": [0.0, 0.1], "percent": [1.0, 6.0], "red_flag": [False, True]})
    shown = answers_first(f, ("contributing", "percent", "red_flag"))
    assert list(shown.columns) == ["run", "group", "percent", "red_flag", "score", "diff"]
    pd.testing.assert_frame_equal(shown[list(f.columns)], f)


def test_a_frame_without_answer_columns_is_shown_as_it_is():
    f = pd.DataFrame({"run": ["a"], "score": [0.1]})
    assert answers_first(f, ("red_flag",)) is f
