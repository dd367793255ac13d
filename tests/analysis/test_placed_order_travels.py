"""A simulated strategy's setup as it travels between Dask workers (issue 30): its
:class:`~yardstick.analysis.pool.placed_order.PlacedOrder` pickles without the entries'
judgments and ranks (and without the qrels' own entries), which the receiving worker
rebuilds from the judged runs it holds; every level must then give what the original
gives, and the copy must be much smaller than the whole (it was the 200 MB that the
second worker waited for on 110 runs x 250 topics)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from pool_tracks import make_track

from yardstick.analysis.pool.simulation import iter_levels, iter_setup
from yardstick.common.progress import run_sync
from yardstick.inputs.qrels import Qrels
from yardstick.judging.judged_runs_build import build_judged_runs

LEVELS = {"depth": (1, 5, 20, 30), "runs": (1, 3, 6), "mtf": (5, 40, 200),
          "random": (5, 40, 200)}


@pytest.fixture(scope="module")
def index():
    runs, qrels, _ = make_track(seed=5, teams=6, topics=6, docs=500, length=100)
    # a fifth of the judgments dropped: pooled documents the qrels lack, which a random
    # sample's frame holds as extra entries (the frame is then not the qrels' entries)
    f = qrels.frame
    keep = np.random.default_rng(1).random(len(f)) > 0.2
    return build_judged_runs(runs, Qrels.from_frame(f[keep].reset_index(drop=True)))


def _rows(index, setup, levels):
    rows, scores = run_sync(iter_levels(index, setup, levels, ("map", "map_judged",
                                                                "bpref", "infAP")))
    return rows, [s.to_numpy().tolist() for s in scores]


@pytest.mark.parametrize("strategy", list(LEVELS))
def test_a_travelled_setup_gives_every_level_as_the_original(index, strategy):
    setup = run_sync(iter_setup(index, np.full(index.n_topics, 30), strategy,
                                LEVELS[strategy], "map", seed=3))
    copy = pickle.loads(pickle.dumps(setup, protocol=5))
    assert copy.located.entries is None and copy.located.rel is None
    placed = copy.located.complete(index)
    original = setup.located
    assert np.array_equal(placed.entries.idx, original.entries.idx)
    assert np.array_equal(placed.entries.rank, original.entries.rank)
    assert np.array_equal(placed.entries.start, original.entries.start)
    assert np.array_equal(placed.rel, original.rel)
    assert copy.located.complete(index) is placed            # rebuilt once
    a, b = _rows(index, setup, LEVELS[strategy]), _rows(index, copy, LEVELS[strategy])
    assert np.array_equal(np.asarray([list(r.values())[2:] for r in a[0]], float),
                          np.asarray([list(r.values())[2:] for r in b[0]], float),
                          equal_nan=True)
    assert a[1] == b[1]


def test_the_random_frame_holds_entries_the_qrels_lack(index):
    # (else the test above would not reach a frame that travels with its own entries)
    setup = run_sync(iter_setup(index, np.full(index.n_topics, 30), "random", (5, 40), "map",
                                seed=3))
    assert not setup.located.on_qrels_entries
    assert (index.e_rel[setup.located.entries.idx] == -1).any()


def test_a_copy_carries_the_order_and_levels_only(index):
    # the entries (indices, ranks, qrels positions) and their judgments stay behind
    setup = run_sync(iter_setup(index, np.full(index.n_topics, 30), "depth", (5, 30), "map"))
    p = setup.located
    needed = len(pickle.dumps((p.order, p.value, p.q_ok, p.q_code), protocol=5))
    assert len(pickle.dumps(p, protocol=5)) < needed + 1000
    assert needed + 1000 < len(pickle.dumps((p.order, p.value, p.q_ok, p.q_code,
                                              p.entries.idx, p.entries.rank, p.rel),
                                             protocol=5))
