"""The TREC appendix reports: numbers against hand counts, pytrec_eval and NIST; files render."""

import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest
from pytrec_evaluations import REAL_ROBUST03, ROBUST03, pytrec_evaluations

from tests.shared_data import data_dir
from yardstick.cli import main as cli_main
from yardstick.common.options import EvalOptions
from yardstick.common.progress import run_sync
from yardstick.inputs.io import read_qrels, read_run
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.ranking import trec_order
from yardstick.inputs.run import Run
from yardstick.judging.judged import NONPOOL, UNJUDGED
from yardstick.presentation.charts.first_relevant import (
    first_relevant_ranks,
    found_by_rank,
    rank_histogram,
)
from yardstick.presentation.charts.ranked_relevance import ranked_relevance
from yardstick.presentation.reports.adhoc import ADHOC_MEASURES, adhoc_report, adhoc_tables
from yardstick.presentation.reports.filtering import filtering_report, set_scores
from yardstick.presentation.reports.known_item import known_item_report, known_item_summary
from yardstick.presentation.reports.qa import qa_ranks, qa_summary
from yardstick.presentation.reports.render import render_html, write_report
from yardstick.session.evaluating import evaluate_runs

TE = data_dir("trec_eval_tests") / "v10.0_HEAD"


def ranked_run(name, lists):
    """{topic: [docno, ...]} best first -> Run with descending scores."""
    return Run.from_dict({t: {d: float(len(docs) - i) for i, d in enumerate(docs)}
                          for t, docs in lists.items()}, name=name)


# --- known item -------------------------------------------------------------

def known_item_data():
    # known item per topic "k<t>"; first correct at rank 1, 3, 12, not retrieved, and
    # topic 5 has no run lines at all
    qrels = Qrels.from_dict({t: {f"k{t}": 1, f"x{t}": 0} for t in ("1", "2", "3", "4", "5")})
    docs = {"1": ["k1"] + [f"n{i}" for i in range(20)],
            "2": ["n1", "n2", "k2", "n3"],
            "3": [f"n{i}" for i in range(11)] + ["k3"],
            "4": [f"n{i}" for i in range(150)]}
    other = {"1": ["n1", "k1"], "2": ["k2"], "3": ["k3"], "4": ["n1", "n2", "k4"], "5": ["k5"]}
    return qrels, ranked_run("A", docs), ranked_run("B", other)


def test_known_item_summary_by_hand():
    qrels, a, b = known_item_data()
    ranks = first_relevant_ranks([a, b], qrels)
    assert ranks["A"].tolist() == [1, 3, 12, np.inf, np.inf]
    assert ranks["B"].tolist() == [2, 1, 1, 3, 1]
    s = known_item_summary(ranks["A"], "A")
    assert s.n_topics == 5
    assert s.mrr == pytest.approx((1 + 1 / 3 + 1 / 12) / 5)
    assert (s.found_at_1, s.found_in_10, s.not_in_100) == (1, 2, 2)
    assert s.to_frame().loc["Num found in top 10", "value"] == "2 (40.0%)"
    # cumulative % found: 20% by rank 1, 40% by 3, 60% by 12; the median run of A and B
    # answers at (1+2)/2, (3+1)/2, (12+1)/2, inf, inf -> 0% at rank 1, 40% by 2, 60% by 6.5
    fbr = found_by_rank(ranks, "A", max_rank=20)
    assert fbr.run_percent[[0, 1, 2, 10, 11, 19]].tolist() == [20, 20, 40, 40, 60, 60]
    assert fbr.median_percent[[0, 1, 5, 6]].tolist() == [0, 40, 40, 60]


def test_known_item_mrr_equals_trec_eval_recip_rank():
    qrels = read_qrels(ROBUST03 / "qrels" / "robust03_qrels.txt")
    runs = [read_run(ROBUST03 / "runs" / f"input.{n}.gz") for n in ("aplrob03a", "NLPR03vb10")]
    evs = pytrec_evaluations(runs, qrels, {"recip_rank"})
    ranks = first_relevant_ranks(runs, qrels)
    for r in runs:
        rr = evs[r.name].per_topic["recip_rank"]
        mine = 1.0 / ranks[r.name].reindex(rr.index)
        assert mine.to_numpy() == pytest.approx(rr.to_numpy())
        s = known_item_summary(ranks[r.name], r.name)
        assert s.found_at_1 == int((rr == 1).sum())
    assert len(ranks) == 100
    doc = known_item_report(runs, qrels, report_runs=["input.aplrob03a"])
    assert doc.table(0, "summary").loc["Mean reciprocal rank", "value"] == round(
        evs["input.aplrob03a"].per_topic["recip_rank"].mean(), 4)


# --- QA ---------------------------------------------------------------------

def test_qa_strict_and_lenient_by_hand():
    # rel 2 = supported (strict), rel 1 = unsupported (lenient only)
    qrels = Qrels.from_dict({"q1": {"a": 1, "b": 2}, "q2": {"c": 2}, "q3": {"d": 1}})
    run = ranked_run("R", {"q1": ["a", "b", "z"],
                           "q2": ["z1", "z2", "z3", "z4", "z5", "c"],   # rank 6: too late
                           "q3": ["z1", "z2", "z3", "z4", "d"]})
    strict, lenient = qa_ranks([run], qrels)
    assert strict["R"].tolist() == [2, np.inf, np.inf]
    assert lenient["R"].tolist() == [1, np.inf, 5]
    s = qa_summary(strict["R"], lenient["R"], "R")
    assert s.mrr_strict == pytest.approx(0.5 / 3)
    assert s.mrr_lenient == pytest.approx((1 + 0.2) / 3)
    assert (s.not_found_strict, s.not_found_lenient) == (2, 1)
    h = rank_histogram(lenient, "R")
    assert h.run_counts.tolist() == [1, 0, 0, 0, 1, 1]


# --- filtering --------------------------------------------------------------

def test_filtering_set_measures_by_hand():
    qrels = Qrels.from_dict({"A": {"r1": 1, "r2": 1, "r3": 1, "r4": 1, "n1": 0},
                             "B": {"r1": 1},
                             "C": {"r1": 1, "r2": 1}})
    run = ranked_run("F", {"A": ["r1", "n1", "r2"], "C": [f"u{i}" for i in range(150)]})
    s = set_scores(run, qrels)
    a, b, c = s.loc["A"], s.loc["B"], s.loc["C"]
    # A: R+ = 2, N+ = 1, R- = 2 -> T10F = 1.25*2 / (.25*2 + 1 + 1.25*2) = 0.625,
    #    T10U = 2*2 - 1 = 3, scaled (3 + 100) / (2*4 + 100)
    assert (a["R+"], a["N+"], a["R-"]) == (2, 1, 2)
    assert a["T10F"] == pytest.approx(0.625) and a["T10U"] == 3
    assert a["T10SU"] == pytest.approx(103 / 108)
    assert (a["precision"], a["recall"]) == pytest.approx((2 / 3, 0.5))
    # B: nothing retrieved (zero return): T10F 0, T10U 0, scaled 100 / 102
    assert (b["retrieved"], b["T10F"], b["T10U"]) == (0, 0, 0)
    assert b["T10SU"] == pytest.approx(100 / 102)
    # C: 150 unjudged = non-relevant: T10U = -150, clipped at -100 -> scaled 0
    assert (c["N+"], c["T10U"], c["T10SU"], c["T10F"]) == (150, -150, 0, 0)
    other = ranked_run("G", {"A": ["r1"], "B": ["r1"], "C": ["r1", "r2"]})
    doc = filtering_report([run, other], qrels, optimized_for="T10F")
    summ = doc.table(0, "summary")["value"]
    assert summ["Zero returns"] == 1 and summ["Total retrieved"] == 153
    assert summ["Mean F-Beta"] == round(0.625 / 3, 4)
    assert summ["Mean T10SU"] == round((103 / 108 + 100 / 102) / 3, 4)


# --- ad hoc ---------------------------------------------------------------

@pytest.fixture(scope="module")
def robust_adhoc():
    qrels = read_qrels(ROBUST03 / "qrels" / "robust03_qrels.txt")
    runs = [read_run(ROBUST03 / "runs" / f"input.{n}.gz") for n in ("aplrob03a", "UIUC03Rd1")]
    return runs, qrels, run_sync(evaluate_runs(runs, qrels, ADHOC_MEASURES))


def test_adhoc_tables_equal_nist_and_pytrec_eval(robust_adhoc):
    runs, qrels, evs = robust_adhoc
    t = adhoc_tables(evs["input.aplrob03a"])
    ref = pytrec_evaluations(runs[:1], qrels, {"num_ret", "num_rel", "num_rel_ret"})
    pt = ref["input.aplrob03a"].per_topic
    s = t.summary["value"]
    assert s["Number of Topics"] == 100
    assert (s["Retrieved"], s["Relevant"], s["Rel_ret"]) == (
        pt["num_ret"].sum(), pt["num_rel"].sum(), pt["num_rel_ret"].sum())
    # pytrec_eval on the same files; on the real runs also the NIST TREC-browser summary
    # for aplrob03a: map .2998, Rprec .3088, P_100 .1864, P_1000 .0417
    want = pytrec_evaluations(runs[:1], qrels, {"map", "Rprec", "P"})["input.aplrob03a"].summary
    if REAL_ROBUST03:
        assert (round(want["map"], 4), round(want["Rprec"], 4), round(want["P_100"], 4),
                round(want["P_1000"], 4)) == (0.2998, 0.3088, 0.1864, 0.0417)
    assert t.recall_levels.loc["Non-interpolated AP", "Precision"] == pytest.approx(want["map"])
    d = t.document_levels["Precision"]
    assert (d["R-Precision (exact)"], d["At 100 docs"], d["At 1000 docs"]) == pytest.approx(
        (want["Rprec"], want["P_100"], want["P_1000"]))
    assert list(t.recall_levels.index[:11]) == [f"{x / 10:.2f}" for x in range(11)]


def test_adhoc_report_renders(robust_adhoc, tmp_path):
    runs, qrels, evs = robust_adhoc
    doc = adhoc_report(evs)
    assert [p.title for p in doc.pages] == ["All runs", "input.aplrob03a", "input.UIUC03Rd1"]
    hist = doc.pages[1].figures[1].data
    med = pd.concat([evs[n].per_topic["map"] for n in evs], axis=1).median(axis=1)
    assert hist["difference"].to_numpy() == pytest.approx(
        (evs["input.aplrob03a"].per_topic["map"] - med).loc[hist.index].to_numpy())
    html = render_html(doc)
    # all runs: curves and system ranking; per run: curve and histogram
    assert html.count("<svg") == 6 and "Recall Level Precision Averages" in html
    assert f"{evs['input.aplrob03a'].summary['map']:.4f}" in html
    written = write_report(doc, tmp_path)
    csv = pd.read_csv(tmp_path / "input.aplrob03a" / "document_levels.csv", index_col=0)
    assert csv.loc["At 1000 docs", "precision"] == evs["input.aplrob03a"].summary["P_1000"]
    png = (tmp_path / "input.aplrob03a" / "recall_precision.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert tmp_path / "adhoc_report.pdf" in written
    # 3 report pages; each run's page continues on a second sheet holding its
    # 100-topic histogram in two rows of 50 topics
    _check_pdf_pages(tmp_path / "adhoc_report.pdf", 5, tmp_path)


def test_report_figures_rendered_on_worker_processes(robust_adhoc, tmp_path, monkeypatch):
    """A large report renders its figure files on spawned worker processes while this one
    writes the PDF (reports/figure_pool.py); the files must be those this process renders
    (PNG byte for byte; SVG and PDF carry random ids and dates), and the HTML must inline
    every figure."""
    import yardstick.presentation.reports.figure_pool as figure_pool
    from yardstick.presentation.reports.render import figure_files

    runs, qrels, evs = robust_adhoc
    doc = adhoc_report(evs)
    jobs = figure_files(doc, ("html", "png"), dpi=40)
    assert len(jobs) == 12  # 6 figures, each inline in the HTML and as a PNG file
    with figure_pool.RenderedFigures(jobs, workers=2) as pooled:
        assert pooled._pool is not None
        for key, job in jobs.items():
            if key[0] == "png":
                assert pooled.get(key) == figure_pool.render(job), key
    monkeypatch.setattr(figure_pool, "MIN_POOLED", 2)
    if figure_pool.workers_for(len(jobs)) == 0:
        pytest.skip("one CPU: a report is rendered in this process")
    write_report(doc, tmp_path, ("html", "png"), dpi=40)
    png = (tmp_path / "input.UIUC03Rd1" / "map_vs_median.png").read_bytes()
    assert png == figure_pool.render(jobs["png", 2, 1])
    assert (tmp_path / "adhoc_report.html").read_text().count("<svg") == 6


def _check_pdf_pages(pdf, n_pages, tmp_path):
    data = pdf.read_bytes()
    assert data[:5] == b"%PDF-"
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (poppler-utils) not installed")
    r = subprocess.run(["pdftoppm", "-r", "20", "-png", str(pdf), str(tmp_path / "page")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    pages = sorted(tmp_path.glob("page-*.png"))
    assert len(pages) == n_pages


def test_cli_report_on_trec_eval_test_files(tmp_path):
    if not TE.exists():
        pytest.skip("trec_eval test data absent")
    out = tmp_path / "out"
    code = cli_main(["report", "--kind", "adhoc", "--qrels", str(TE / "qrels.test"),
                     str(TE / "results.test"), str(TE / "results.trunc"), "--out", str(out),
                     "--run", "results.test"])
    assert code == 0
    # trec_eval's golden summary (out.test): map 0.1785, P_5 0.2667, num_rel_ret 131
    s = pd.read_csv(out / "results.test" / "summary.csv", index_col=0)["value"]
    assert s["Rel_ret"] == "131" or s["Rel_ret"] == 131
    rl = pd.read_csv(out / "results.test" / "recall_levels.csv", index_col=0)["precision"]
    assert round(rl["Non-interpolated AP"], 4) == 0.1785
    dl = pd.read_csv(out / "results.test" / "document_levels.csv", index_col=0)["precision"]
    assert round(dl["At 5 docs"], 4) == 0.2667
    # the summary of both runs, the page of the run asked for, the provenance sheet
    _check_pdf_pages(out / "adhoc_report.pdf", 3, tmp_path)
    for kind in ("known-item", "filtering", "qa"):
        assert cli_main(["report", "--kind", kind, "--qrels", str(TE / "qrels.test"),
                         str(TE / "results.test"), "--out", str(out / kind),
                         "--formats", "html,assets"]) == 0
        assert (out / kind / f"{kind}_report.html").exists()
    ki = pd.read_csv(out / "known-item" / "results.test" / "summary.csv", index_col=0)["value"]
    assert ki["Num topics"] == "3"


def test_cli_rejects_unknown_run(tmp_path, capsys):
    if not TE.exists():
        pytest.skip("trec_eval test data absent")
    code = cli_main(["report", "--qrels", str(TE / "qrels.test"), str(TE / "results.test"),
                     "--out", str(tmp_path), "--run", "nope"])
    assert code == 1
    assert "nope" in capsys.readouterr().err


def _ranked_relevance_fallback(run: Run, qrels: Qrels, options: EvalOptions) -> tuple:
    """An independent reference: trec_eval's ordering and a pandas qrels lookup, written plainly."""
    qf = qrels.frame
    q_topics = np.asarray(sorted(set(qf["topic"].astype(str))), dtype=object)
    if options.complete:
        topics = q_topics
    else:
        topics = np.asarray(sorted(set(map(str, run.topics)) & set(q_topics)), dtype=object)
    order = trec_order(run.topic_code, run.score, run.doc_code, options.compat)
    line_topic = np.asarray(run.topics, dtype=object)[run.topic_code[order]].astype(str)
    line_doc = np.asarray(run.docnos, dtype=object)[run.doc_code[order]].astype(str)
    judged = pd.Series(qf["rel"].to_numpy(np.int64),
                       index=pd.MultiIndex.from_arrays([qf["topic"].astype(str),
                                                        qf["docno"].astype(str)]))
    judged = judged[~judged.index.duplicated(keep="last")]
    at = judged.index.get_indexer(pd.MultiIndex.from_arrays([line_topic, line_doc]))
    rel = np.where(at >= 0, judged.to_numpy()[np.maximum(at, 0)], NONPOOL)
    rel = np.where((at >= 0) & (rel < 0), UNJUDGED, rel)
    keep = np.isin(line_topic, topics)
    if options.judged_only:
        keep &= rel != NONPOOL
    line_topic, rel = line_topic[keep], rel[keep]
    t_index = {t: i for i, t in enumerate(topics)}
    seg = np.fromiter((t_index[t] for t in line_topic), dtype=np.int64, count=len(line_topic))
    if options.max_docs is not None:
        counts = np.bincount(seg, minlength=len(topics))
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        pos = np.arange(len(seg)) - starts[seg]
        ok = pos < options.max_docs
        seg, rel = seg[ok], rel[ok]
    counts = np.bincount(seg, minlength=len(topics))
    start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    rel_q = qf[qf["rel"] >= options.relevance_level]
    num_rel = (rel_q.groupby(rel_q["topic"].astype(str)).size()
               .reindex(topics, fill_value=0).to_numpy(np.int64))
    return topics, start, rel.astype(np.int64), num_rel


def test_fallback_ranking_equals_engine():
    if not TE.exists():
        pytest.skip("trec_eval test data absent")
    run, qrels = read_run(TE / "results.trunc"), read_qrels(TE / "qrels.test")
    for opts in (EvalOptions(), EvalOptions(max_docs=100), EvalOptions(relevance_level=2),
                 EvalOptions(complete=True)):
        a = ranked_relevance(run, qrels, opts)
        topics, start, rel, num_rel = _ranked_relevance_fallback(run, qrels, opts)
        assert a.topics.tolist() == topics.tolist()
        assert a.start.tolist() == start.tolist()
        assert a.rel.tolist() == rel.tolist()
        assert a.num_rel.tolist() == num_rel.tolist()
