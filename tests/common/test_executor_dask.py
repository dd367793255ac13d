"""In-process and Dask executors give identical results (issue 30).

The bundled Cranfield sample (17 runs, 225 topics) through ``ys.stability_report``,
``ys.pool_report`` and ``ys.evaluate``: in-process, then on a ``LocalCluster`` of one
and of two worker threads, and once on two worker processes.  Every table must be
equal, value for value (the same seeds drive the same draws wherever a task runs).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

import yardstick as ys
from yardstick.common.executor import IN_PROCESS, InProcess, connect, executor_for, task_seeds

distributed = pytest.importorskip("distributed")

ANALYSES = ("swap", "bootstrap", "error-rate", "sensitivity", "discriminative", "tukey",
            "topic-set-size", "kendall")


@pytest.fixture(scope="module")
def sample():
    return ys.sample_paths()


@pytest.fixture(scope="module")
def in_process(sample):
    runs = sample["runs"][:8]
    stab = ys.stability_report(sample["qrels"], runs, measures=("map", "recip_rank"),
                               analyses=ANALYSES, samples=60, seed=11)
    pool = ys.pool_report(sample["qrels"], runs, depth=20, analyses=("stats", "uniques",
                                                                     "simulate"), seed=4)
    ev = ys.evaluate(sample["qrels"], runs, ["map", "P.10", "ndcg_cut.10"])
    return runs, stab, pool, ev


def _same_stability(a, b):
    assert [t.name for t in a.tables] == [t.name for t in b.tables]
    for x, y in zip(a.tables, b.tables):
        assert x.frame.equals(y.frame), x.name
    assert a.notes == b.notes


def _same_pool(a, b):
    ta, tb = a.tables(), b.tables()
    assert list(ta) == list(tb)
    for k in ta:
        assert ta[k].equals(tb[k]), k
    assert a.notes == b.notes


@pytest.mark.parametrize("spec", ["local-threads:1", "local-threads:2"])
def test_threads_cluster_gives_in_process_results(sample, in_process, spec):
    runs, stab, pool, ev = in_process
    with connect(spec) as ex:
        assert ex.workers == int(spec[-1])
        client = ex.client
        _same_stability(stab, ys.stability_report(
            sample["qrels"], runs, measures=("map", "recip_rank"), analyses=ANALYSES, samples=60,
            seed=11, client=ex))
        tasks = ex.stats.tasks
        assert tasks >= 2 * 6      # one task per resampling analysis and measure at least
        _same_pool(pool, ys.pool_report(sample["qrels"], runs, depth=20,
                                        analyses=("stats", "uniques", "simulate"), seed=4,
                                        client=ex))
        assert ex.stats.tasks - tasks >= 5        # uniques x 2, three strategies
        # a plain distributed.Client works too
        got = ys.evaluate(sample["qrels"], runs, ["map", "P.10", "ndcg_cut.10"], client=client)
        assert got.equals(ev)
        assert ex.stats.scattered_bytes > 0


def test_process_cluster_gives_in_process_results(sample, in_process):
    runs, stab, _, _ = in_process
    with connect("local:2") as ex:
        _same_stability(stab, ys.stability_report(
            sample["qrels"], runs, measures=("map", "recip_rank"), analyses=ANALYSES, samples=60,
            seed=11, client=ex))


def test_in_process_executor_runs_in_order_and_reports_errors():
    ex = InProcess()
    futures = [ex.submit(divmod, 7, d) for d in (2, 0, 3)]
    out = list(ex.results(futures))
    assert [(p, v) for p, v, e in out if e is None] == [(0, (3, 1)), (2, (2, 1))]
    assert isinstance(out[1][2], ZeroDivisionError)
    with pytest.raises(ZeroDivisionError):
        ex.map(divmod, [(1, 1), (1, 0)])
    assert executor_for(None).local and executor_for(IN_PROCESS) is IN_PROCESS
    with pytest.raises(TypeError):
        executor_for(42)


def test_task_seeds_are_numpy_spawned_children():
    seeds = task_seeds(5, 4)
    want = [np.random.SeedSequence(5).spawn(4)[i].generate_state(1, np.uint64)[0] >> 1
            for i in range(4)]
    assert seeds == [int(w) for w in want] and len(set(seeds)) == 4


def test_bad_dask_spec_is_refused():
    with pytest.raises(ValueError):
        connect("local:x")


def test_runs_evaluated_on_a_cluster_are_scattered_not_in_the_graph(sample, in_process):
    """Issue 30: "the data each task needs goes to the workers once": each batch of runs is
    scattered, its task takes the handle; Dask's "Sending large graph" warning (here with its
    threshold lowered below one batch's size) stays silent."""
    import pickle
    import warnings

    import dask

    from yardstick.common.progress import run_sync
    from yardstick.inputs.io import read_qrels, read_run
    from yardstick.session.evaluating import evaluate_runs

    runs = in_process[0]
    qrels, loaded = read_qrels(sample["qrels"]), [read_run(p) for p in runs]
    size = len(pickle.dumps(loaded[0], protocol=pickle.HIGHEST_PROTOCOL))
    with connect("local-threads:2") as ex, warnings.catch_warnings():
        warnings.simplefilter("error")
        with dask.config.set({"distributed.admin.large-graph-warning-threshold": size // 2}):
            got = run_sync(evaluate_runs(loaded, qrels, ["map"], executor=ex))
        assert ex.stats.tasks >= 1
        assert ex.stats.scattered_bytes > len(loaded) * size // 2
        assert ex.stats.argument_bytes < size // 2
    here = run_sync(evaluate_runs(loaded, qrels, ["map"]))
    assert list(got) == list(here)
    assert all(got[k].per_topic.equals(here[k].per_topic) for k in here)


@dataclass
class Shipped:
    """Arrays and a dict of matrices and a frame, as a shipment holds them."""

    codes: np.ndarray
    rel: np.ndarray
    scores: dict


def test_sent_bytes_are_counted_without_pickling_close_to_the_pickle():
    """The reported bytes (a walk over arrays, frames and attributes) are within 1 % of
    the pickle's length, which is what Dask sends."""
    import pickle

    import pandas as pd

    from yardstick.common.data_size import data_size

    rng = np.random.default_rng(3)
    value = Shipped(rng.integers(0, 2**31, 400_000, dtype=np.int32),
                    rng.integers(-1, 3, 300_000).astype(np.int8),
                    {"map": rng.random((40, 50)), "frame": pd.DataFrame(
                        {"score": rng.random(20_000), "n": np.arange(20_000)})})
    pickled = len(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
    assert abs(data_size(value) - pickled) / pickled < 0.01
