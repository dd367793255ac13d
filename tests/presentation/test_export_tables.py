"""Table exports open again and hold the data (core/presentation/export/tables.py)."""

import io

import numpy as np
import pandas as pd
import pytest

from yardstick.presentation.export.tables import format_for, table_to_text, write_table


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


def test_csv_roundtrip_keeps_full_precision(tmp_path, frame):
    frame = frame.assign(P_5=[1 / 3, 0.1 + 0.2])             # values with no short decimal
    p = write_table(frame, tmp_path / "t.csv")
    text = p.read_text()
    assert "0.232912," in text
    assert "2621," in text and "2621.0" not in text          # counts print as integers
    back = pd.read_csv(p, index_col="run")
    assert back.loc["Cor7A1clt", "map"] == 0.232912
    assert back.loc["Cor7A1clt", "P_5"] == 1 / 3               # bit for bit
    assert back.loc["run&2", "P_5"] == 0.1 + 0.2
    assert back.loc["run&2", "num_rel_ret"] == 2400
    assert back.loc["run&2", "note"] == "x|y"


def test_decimals_argument_for_reading_formats_only(tmp_path, frame):
    text = table_to_text(frame, "markdown", decimals=2)
    assert " 0.23 " in text
    text = table_to_text(frame, "markdown", decimals={"map": 6})
    assert " 0.232912 " in text and " 0.4280 " in text
    assert "0.232912," in table_to_text(frame, "csv", decimals=2)   # CSV keeps everything


def test_xlsx_roundtrip_numbers_stay_numeric_with_markers(tmp_path, frame, markers):
    openpyxl = pytest.importorskip("openpyxl")
    from openpyxl.cell.rich_text import CellRichText

    p = write_table(frame, tmp_path / "t.xlsx", markers=markers, caption="Summary")
    back = pd.read_excel(p, index_col=0, sheet_name="table")
    # tidy, like the CSV: the marks in their own columns, the numbers numbers
    assert list(back.columns) == ["map", "map_marker", "P_5", "P_5_marker", "num_rel_ret",
                                  "note"]
    assert back.loc["Cor7A1clt", "map"] == pytest.approx(0.232912)   # full value stored
    assert back.loc["run&2", "num_rel_ret"] == 2400
    assert back["map_marker"].fillna("").tolist() == ["†", ""]
    wb = openpyxl.load_workbook(p, rich_text=True)
    ws = wb["table"]
    assert ws["B2"].number_format == "0.0000" and ws["B2"].data_type == "n"
    assert ws["F2"].number_format == "0"
    # the formatted sheet: the value with its mark as a real superscript
    fm = wb["formatted"]
    rich = fm["B2"].value
    assert isinstance(rich, CellRichText)
    assert [str(b.text) for b in rich] == ["0.2329", "†"]
    assert rich[1].font.vertAlign == "superscript"
    assert fm["C2"].value == 0.428 and fm["C2"].number_format == "0.0000"   # unmarked: a number
    assert fm["D2"].number_format == "0"


def test_latex_booktabs_with_markers(tmp_path, frame, markers):
    p = write_table(frame, tmp_path / "t.tex", markers=markers, caption="MAP & P@5")
    tex = p.read_text()
    for token in (r"\toprule", r"\midrule", r"\bottomrule", r"\begin{tabular}{lr@{}lr@{}lrl}",
                  r"\caption{MAP \& P@5}"):
        assert token in tex
    # a marked column is two (r@{}l): numbers aligned, the superscript after them
    assert r"Cor7A1clt & 0.2329 & \textsuperscript{\dag{}} & 0.4280 &  & 2621 & a\_b \\" in tex
    assert r"run\&2 & 0.1900 &  & 0.5000 & \textsuperscript{\dag{}} & 2400 & x|y \\" in tex
    assert (r"run & \multicolumn{2}{c}{map} & \multicolumn{2}{c}{P\_5} & num\_rel\_ret & "
            r"note \\") in tex


def test_string_markers(frame):
    m = pd.DataFrame({"map": ["a", ""]}, index=frame.index)
    tex = table_to_text(frame, "latex", markers=m)
    assert r"0.2329 & \textsuperscript{a}" in tex
    assert r"0.1900 & \textsuperscript" not in tex


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
    assert text.splitlines() == ["run\tmap", "Cor7A1clt\t0.232912", "run&2\t0.19"]


def test_range_index_not_written_and_nan_blank():
    f = pd.DataFrame({"a": [1.0, np.nan], "b": [3, 4]})
    assert table_to_text(f, "csv").splitlines() == ["a,b", "1.0,3", ",4"]


def test_failed_write_leaves_old_file(tmp_path, frame):
    p = tmp_path / "t.csv"
    p.write_text("old")
    with pytest.raises(TypeError):
        write_table([1, 2], p)
    assert p.read_text() == "old"
    assert list(tmp_path.iterdir()) == [p]


def _prov():
    from yardstick.common.provenance import Provenance, RunSource

    return Provenance(yardstick_version="0.1.0", created="2026-01-01T00:00:00+00:00",
                      qrels_file="qrels.robust04", qrels_sha256="cd" * 32,
                      runs=(RunSource("input.aplrob03a.gz", "aplrob03a", "ef" * 32),),
                      measures=("map",), options={"complete": True}, compat=9,
                      interpolation="rule nine", seeds={"randomisation": 3})


def test_xlsx_full_precision_bold_and_provenance_sheet(tmp_path, frame):
    openpyxl = pytest.importorskip("openpyxl")
    frame = frame.assign(map=[1 / 3, 0.1 + 0.2])
    bold = pd.DataFrame({"map": [True, False]}, index=frame.index)
    p = write_table(frame, tmp_path / "t.xlsx", bold=bold, provenance=_prov())
    wb = openpyxl.load_workbook(p)
    ws = wb["table"]
    assert isinstance(ws["B2"].value, float) and ws["B2"].value == 1 / 3   # bit for bit
    assert ws["B3"].value == 0.1 + 0.2 and ws["B2"].font.bold and not ws["B3"].font.bold
    rows = {r[0]: r[1] for r in wb["provenance"].iter_rows(values_only=True)}
    assert rows["Qrels SHA-256"] == "cd" * 32 and rows["Seed (randomisation)"] == "3"
    assert rows["Run"].startswith("aplrob03a (input.aplrob03a.gz)")
    assert [n for n in tmp_path.iterdir()] == [p]                 # no sidecar for xlsx


def test_provenance_beside_csv_and_markdown_and_in_latex(tmp_path, frame):
    import json

    for name in ("t.csv", "u.md"):
        write_table(frame, tmp_path / name, provenance=_prov())
    for name in ("t.provenance.json", "u.provenance.json"):
        d = json.loads((tmp_path / name).read_text())
        assert d["qrels"] == {"file": "qrels.robust04", "sha256": "cd" * 32}
        assert d["runs"][0]["tag"] == "aplrob03a" and d["seeds"] == {"randomisation": 3}
    tex = table_to_text(frame, "latex", provenance=_prov())
    assert "% Qrels SHA-256: " + "cd" * 32 in tex.splitlines()
    assert "% Interpolation: rule nine" in tex.splitlines()


def test_latex_markers_need_no_extra_package(frame):
    m = pd.DataFrame({"map": ["▲", "▼"]}, index=frame.index)
    tex = table_to_text(frame, "latex", markers=m)
    assert r"\textsuperscript{$\bigtriangleup$}" in tex
    assert r"\textsuperscript{$\bigtriangledown$}" in tex
    assert "blacktriangle" not in tex and "▲" not in tex


def compile_latex(tmp_path, body: str) -> bytes:
    """pdflatex a document holding ``body``; skip when pdflatex is not installed."""
    import shutil
    import subprocess

    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex not installed (texlive-latex-base; .ci/run installs it)")
    for sty in ("booktabs.sty", "longtable.sty"):
        if subprocess.run(["kpsewhich", sty], capture_output=True).returncode != 0:
            pytest.skip(f"{sty} not installed (texlive-latex-recommended)")
    doc = ("\\documentclass{article}\n\\usepackage{booktabs,longtable}\n\\begin{document}\n"
           + body + "\\end{document}\n")
    (tmp_path / "doc.tex").write_text(doc, encoding="utf-8")
    for _ in range(3):      # a longtable settles its column widths in two or three runs
        r = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                            "doc.tex"], cwd=tmp_path, capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == 0, r.stdout[-2000:]
        log = (tmp_path / "doc.log").read_text(errors="replace")
        if "Table widths have changed" not in log:
            break
    assert "Table widths have changed" not in log and "Overfull \\hbox" not in log
    return (tmp_path / "doc.pdf").read_bytes()


def test_latex_compiles_with_pdflatex(tmp_path, frame, markers):
    m = markers.astype(object).where(markers, "▲‡")
    bold = markers
    tex = table_to_text(frame, "latex", markers=m, bold=bold, caption="MAP & P@5 (α = 0.05)",
                        provenance=_prov())
    assert compile_latex(tmp_path, tex).startswith(b"%PDF")


def test_csv_markers_get_their_own_column(frame, markers):
    lines = table_to_text(frame, "csv", markers=markers).splitlines()
    assert lines[0] == "run,map,map_marker,P_5,P_5_marker,num_rel_ret,note"
    assert lines[1] == "Cor7A1clt,0.232912,†,0.428,,2621,a_b"


def test_long_latex_table_breaks_across_pages(tmp_path):
    f = pd.DataFrame({"map": np.linspace(0, 1, 150)},
                     index=pd.Index([f"team{i:03d}a" for i in range(150)], name="run"))
    tex = table_to_text(f, "latex", caption="150 runs", markers=f[["map"]] > 0.9)
    assert r"\begin{longtable}{lr@{}l}" in tex and tex.count(r"\toprule") == 2   # header repeats
    import shutil
    import subprocess

    compile_latex(tmp_path, tex)
    if shutil.which("pdfinfo"):
        info = subprocess.run(["pdfinfo", str(tmp_path / "doc.pdf")], capture_output=True,
                              text=True).stdout
        pages = int(next(x for x in info.splitlines() if x.startswith("Pages:")).split()[1])
        assert pages >= 3                    # 150 rows do not fit on one or two pages


def test_undecodable_run_tags_leave_as_their_bytes(tmp_path):
    """A run tag read from Latin-1 bytes (surrogateescape) is written back byte for byte in
    data formats (CSV, Markdown); XLSX, whose XML cannot hold the byte, and LaTeX, which
    pdflatex must read as UTF-8 ('Invalid UTF-8 byte' stopped it), show it as an escape."""
    openpyxl = pytest.importorskip("openpyxl")
    tag = b"caf\xe9".decode("utf-8", "surrogateescape")
    f = pd.DataFrame({"map": [0.25]}, index=pd.Index([tag], dtype=object, name="run"))
    prov = _prov()
    for name in ("t.csv", "t.md"):
        data = write_table(f, tmp_path / name, provenance=prov).read_bytes()
        assert b"caf\xe9" in data
    tex = write_table(f, tmp_path / "t.tex", provenance=prov).read_bytes()
    assert b"caf\\textbackslash{}xe9" in tex and b"\xe9" not in tex
    wb = openpyxl.load_workbook(write_table(f, tmp_path / "t.xlsx", provenance=prov))
    assert wb["table"]["A2"].value == "caf\\xe9" and wb["table"]["B2"].value == 0.25


def test_a_value_rounding_to_zero_is_never_a_signed_zero_in_any_format():
    # a confidence interval's low end just below zero, an exact negative zero, a zero
    frame = pd.DataFrame({"CI low": [-1.2e-05, -0.0, 0.0], "CI high": [0.25, 3e-06, 0.5]},
                         index=pd.Index(["a", "b", "c"], name="run"))
    for fmt in ("latex", "markdown", "html", "text"):
        text = table_to_text(frame, fmt)
        assert "-0.0000" not in text, fmt
        assert "-1.2e-05" in text and "3e-06" in text and "0.0000" in text, fmt


def test_a_transposed_row_keeps_its_numbers_numeric(tmp_path):
    """``archive``'s per-track file is one row of the archive table turned into a frame
    (``row.to_frame().T``: every column ``object``): its numbers stay numbers —
    right-aligned in LaTeX and Markdown, numeric cells in XLSX."""
    import openpyxl

    row = pd.DataFrame({"track": ["t"], "runs": [12], "depth": [0.5]}).iloc[0]
    frame = row.to_frame().T.reset_index(drop=True)
    assert all(pd.api.types.is_object_dtype(d) for d in frame.dtypes)
    tex = table_to_text(frame, "latex")
    assert r"\begin{tabular}{lrr}" in tex
    assert table_to_text(frame, "markdown").splitlines()[1].endswith("---: |")
    write_table(frame, tmp_path / "row.xlsx")
    ws = openpyxl.load_workbook(tmp_path / "row.xlsx").active
    values = [c.value for r in ws.iter_rows() for c in r]
    assert 12 in values and 0.5 in values


def test_pool_files_write_counts_as_integers(tmp_path):
    """Issue #28: ``pool_summary.csv`` wrote ``topics,30.0`` (and did again when the
    export turned every object column numeric); ``earliest_rank.csv`` wrote ranks as
    ``4.0``.  Counts are integers; fractions keep their decimals."""
    from pathlib import Path

    from yardstick.cli import main as cli_main

    ex = Path(__file__).resolve().parents[2] / "resources" / "systems_example"
    runs = sorted(str(p) for p in (ex / "runs").iterdir())[:8]
    assert cli_main(["pool", "--qrels", str(ex / "qrels.nist.txt"), "--depth", "20",
                     "--analysis", "stats", "--analysis", "sources", "--out", str(tmp_path),
                     *runs]) == 0
    summary = dict(line.split(",", 1) for line in
                   (tmp_path / "pool_summary.csv").read_text().splitlines()[1:])
    assert summary["topics"].isdigit() and summary["total_pool_size"].isdigit()
    assert "." in summary["share_relevant"]
    ranks = pd.read_csv(tmp_path / "earliest_rank.csv", dtype=str)["earliest_rank"].dropna()
    assert len(ranks) and ranks.str.isdigit().all()


def test_pool_summary_writes_a_share_of_one_as_a_float_beside_the_counts(tmp_path, capsys):
    """A pool whose every document is judged has ``share_judged`` 1 and
    ``mean_unjudged_10`` 0: they read ``1.0`` / ``1.0000`` like the ``0.9731`` of another
    track, not ``1`` like a count (the summary's whole floats were all made integers);
    the counts stay integers, and the mixed value column is right-aligned."""
    from yardstick.cli import main as cli_main

    docs = [f"d{i}" for i in range(12)]
    runs = []
    for r in range(2):
        path = tmp_path / f"run{r}"
        path.write_text("".join(f"{t} Q0 {d} {k + 1} {20 - k} run{r}\n" for t in ("1", "2")
                                for k, d in enumerate(docs[r:r + 10])))
        runs.append(str(path))
    qrels = tmp_path / "qrels"
    qrels.write_text("".join(f"{t} 0 {d} {int(i % 3 == 0)}\n" for t in ("1", "2")
                             for i, d in enumerate(docs)))
    for fmt, ext in (("csv", "csv"), ("markdown", "md")):
        out = tmp_path / fmt
        assert cli_main(["pool", "--qrels", str(qrels), "--depth", "10", "--analysis",
                         "stats", "--out", str(out), "--format", fmt, *runs]) == 0
        text = (out / f"pool_summary.{ext}").read_text()
        if fmt == "csv":
            summary = dict(line.split(",", 1) for line in text.splitlines()[1:])
            assert summary["share_judged"] == "1.0" and summary["mean_share_judged"] == "1.0"
            assert summary["mean_unjudged_10"] == "0.0"
            assert summary["topics"] == "2" and summary["total_pool_size"] == "22"
        else:
            rows = {c[1].strip(): c[2].strip() for c in
                    (line.split("|") for line in text.splitlines() if line.startswith("|"))}
            assert rows["share_judged"] == "1.0000" and rows["topics"] == "2"
            assert text.splitlines()[1].rstrip().endswith(": |")     # numbers to the right
    # the console's summary too: counts as integers (was judged_outside_pool 0.0000)
    printed = dict(line.split(None, 1) for line in capsys.readouterr().out.split("== pool")[1]
                   .split("\n\n")[0].splitlines()[1:] if len(line.split()) == 2)
    assert printed["topics"] == "2" and printed["boundary_ties"] == "0"
    assert printed["share_judged"] == "1.0000" and printed["mean_pool_size"] == "11.0000"


def test_console_text_writes_each_number_of_a_mixed_column_in_its_kind():
    from yardstick.presentation.export.cells import console_text

    row = pd.Series({"collection": "q.txt", "documents": float("nan"), "runs": 12,
                     "pct_pool_relevant": 62.376238}).to_frame().T
    text = console_text(row, index=False)
    assert "62.3762" in text and "62.376238" not in text and "q.txt" in text
    assert text.split()[-2:] == ["12", "62.3762"]
