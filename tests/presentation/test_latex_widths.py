"""Every kind of LaTeX table Yardstick writes compiles inside an A4 and a US-letter text
width, with its caption, and nothing is cut (issue #28: the all-runs ``comparison.tex``
was 1,026 pt too wide, the 3-run ``comparison_pvalues.tex`` 123 pt, stability's
``tukey_map_all.tex`` 54 pt).  pdflatex's log names every overfull box; there must be
none.  Skipped where pdflatex is not installed."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tests.latex_documents import PDFLATEX, overfull_boxes
from yardstick.presentation.export.tables import table_to_text
from yardstick.presentation.reports.baseline_table import baseline_table
from yardstick.presentation.reports.comparison_table import comparison_table

pytestmark = pytest.mark.skipif(PDFLATEX is None, reason="pdflatex is not installed")


def _matrices(k: int, n: int = 30, seed: int = 2):
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.1, 0.6, n)
    runs = [f"team{i % 47:02d}-{'longer.run.name' if i % 5 == 0 else 'run'}{i}"
            for i in range(k)]
    f = pd.DataFrame({r: np.clip(base + rng.normal(0.004 * (k - i), 0.05, n), 0, 1)
                      for i, r in enumerate(runs)},
                     index=pd.Index([str(301 + t) for t in range(n)], name="topic"))
    return {"map": f, "P_10": (f * 0.9).round(1), "ndcg_cut_10": f ** 0.5}


def _tables() -> dict[str, str]:
    out = {}
    big = comparison_table(_matrices(150), order="score")
    f = big.display_frame()
    out["comparison_150"] = table_to_text(f, "latex", markers=big.markers.set_axis(f.index),
                                          bold=big.best.set_axis(f.index),
                                          caption=big.caption)
    small = comparison_table({k: v.iloc[:, :3] for k, v in _matrices(3).items()})
    out["pvalues_3"] = table_to_text(small.pvalues, "latex", caption="Pairwise p-values")
    bt = baseline_table(_matrices(40), ["team00-longer.run.name0", "team01-run1"])
    out["baselines_40"] = table_to_text(bt.means, "latex", markers=bt.markers, bold=bt.best,
                                        caption=bt.caption)
    wide = pd.DataFrame(np.random.default_rng(0).uniform(size=(6, 16)),
                        columns=[f"iprec_at_recall_{x / 10:.2f}" for x in range(11)]
                        + ["map", "Rprec", "P_10", "recip_rank", "bpref"],
                        index=pd.Index([f"run{i}" for i in range(6)], name="run"))
    out["wide_16_measures"] = table_to_text(wide, "latex", caption="Sixteen measures")
    return out


@pytest.mark.parametrize("paper", ["a4paper", "letterpaper"])
@pytest.mark.parametrize("t1", [False, True], ids=["OT1", "T1"])
def test_every_table_kind_fits_the_text_width(tmp_path, paper, t1):
    tables = _tables()
    overfull = overfull_boxes(tables, tmp_path, paper, t1)
    assert overfull == {}, overfull
    assert "comparison_150" and "split into" in tables["comparison_150"] \
        or "fits a 345" in tables["comparison_150"]
    # nothing cut: every measure of the wide table is in some column group
    for m in ("iprec\\_at\\_recall\\_0.00", "iprec\\_at\\_recall\\_1.00", "bpref"):
        assert m in tables["wide_16_measures"]
    assert "split into" in tables["wide_16_measures"]


def test_tukey_groups_read_as_ranges():
    from yardstick.analysis.stability.tukey_hsd import group_label

    assert group_label([0, 1]) == "ab"
    assert group_label(list(range(27))) == "a–aa"
    assert group_label([26, 27]) == "aa,ab"
    assert group_label([]) == ""


def test_a_long_value_in_one_row_of_thousands_is_measured(tmp_path):
    """Rows are measured on a sample of 2,000; the one row of 5,096 whose value was wide
    (stability's disjoint_rates_P_10: a fitted rate 87876364710179635200.0000 on
    Robust03) was not in it, and the table said it fit the page it overran by 38 pt."""
    n = 5096
    rng = np.random.default_rng(1)
    frame = pd.DataFrame({"n": np.repeat(np.arange(1, 53), 98)[:n],
                          "bin_lo": np.tile(np.arange(98) / 100, 52)[:n],
                          "bin_hi": np.tile(np.arange(1, 99) / 100, 52)[:n],
                          "comparisons": rng.integers(0, 40000, n),
                          "swaps": rng.integers(0, 20, n),
                          "rate": rng.uniform(size=n), "fitted": rng.uniform(size=n)})
    sampled = {int(i * n / 2000) for i in range(2000)}
    row = min(set(range(n)) - sampled)                       # between two sampled rows
    frame.loc[row, "fitted"] = 8.787636471017964e19
    text = table_to_text(frame, "latex", caption="disjoint swap rates per size and bin")
    assert overfull_boxes({"rates": text}, tmp_path, "a4paper", True) == {}


def test_a_docno_that_is_not_utf8_compiles(tmp_path):
    """pool's judged_outside_pool.tex wrote a docno's raw bytes (read with
    surrogateescape) and pdflatex stopped: 'Invalid UTF-8 byte "FF'.  They read \\xff."""
    docno = b"d\xff\xfeoc".decode("utf-8", "surrogateescape")
    frame = pd.DataFrame({"topic": ["301", "302"], "rel": [1, 0],
                          "docno": pd.Series([docno, "DOC1"], dtype=object)})
    text = table_to_text(frame, "latex", caption="judged outside the pool")
    text.encode("utf-8")                                   # no surrogate left to write raw
    assert r"d\textbackslash{}xff\textbackslash{}xfeoc" in text
    (tmp_path / "raw.tex").write_bytes(text.encode("utf-8", "surrogateescape"))
    assert overfull_boxes({"docnos": (tmp_path / "raw.tex").read_text()}, tmp_path) == {}
