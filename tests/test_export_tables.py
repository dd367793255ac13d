"""Table exports open again and hold the data (core/export/tables.py)."""

import io

import numpy as np
import pandas as pd
import pytest

from yardstick.export.tables import format_for, table_to_text, write_table


@pytest.fixture
def frame():
    # the appendix's sample tables: MAP 0.2329 (Table 2), P@5 0.4280 (Table 3),
    # Rel_ret 2621 (Table 1); a second hand-made run
    f = pd.DataFrame({"map": [0.232912, 0.19], "P_5": [0.428, 0.5],
                      "num_rel_ret": [2621.0, 2400.0], "note": ["a_b", "x|y"]},
                     index=pd.Index(["Cor7A1clt", "run&2"], name="run"))
    return f


@pytest.fixture
def markers():
    return pd.DataFrame({"map": [True, False], "P_5": [False, True]},
                        index=pd.Index(["Cor7A1clt", "run&2"], name="run"))


def test_format_from_suffix():
    assert format_for("a.tex") == "latex"
    assert format_for("a.MD") == "markdown"
    assert format_for("a.csv", "xlsx") == "xlsx"
    with pytest.raises(ValueError):
        format_for("a.docx")


def test_csv_roundtrip_keeps_four_decimals(tmp_path, frame):
    p = write_table(frame, tmp_path / "t.csv")
    text = p.read_text()
    assert "0.2329," in text and "0.232912" not in text
    assert "2621," in text and "2621.0" not in text          # counts print as integers
    back = pd.read_csv(p, index_col="run")
    assert back.loc["Cor7A1clt", "map"] == 0.2329
    assert back.loc["run&2", "P_5"] == 0.5
    assert back.loc["run&2", "num_rel_ret"] == 2400
    assert back.loc["run&2", "note"] == "x|y"


def test_decimals_argument(tmp_path, frame):
    text = table_to_text(frame, "csv", decimals=2)
    assert "0.23," in text
    text = table_to_text(frame, "csv", decimals={"map": 6})
    assert "0.232912," in text and "0.4280" in text


def test_xlsx_roundtrip_numbers_stay_numeric_with_markers(tmp_path, frame, markers):
    openpyxl = pytest.importorskip("openpyxl")
    p = write_table(frame, tmp_path / "t.xlsx", markers=markers, caption="Summary")
    back = pd.read_excel(p, index_col=0)
    assert list(back.columns) == ["map", "P_5", "num_rel_ret", "note"]
    assert back.loc["Cor7A1clt", "map"] == pytest.approx(0.232912)   # full value stored
    assert back.loc["run&2", "num_rel_ret"] == 2400
    ws = openpyxl.load_workbook(p).active
    assert ws["B2"].number_format == '0.0000"†"'        # marker shown by the format
    assert ws["C2"].number_format == "0.0000"
    assert ws["C3"].number_format == '0.0000"†"'
    assert ws["D2"].number_format == "0"


def test_latex_booktabs_with_markers(tmp_path, frame, markers):
    p = write_table(frame, tmp_path / "t.tex", markers=markers, caption="MAP & P@5")
    tex = p.read_text()
    for token in (r"\toprule", r"\midrule", r"\bottomrule", r"\begin{tabular}{lrrrl}",
                  r"\caption{MAP \& P@5}"):
        assert token in tex
    assert r"Cor7A1clt & 0.2329\textsuperscript{\dag{}} & 0.4280 & 2621 & a\_b \\" in tex
    assert r"run\&2 & 0.1900 & 0.5000\textsuperscript{\dag{}} & 2400 & x|y \\" in tex
    assert r"run & map & P\_5 & num\_rel\_ret & note \\" in tex


def test_string_markers(frame):
    m = pd.DataFrame({"map": ["a", ""]}, index=frame.index)
    tex = table_to_text(frame, "latex", markers=m)
    assert r"0.2329\textsuperscript{a}" in tex
    assert r"0.1900\textsuperscript" not in tex


def test_markdown(tmp_path, frame, markers):
    p = write_table(frame, tmp_path / "t.md", markers=markers)
    lines = p.read_text().splitlines()
    assert [c.strip() for c in lines[0].split("|")[1:-1]] == ["run", "map", "P_5",
                                                               "num_rel_ret", "note"]
    assert len({len(line) for line in lines}) == 1             # columns padded to one width
    assert set(lines[1]) <= set("|-: ")
    assert lines[1].split("|")[2].endswith(": ")             # numbers right-aligned
    assert "0.2329<sup>†</sup>" in lines[2]
    assert r"x\|y" in lines[3]                                 # pipe escaped


def test_html_parses_back(tmp_path, frame, markers):
    p = write_table(frame, tmp_path / "t.html", markers=markers, caption="cap <1>")
    text = p.read_text()
    assert "<caption>cap &lt;1&gt;</caption>" in text
    assert "0.2329<sup>†</sup>" in text
    tables = pd.read_html(io.StringIO(text.replace("<sup>†</sup>", ""))) \
        if _has_lxml() else None
    if tables is not None:
        assert tables[0].iloc[0, 1] == 0.2329


def _has_lxml():
    try:
        import lxml  # noqa: F401
        return True
    except ImportError:
        return False


def test_tsv_for_clipboard_and_series(frame):
    text = table_to_text(frame["map"], "tsv")
    assert text.splitlines() == ["run\tmap", "Cor7A1clt\t0.2329", "run&2\t0.1900"]


def test_range_index_not_written_and_nan_blank():
    f = pd.DataFrame({"a": [1.0, np.nan], "b": [3, 4]})
    assert table_to_text(f, "csv").splitlines() == ["a,b", "1.0000,3", ",4"]


def test_failed_write_leaves_old_file(tmp_path, frame):
    p = tmp_path / "t.csv"
    p.write_text("old")
    with pytest.raises(TypeError):
        write_table([1, 2], p)
    assert p.read_text() == "old"
    assert list(tmp_path.iterdir()) == [p]
