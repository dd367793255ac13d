"""NIST's official Robust 2003 / 2004 summary numbers reproduce.

Reference: the TREC browser pages (usnistgov/trec-browser,
``browser/src/docs/trec1{2,3}/robust/results.md``), staged in
``../shared/data/trec_browser_reference/``: for every submitted run, NIST's
``trec_eval`` summary (map, Rprec, P_100, P_1000 and a column labelled
``P_10``) over all topics.  We evaluate the 17 Robust03 runs staged with
trectools and the 10 TREC 2004 submissions staged in ``robust04/`` with the
default options (trec_eval 10.0 semantics, no ``-c``).

Two documented quirks of the reference (``trec_browser_reference/SOURCES.md``):

* the browser's ``P_10`` is really **P@15** for both years (for all 27 runs it
  equals trec_eval's P_15 and not its P_10), so it is compared with P_15;
* Rprec differs by 0.0001 for two Robust03 runs (SABIR03BASE 0.2295,
  THUIRr0301 0.2852 at NIST).  trec_eval 10.0 and 9.0.8 built from source both
  print 0.2296 and 0.2853 for these runs (checked when writing this test), so
  Yardstick must print trec_eval's value, which is within 0.0001 of NIST's.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
REF = DATA / "trec_browser_reference"
QRELS = {"robust03": DATA / "trectools_robust03" / "qrels" / "robust03_qrels.txt",
         "robust04": DATA / "robust04" / "qrels.robust2004.txt"}
RUN_DIRS = {"robust03": DATA / "trectools_robust03" / "runs",
            "robust04": DATA / "robust04" / "runs" / "trec2004_submissions"}
PAGES = {"robust03": REF / "trec12_robust_results.md",
         "robust04": REF / "trec13_robust_results.md"}

#: NIST column -> trec_eval measure it really is
COLUMNS = {"map": "map", "Rprec": "Rprec", "P_100": "P_100", "P_1000": "P_1000", "P_10": "P_15"}

#: (collection, run) -> trec_eval's Rprec where NIST's page is off by 0.0001
RPREC_OFF_BY_ONE = {("robust03", "SABIR03BASE"): "0.2296",
                    ("robust03", "THUIRr0301"): "0.2853"}


def parse_results_page(text: str) -> dict[str, dict[str, str]]:
    """``#### run`` blocks -> {run: {measure: printed value}}."""
    out = {}
    for block in re.split(r"\n#### ", text)[1:]:
        name = block.split()[0]
        out[name] = dict(re.findall(r"\n\t(\w+)\t+all\t([0-9.]+)", block))
    return out


def cases() -> list:
    params = []
    for coll, d in RUN_DIRS.items():
        for p in sorted(d.glob("input.*")) if d.exists() else []:
            params.append(pytest.param(coll, p, id=f"{coll}-{p.name.split('.')[1]}"))
    return params or [pytest.param(None, None, id="no-data")]


@pytest.fixture(scope="module")
def reference():
    return {c: parse_results_page(p.read_text(encoding="utf-8"))
            for c, p in PAGES.items() if p.exists()}


@pytest.fixture(scope="module")
def qrels():
    from yardstick.inputs.io import read_qrels
    return {c: read_qrels(p) for c, p in QRELS.items() if p.exists()}


def test_reference_pages_parse():
    """All 27 staged runs have a NIST block with the five columns (guards the parser)."""
    if not REF.exists():
        pytest.skip("extra check (../shared): trec_browser_reference not staged")
    ref = {c: parse_results_page(p.read_text(encoding="utf-8")) for c, p in PAGES.items()}
    assert len(ref["robust03"]) == 78 and len(ref["robust04"]) == 110   # per SOURCES.md
    assert ref["robust03"]["aplrob03a"] == {"P_10": "0.4020", "P_100": "0.1864",
                                            "P_1000": "0.0417", "Rprec": "0.3088",
                                            "map": "0.2998"}


@pytest.mark.parametrize("coll,run_path", cases())
def test_nist_summary_reproduces(coll, run_path, reference, qrels):
    if coll is None or coll not in reference or coll not in qrels:
        pytest.skip("extra check (../shared): NIST reference data not staged")
    from yardstick.evaluation.evaluation_service import evaluate_run
    from yardstick.inputs.io import read_run

    name = run_path.name.split(".")[1]
    nist = reference[coll][name]
    ev = evaluate_run(read_run(run_path), qrels[coll], ["map", "Rprec", "P.15,100,1000"])
    problems = []
    for col, measure in COLUMNS.items():
        got = "%.4f" % float(ev.summary[measure])
        want = nist[col]
        if col == "Rprec" and (coll, name) in RPREC_OFF_BY_ONE:
            want = RPREC_OFF_BY_ONE[(coll, name)]
            assert abs(float(want) - float(nist[col])) <= 0.0001 + 1e-12
        if got != want:
            problems.append(f"{measure} (NIST column {col}): NIST {nist[col]}, expected {want}, "
                            f"yardstick {got}")
    assert not problems, f"{coll}/{name}: " + "; ".join(problems)
