"""Pool's faster paths give the numbers the code before them gave (issue 30).

* every table of a pool report — hand-built pool, two generated tracks (the inferred
  pool, bpref as the uniques measure, all four simulated strategies) and the generated
  track with Robust 2003's layout (``tests/generated_track.py``) at depth 125 — hashed
  (CSV, floats at full precision) and compared with the hashes the code of commit
  cf12bac wrote for the same inputs (before the re-judged sets were scored on the
  entries the qrels hold);
* the re-judged sets scored on those entries alone against the scoring of every entry
  (the path the pytrec_eval tests of ``test_pool_uniques`` and ``test_pool_simulation``
  check), bit for bit, with UNJUDGED (-2) and NONPOOL (-1) judgments mixed in;
* move-to-front's heap of priorities against the plain loop it replaced.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from pool_fixtures import REAL_ROBUST03, hand_qrels, hand_runs, robust03
from pool_tracks import make_track

from yardstick.analysis.pool import scoring
from yardstick.analysis.pool.pool_choice import choose_pool
from yardstick.analysis.pool.report import PoolSettings, iter_pool_report
from yardstick.analysis.pool.simulation import order_move_to_front
from yardstick.common.progress import run_sync
from yardstick.judging.judged_runs_build import build_judged_runs

ALL_STRATEGIES = ("depth", "runs", "mtf", "random")


def report_digests(case: str, scores_only: bool = False, executor=None) -> dict[str, str]:
    """SHA-256 of every table of the pool report of one case (its CSV); ``scores_only``:
    of the index holding only the runs' scores, as ``yardstick pool`` analyses it."""
    choice = None
    if case == "hand":
        index = build_judged_runs(hand_runs(), hand_qrels())
        settings = PoolSettings(depth=2, strategies=ALL_STRATEGIES, levels={
            "depth": (1, 2), "runs": (1, 2), "mtf": (1, 2, 3), "random": (1, 2, 3)})
    elif case == "robust03":
        runs, qrels = robust03()
        index = build_judged_runs(runs, qrels)
        settings = PoolSettings(depth=125, strategies=ALL_STRATEGIES)
    else:
        runs, qrels, _ = (make_track() if case == "track" else
                          make_track(seed=11, second_depth=10, copies=2))
        choice = choose_pool(build_judged_runs(runs, qrels))
        index = choice.index
        settings = PoolSettings(depth=choice.depth, default_depth=choice.default_depth)
        if case == "track_bpref":
            settings = PoolSettings(depth=choice.depth, default_depth=choice.default_depth,
                                    measure="bpref", min_score=0.05, seed=4,
                                    strategies=ALL_STRATEGIES)
    if scores_only:
        index = index.with_scores_only()
        assert all(r.docno_bytes is None and r.score is not None for r in index.runs)
    report = run_sync(iter_pool_report(
        index, settings, executor=executor, assumptions=choice.assumptions if choice else None,
        inferred=choice.inferred if choice else None))
    return {name: hashlib.sha256(frame.to_csv().encode("utf-8", "surrogateescape")
                                 ).hexdigest()[:16]
            for name, frame in report.tables().items()}


#: written by ``report_digests`` with the code of commit cf12bac
BEFORE: dict[str, dict[str, str]] = {
    "hand": {
        "pool_summary": "0f213d9c412698a5",
        "pool_per_topic": "4201e2ef4ef155d1",
        "pool_per_run": "a69ff1a60a0158a3",
        "judged_outside_pool": "f4098ff01272fb83",
        "pooled_not_in_qrels": "8b3b4b94d04b6c55",
        "earliest_rank": "ce05329e2f7dd66e",
        "earliest_rank_histogram": "409203b1770c2448",
        "p_rel_by_rank": "3ebbf5d0561e92b1",
        "relevant_by_depth": "8259d64b87f90f75",
        "deeper_pool_estimate": "381107e74196b94c",
        "uniques_run": "0076f78cb97d9edf",
        "uniques_run_summary": "68dfcea2242ffd9c",
        "uniques_run_units": "abe36e20f891dc5f",
        "uniques_run_removed": "502083f6f64ab849",
        "uniques_group": "0b43435c76c95089",
        "uniques_group_summary": "152db95ccbaa7457",
        "uniques_group_units": "d9076bd3932fa67e",
        "uniques_group_removed": "359250160d519e94",
        "simulation_depth": "b86cdc91a9381bfe",
        "simulation_runs": "e70037454decb6b6",
        "simulation_mtf": "88a13ffabbbf0709",
        "simulation_random": "07f4e535701da883",
        "characteristics": "7873319d48721148",
    },
    "track": {
        "assumptions": "d927b7a8dbc6d6da",
        "inferred_pool_runs": "03d40c0b5453d59c",
        "inferred_pool_topics": "df146cf19a6c2c07",
        "pool_summary": "4a9bbc29d3c5913a",
        "pool_per_topic": "2ccbbefb8c880531",
        "pool_per_run": "ac231ea05b17d17d",
        "judged_outside_pool": "7bf23c2c95d644b0",
        "pooled_not_in_qrels": "b62f90595438f3e2",
        "earliest_rank": "732fcf8a10d201d1",
        "earliest_rank_histogram": "983d366d24aeda16",
        "p_rel_by_rank": "476e9321ed9c168b",
        "relevant_by_depth": "b1b17b0a514f3ded",
        "deeper_pool_estimate": "80a86ebd7262a52f",
        "uniques_run": "b3631436f4482f77",
        "uniques_run_summary": "6c9616c5442185a2",
        "uniques_run_units": "414d9a922753ba0c",
        "uniques_run_removed": "123c06dbd908b927",
        "uniques_group": "b3631436f4482f77",
        "uniques_group_summary": "8ff1a98aadca3bdd",
        "uniques_group_units": "f52111583f100ff8",
        "uniques_group_removed": "e9d86ffe3ab98bfa",
        "simulation_depth": "c49cafc29970e6c1",
        "simulation_mtf": "197a5af17522a7f9",
        "simulation_random": "bcd3ef685939c3d7",
        "characteristics": "182e870fa9079e63",
    },
    "track_bpref": {
        "assumptions": "b72a29e9c0ced5d1",
        "inferred_pool_runs": "8fc178b3b071ab95",
        "inferred_pool_topics": "8998fb5d5141779f",
        "pool_summary": "d1bda22388448e3f",
        "pool_per_topic": "7b123ad00b1d2916",
        "pool_per_run": "93cceb0cf9114eed",
        "judged_outside_pool": "8a8436dca8f8b060",
        "pooled_not_in_qrels": "190c495045150771",
        "earliest_rank": "5f279c06a8f39995",
        "earliest_rank_histogram": "75a70410901c7bb2",
        "p_rel_by_rank": "ace8b89164e61947",
        "relevant_by_depth": "38e0c1bacc0dd4fc",
        "deeper_pool_estimate": "34f426b421d11e21",
        "uniques_run": "69d47b35db3bd879",
        "uniques_run_summary": "1a81cf3091baf9c2",
        "uniques_run_units": "ee4a4522c8a18ad8",
        "uniques_run_removed": "d1dc115b1f51230d",
        "uniques_group": "632422ed975e282a",
        "uniques_group_summary": "d4245234a4759524",
        "uniques_group_units": "5f7318035213d55f",
        "uniques_group_removed": "929337c5107f2f0e",
        "simulation_depth": "4acf69907d1e3eda",
        "simulation_runs": "41e0c34c50b45376",
        "simulation_mtf": "475fac1d608bf5ab",
        "simulation_random": "b7b9941088323004",
        "characteristics": "b68ae4de039a226e",
    },
    "robust03": {
        "pool_summary": "b7a44ee7f171572d",
        "pool_per_topic": "75b2d61ff5ccee83",
        "pool_per_run": "9ab5f18315d1bc64",
        "judged_outside_pool": "28436670722e50a0",
        "pooled_not_in_qrels": "b62f90595438f3e2",
        "earliest_rank": "d6535a702a31e5ca",
        "earliest_rank_histogram": "fdbed057ca37d8af",
        "p_rel_by_rank": "9404791d1eca172a",
        "relevant_by_depth": "912fff0fa75343b5",
        "deeper_pool_estimate": "8670eafecbddc890",
        "uniques_run": "fa167e8f70803ec1",
        "uniques_run_summary": "d350d364f9a73912",
        "uniques_run_units": "ec2c07826f709bb0",
        "uniques_run_removed": "99d9992817b95fd6",
        "uniques_group": "fa167e8f70803ec1",
        "uniques_group_summary": "e5e30b4bbb7743a9",
        "uniques_group_units": "cc6789bc56247cf9",
        "uniques_group_removed": "1483b989f91920da",
        "simulation_depth": "413517a710b87b61",
        "simulation_runs": "3fcbad70695a374d",
        "simulation_mtf": "a2cb8d675e376058",
        "simulation_random": "a513810feab7b9cc",
        "characteristics": "02f1c1115120307b",
    },
}


@pytest.mark.parametrize("case", ["hand", "track", "track_bpref", "robust03"])
def test_every_pool_table_is_the_one_the_code_before_gave(case):
    if case == "robust03" and REAL_ROBUST03:
        pytest.skip("the hashes are of the generated track with Robust 2003's layout")
    assert report_digests(case) == BEFORE[case]


@pytest.mark.parametrize("case", ["hand", "track_bpref"])
def test_one_part_after_the_other_gives_what_the_default_threads_give(case):
    # the default runs uniques, sources and every simulated level as tasks on a thread
    # per core, a level task taking its strategy's setup future as an argument
    from yardstick.common.executor import IN_PROCESS, InProcess

    assert report_digests(case, executor=IN_PROCESS) == BEFORE[case]
    assert report_digests(case, executor=InProcess(threads=3)) == BEFORE[case]


@pytest.mark.parametrize("case", ["hand", "track_bpref"])
def test_the_runs_docnos_are_not_needed_once_the_index_is_built(case):
    # yardstick pool and ys.pool_report drop them (a third of the peak memory on a
    # Robust04-sized track): every table must stay the one the code before gave
    assert report_digests(case, scores_only=True) == BEFORE[case]


def test_scoring_the_qrels_entries_alone_is_bitwise_scoring_every_entry():
    from yardstick.judging.judged_subset import qrels_entries

    runs, qrels, _ = make_track(seed=5)
    index = build_judged_runs(runs, qrels)
    rng = np.random.default_rng(0)
    rel = index.e_rel.copy()
    judged = rel != -1
    rel[judged & (rng.random(len(rel)) < 0.3)] = -1          # judgments taken out
    rel[(rel != -1) & (rng.random(len(rel)) < 0.1)] = -2     # pooled, not judged
    levels = index.rel_levels()
    entries = qrels_entries(index)
    measures = ("map", "map_judged", "bpref", "infAP", "P_10")
    got = run_sync(scoring.iter_score_subset(index, entries, measures, rel[entries.idx],
                                             levels))
    for m in measures:
        want = scoring.score_all(index, m, rel, levels)
        assert np.array_equal(got[m], want), m
        assert np.isfinite(want).all() and want.max() > 0


def _plain_move_to_front(index, max_budget, seed):
    """The loop move-to-front ran before its heap (numpy arrays of priorities)."""
    rng = np.random.default_rng(seed)
    out = {}
    for t in range(index.n_topics):
        if not index.in_qrels[t]:
            continue
        lists = []
        for r in np.flatnonzero(index.pooled):
            s = int(r) * index.n_topics + t
            a, b = index.seg_start[s], index.seg_start[s + 1]
            if b > a:
                lists.append((index.entry_keys(np.arange(a, b)),
                              index.e_rel[a:b] >= index.relevance_level))
        if not lists:
            continue
        prio = np.zeros(len(lists), np.int64)
        tie = np.arange(len(lists)) if seed is None else rng.permutation(len(lists))
        ptr, live, judged, current = [0] * len(lists), np.ones(len(lists), bool), {}, -1
        while len(judged) < max_budget and live.any():
            top = prio[live].max()
            cands = np.flatnonzero(live & (prio == top))
            r = current if current in cands else int(cands[np.argmin(tie[cands])])
            keys, rel = lists[r]
            while ptr[r] < len(keys) and int(keys[ptr[r]]) in judged:
                ptr[r] += 1
            if ptr[r] >= len(keys):
                live[r], current = False, -1
                continue
            judged[int(keys[ptr[r]])] = len(judged) + 1
            prio[r] = 0 if rel[ptr[r]] else prio[r] - 1
            ptr[r] += 1
            current = r
        out.update(judged)
    return out


@pytest.mark.parametrize("seed,budget", [(0, 40), (3, 400), (None, 120)])
def test_move_to_front_heap_judges_what_the_plain_loop_judged(seed, budget):
    runs, qrels, _ = make_track(seed=7, topics=8, length=150)
    index = build_judged_runs(runs, qrels)
    order = order_move_to_front(index, budget, seed=seed)
    want = _plain_move_to_front(index, budget, seed)
    assert dict(zip(order.keys.tolist(), order.value.tolist())) == want
    assert len(want) > budget     # several topics, each judged up to the budget
