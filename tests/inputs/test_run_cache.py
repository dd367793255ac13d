"""What is derived from a run lives in the typed, thread-safe run cache, not in the run."""

from __future__ import annotations

import gc
import threading
from dataclasses import fields, replace

import numpy as np

from yardstick.inputs import ranking
from yardstick.inputs.run import Run
from yardstick.inputs.run_cache import RUN_CACHE, RunCache, derived


def _run(name="r", seed=0) -> Run:
    rng = np.random.default_rng(seed)
    topics = np.repeat(["1", "2", "3"], 50)
    docs = [f"d{i}" for i in range(150)]
    return Run.from_arrays(topics.tolist(), docs, rng.random(150).tolist(), name=name)


def test_a_run_is_a_value_without_a_cache_inside():
    assert "meta" not in {f.name for f in fields(Run)}


def test_the_order_is_computed_once_however_many_threads_ask(monkeypatch):
    run = _run()
    calls, second = [], threading.Event()
    real = ranking.trec_order

    def slow(*args, **kwargs):      # the first call waits for a second one, which the
        calls.append(1)             # entry's lock must keep from starting
        if len(calls) > 1:
            second.set()
        else:
            second.wait(1.0)
        return real(*args, **kwargs)

    monkeypatch.setattr(ranking, "trec_order", slow)
    out = [None] * 6

    def ask(i: int) -> None:
        out[i] = ranking.cached_order(run, 10)

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1
    assert all(o is out[0] for o in out)
    order = np.lexsort((-run.score, run.topic_code))     # distinct scores: no docno ties
    assert (out[0] == order).all()


def test_renamed_runs_share_what_was_derived_and_new_scores_do_not():
    run = _run()
    order = ranking.cached_order(run, 10)
    assert ranking.cached_order(run.renamed(name="x", group="g"), 10) is order
    rescored = replace(run, score=run.score[::-1].copy())
    assert derived(rescored) is not derived(run)
    assert RunCache.key(run) == RunCache.key(run.renamed(name="y"))


def test_an_entry_goes_with_its_run():
    cache = RunCache()
    run = _run(seed=1)
    cache.of(run).topic_counts = np.bincount(run.topic_code)
    assert len(cache) == 1 and cache.peek(run) is not None
    del run
    gc.collect()
    assert len(cache) == 0


def test_a_run_read_without_scores_keeps_its_order(tmp_path):
    from yardstick.inputs.io import read_run

    p = tmp_path / "a.run"
    run = _run()
    p.write_text("".join(f"{run.topics[t]} Q0 {run.docno(i)} 0 {s!r} tag\n"
                         for i, (t, s) in enumerate(zip(run.topic_code, run.score.tolist()))))
    kept = read_run(p, ranks=False, order=10, scores=False)
    assert kept.score is None
    assert (RUN_CACHE.peek(kept).trec_order[10] == ranking.cached_order(read_run(p), 10)).all()
