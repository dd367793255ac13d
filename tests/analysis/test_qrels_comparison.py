"""What a second qrels does to the evaluation, checked against independent computations:
scores against pytrec_eval, tau-b against scipy (with tied runs), tau_AP against a
direct loop over Yilmaz et al.'s (SIGIR 2008) eq. 2, swaps against a brute-force count."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd
import pytest
import pytrec_eval
from scipy import stats

from yardstick.analysis.qrels_comparison import compare_qrels
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run
from yardstick.judging.perturbed_qrels import perturb_grades

_DICTS: dict[str, dict] = {}


def _collection(seed: int = 5, topics: int = 8, docs: int = 40, runs: int = 9):
    rng = np.random.default_rng(seed)
    rows = [(str(t), f"d{d}", int(rng.choice([0, 1, 2], p=[0.6, 0.25, 0.15])))
            for t in range(topics) for d in range(docs)]
    qrels = Qrels.from_frame(pd.DataFrame(rows, columns=["topic", "docno", "rel"]), name="a")
    out, dicts = [], []
    for k in range(runs):
        quality = rng.uniform(0, 2)
        data = {str(t): {f"d{d}": float(quality * g + rng.normal(0, 1))
                         for d, g in enumerate(
                             qrels.frame.loc[qrels.frame["topic"] == str(t), "rel"])}
                for t in range(topics)}
        out.append(Run.from_dict(data, name=f"r{k}"))
        dicts.append(data)
    out.append(Run.from_dict(dicts[0], name="r0copy"))    # an identical run: tied scores
    dicts.append(dicts[0])
    _DICTS.update({r.name: d for r, d in zip(out, dicts)})
    return qrels, out


def _pytrec_map(qrels: Qrels, run: Run, topics) -> float:
    ev = pytrec_eval.RelevanceEvaluator(qrels.to_dict(), {"map"})
    res = ev.evaluate(_DICTS[run.name])
    return float(np.mean([res[t]["map"] for t in topics]))


@pytest.fixture(scope="module")
def comparison():
    qrels, runs = _collection()
    second = perturb_grades(qrels, drop=0.4, add=0.1, seed=3, name="b")
    f = second.frame
    second = second.with_frame(f[f["topic"] != "7"])          # topic 7 judged in a only
    return qrels, second, runs, compare_qrels([qrels, second], runs, "map")


def test_scores_match_pytrec_eval_over_common_topics(comparison):
    qa, qb, runs, cmp = comparison
    assert cmp.topics_one_set["topic"].tolist() == ["7"]
    common = [str(t) for t in range(7)]
    assert cmp.topics == common
    means = cmp.means()
    for r in runs:
        assert means.loc[r.name, "a"] == pytest.approx(_pytrec_map(qa, r, common), abs=1e-12)
        assert means.loc[r.name, "b"] == pytest.approx(_pytrec_map(qb, r, common), abs=1e-12)


def test_tau_b_with_ties_matches_scipy(comparison):
    *_, cmp = comparison
    means = cmp.means()
    assert means.loc["r0", "a"] == means.loc["r0copy", "a"]      # a real tie
    row = cmp.correlations().iloc[0]
    expected = stats.kendalltau(means["a"], means["b"])
    assert row["tau"] == pytest.approx(expected.statistic, abs=1e-12)
    assert row["p_value"] == pytest.approx(expected.pvalue, rel=1e-9)


def test_tau_ap_against_a_direct_loop(comparison):
    *_, cmp = comparison
    means = cmp.means()

    def ranking(s):                  # best first, ties by name (system_ranking's rule)
        return sorted(s.index, key=lambda r: (-s[r], r))

    truth, est = ranking(means["a"]), ranking(means["b"])
    n = len(truth)
    pos = {r: i for i, r in enumerate(truth)}
    total = 0.0
    for i in range(1, n):
        c = sum(1 for j in range(i) if pos[est[j]] < pos[est[i]])
        total += c / i
    expected = 2.0 / (n - 1) * total - 1.0
    assert cmp.correlations().iloc[0]["tau_ap"] == pytest.approx(expected, abs=1e-12)


def test_swaps_count_discordant_pairs(comparison):
    *_, cmp = comparison
    m = cmp.means()
    brute = [(x, y) for x, y in combinations(m.index, 2)
             if (m.loc[x, "a"] - m.loc[y, "a"]) * (m.loc[x, "b"] - m.loc[y, "b"]) < 0]
    sw = cmp.swaps("a", "b")
    assert len(sw) == len(brute) == cmp.correlations().iloc[0]["swaps"]
    assert (sw["diff_a"] > 0).all() and (sw["diff_b"] < 0).all()
    ch = cmp.rank_changes("a", "b")
    assert cmp.correlations().iloc[0]["max_rank_change"] == ch["rank_change"].abs().max()


def test_topic_movers_are_largest_changes(comparison):
    *_, cmp = comparison
    mv = cmp.topic_movers("a", "b", top=2)
    d = cmp.per_topic["b"] - cmp.per_topic["a"]
    for t, part in mv.groupby("topic"):
        biggest = d.loc[t].abs().sort_values(ascending=False, kind="stable")
        assert part["change"].abs().iloc[0] == pytest.approx(biggest.iloc[0])


def test_identical_qrels_agree_fully():
    qrels, runs = _collection(seed=9, runs=4)
    copy = Qrels(qrels.frame.copy(), name="copy")
    cmp = compare_qrels([qrels, copy], runs[:4], "P.5")
    row = cmp.correlations().iloc[0]
    assert row["tau"] == pytest.approx(1.0) and row["swaps"] == 0
    assert row["kappa"] == pytest.approx(1.0) and row["overlap"] == pytest.approx(1.0)


def test_known_scores_are_used_as_given(comparison):
    from yardstick.analysis.qrels_comparison import compare_qrels_job
    from yardstick.common.progress import run_sync

    qa, qb, runs, cmp = comparison
    known = {"a": cmp.per_topic["a"].reindex(cmp.topics + ["7"]).fillna(0.5)}
    again = run_sync(compare_qrels_job([qa, qb], runs, "map", known=known))
    assert again.per_topic["a"].equals(cmp.per_topic["a"])   # cut to the common topics
    assert again.correlations()["tau"].iloc[0] == cmp.correlations()["tau"].iloc[0]
