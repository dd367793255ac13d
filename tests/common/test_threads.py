"""Work split over the cores (yardstick.common.threads): every item done once, errors raised,
generators read lazily, gathers equal to numpy's fancy indexing."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from yardstick.common import threads


@pytest.fixture
def three_cores(monkeypatch):
    monkeypatch.setattr(threads, "cores", lambda: 3)
    monkeypatch.setattr(threads, "PARALLEL_LINES", 10)


def test_threads_follow_the_cores_and_the_size(three_cores, monkeypatch):
    assert threads.threads_for(9) == 1          # below PARALLEL_LINES: no thread
    assert threads.threads_for(25) == 2
    assert threads.threads_for(10_000) == 3     # no more than the cores
    assert threads.threads_for(10_000, most=2) == 2
    monkeypatch.setattr(threads, "cores", lambda: 1)
    assert threads.threads_for(10_000) == 1


@pytest.mark.parametrize("k", [1, 3])
def test_each_item_is_done_once_on_the_threads_asked_for(k):
    done, names = [], set()
    lock = threading.Lock()

    def work(i):
        with lock:
            done.append(i)
            names.add(threading.current_thread().name)

    threads.each(work, range(200), k)
    assert sorted(done) == list(range(200))
    assert all(n.startswith("yardstick-work") for n in names) == (k > 1)


def test_each_reads_a_generator_a_few_items_ahead():
    taken, seen_while_first_ran = [], []
    others_done = threading.Semaphore(0)

    def items():
        for i in range(50):
            taken.append(i)
            yield i

    def work(i):
        if i == 0:  # hold the first item until the others in flight have finished
            for _ in range(3):
                others_done.acquire(timeout=5)
            seen_while_first_ran.append(len(taken))
        else:
            others_done.release()

    threads.each(work, items(), 2)
    assert len(taken) == 50
    # 2 threads: at most 2 x 2 items in flight, so while item 0 was held no more than
    # items 0-4 had been taken from the generator (a slice each, in real use)
    assert seen_while_first_ran[0] <= 5


def test_each_raises_the_first_error():
    def work(i):
        if i == 7:
            raise ValueError("item 7")

    with pytest.raises(ValueError, match="item 7"):
        threads.each(work, range(100), 3)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.float64])
def test_gather_is_fancy_indexing(three_cores, monkeypatch, dtype):
    monkeypatch.setattr(threads, "_GATHER_SLICE", 7)
    rng = np.random.default_rng(3)
    values = rng.integers(-100, 100, 1000).astype(dtype)
    index = rng.permutation(1000)[:613].astype(np.int32)
    out = threads.gather(values, index)
    assert out.dtype == values.dtype
    np.testing.assert_array_equal(out, values[index])


def test_in_order_yields_in_the_items_order_and_raises_in_turn():
    import time

    def slow_first(i):
        time.sleep(0.02 if i == 0 else 0)   # the first item finishes last
        if i == 6:
            raise ValueError("item 6")
        return i * i

    out = threads.in_order(slow_first, range(10), 3)
    assert [next(out) for _ in range(6)] == [i * i for i in range(6)]
    with pytest.raises(ValueError, match="item 6"):
        next(out)


def test_in_order_takes_the_next_item_only_after_the_caller_comes_back():
    taken = []

    def items():
        for i in range(20):
            taken.append(i)
            yield i

    out = threads.in_order(lambda i: i, items(), 2, ahead=3)
    assert next(out) == 0
    assert taken == [0, 1, 2]        # three in hand; item 3 not taken before we ask again
    assert list(out) == list(range(1, 20))


def test_blas_single_threaded_limits_blas_while_any_block_runs_and_then_restores():
    from threadpoolctl import threadpool_info

    from yardstick.common.threads import blas_single_threaded

    def blas_threads():
        return {lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"}

    before = blas_threads()
    with blas_single_threaded():
        assert blas_threads() == {1}
        with blas_single_threaded():                 # a second task on another thread: shared
            assert blas_threads() == {1}
        assert blas_threads() == {1}            # the first block still runs: still limited
    assert blas_threads() == before
