"""Pool's report on Dask worker processes: the same tables as in-process (issue 30).

The heavy parts travel as a :class:`~yardstick.analysis.pool.tasks.Shipment` (the judged
runs as plain arrays, :meth:`JudgedRuns.compact`), and each simulated strategy as a setup
task and a task per level; here every table of a report with the four strategies and
bpref as the uniques measure is compared with the in-process report, on two worker
processes (what pickling and the split change) and one worker thread.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from pool_tracks import make_track

from yardstick.analysis.pool.reconstruction import reconstruct_pool
from yardstick.analysis.pool.report import PoolSettings, iter_pool_report
from yardstick.analysis.pool.tasks import shipment
from yardstick.common.executor import connect
from yardstick.common.progress import run_sync
from yardstick.judging.judged_runs_build import build_judged_runs

pytest.importorskip("distributed")

SETTINGS = PoolSettings(depth=30, measure="bpref", min_score=0.05, seed=4,
                        strategies=("depth", "runs", "mtf", "random"))


@pytest.fixture(scope="module")
def track():
    runs, qrels, _ = make_track(seed=11, teams=6, topics=8, docs=600, length=120)
    index = build_judged_runs(runs, qrels)
    return index, run_sync(iter_pool_report(index, SETTINGS))


def _same(a, b):
    ta, tb = a.tables(), b.tables()
    assert list(ta) == list(tb)
    for k in ta:
        assert ta[k].equals(tb[k]), k


@pytest.mark.parametrize("spec", ["local:2", "local-threads:1"])
def test_pool_report_on_workers_is_the_in_process_one(track, spec, monkeypatch):
    index, here = track
    # every array through shared memory, however small (this track's are a few kB)
    monkeypatch.setattr("yardstick.common.shared_memory.MIN_BYTES", 1)
    with connect(spec) as ex:
        _same(here, run_sync(iter_pool_report(index, SETTINGS, executor=ex)))
        levels = sum(len(s.levels["level"].unique()) for s in here.simulations.values())
        # sources, uniques x 2, setups, a task per level
        assert ex.stats.tasks == 1 + 2 + 4 + levels
        # worker processes of this machine read the judged runs from shared memory (one
        # copy, nothing sent); worker threads share this process's own
        assert (ex.stats.shared_bytes > 0) == (spec == "local:2")


def test_shipment_is_arrays_only_and_keeps_the_judged_docnos(track):
    index, _ = track
    ship = shipment(index, ["map"])
    c = ship.index
    assert c.runs == () and c.run_lines == () and c.qrels is None
    assert c.n_docs == index.n_docs and len(c.doc_bytes) < len(index.doc_bytes)
    docs = index.key_doc(index.q_key)
    assert list(c.docnos(docs)) == list(index.docnos(docs))
    assert np.array_equal(c.e_doc, index.e_doc) and np.array_equal(c.e_rel, index.e_rel)
    assert len(pickle.dumps(c, protocol=5)) < len(pickle.dumps(index.runs, protocol=5))


def test_shipment_carries_the_reports_pool_to_the_workers(track):
    index, _ = track
    depth = index.depth_array(SETTINGS.depth)
    pool = reconstruct_pool(index, depth)
    on_worker = shipment(index, ["map"], pool).judged_runs()
    assert on_worker is not index
    assert reconstruct_pool(on_worker, depth) is pool          # not rebuilt there
    rebuilt = reconstruct_pool(shipment(index, ["map"]).judged_runs(), depth)
    assert rebuilt is not pool and np.array_equal(rebuilt.keys, pool.keys)
