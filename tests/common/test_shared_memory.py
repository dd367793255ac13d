"""Data for a local cluster's workers through shared memory (issue 30): the value comes
back equal once pickled and unpickled (what Dask does on its way to a worker), its large
arrays read-only views of one file, what is pickled a few kilobytes, and the file can go
once the workers have it."""

from __future__ import annotations

import os
import pickle
from dataclasses import dataclass

import numpy as np

from yardstick.common.shared_memory import MappedArray, shared


@dataclass(frozen=True, eq=False)
class Held:               # (a module of this test: "tests.", not "yardstick.")
    a: np.ndarray


def _travel(value):
    # (here as Dask does it for the worker: this is a test, not the application)
    return pickle.loads(pickle.dumps(value, protocol=5))


def test_a_value_comes_back_equal_with_its_arrays_mapped(tmp_path):
    from yardstick.analysis.pool.reconstruction import Pool  # a dataclass of the package
    big = np.arange(100_000, dtype=np.int32)
    value = {"a": big, "again": big, "small": np.linspace(0, 1, 7), "name": "run-1",
             "t": (big[:10].copy(), None), "pool": _pool(Pool)}
    held = shared(value, str(tmp_path))
    assert held is not None
    stream = pickle.dumps(held.value, protocol=5)
    assert len(stream) < 10_000            # the arrays are in the file, not the stream
    assert os.path.getsize(held.path) >= big.nbytes
    assert isinstance(held.value["a"], MappedArray) and held.value["again"] is held.value["a"]
    got = pickle.loads(stream)
    held.remove()                          # mapped: the file may go
    assert not os.path.exists(held.path)
    assert np.array_equal(got["a"], big) and got["a"].dtype == np.int32
    assert np.array_equal(got["again"], big)
    assert np.array_equal(got["small"], value["small"]) and got["name"] == "run-1"
    assert got["t"][0].tolist() == list(range(10)) and got["t"][1] is None
    assert not got["a"].flags.writeable    # every worker reads the same pages
    for k, v in value["pool"].__dict__.items():
        assert np.array_equal(getattr(got["pool"], k), v), k
    # a value that travels on (to a worker that joined later) carries its arrays
    assert np.array_equal(_travel(got)["a"], big)


def _pool(Pool):
    import dataclasses
    fields = {f.name: np.arange(50_000, dtype=np.int64) + i
              for i, f in enumerate(dataclasses.fields(Pool))}
    return Pool(**fields)


def test_only_the_packages_own_plain_objects_are_copied(tmp_path):
    # an object of another module keeps its arrays (its pickling is its own affair)
    held = shared({"x": Held(np.arange(100_000)), "y": np.arange(100_000)}, str(tmp_path))
    assert type(held.value["x"]) is Held and type(held.value["x"].a) is np.ndarray
    got = _travel(held.value)
    held.remove()
    assert np.array_equal(got["y"], np.arange(100_000))


def test_no_room_no_directory_or_nothing_large_gives_none(tmp_path):
    assert shared(np.zeros(100_000), str(tmp_path / "missing")) is None
    assert shared({"small": np.zeros(10)}, str(tmp_path)) is None


def test_arrays_start_aligned(tmp_path):
    held = shared([np.arange(70_001, dtype=np.int8), np.arange(20_000, dtype=np.float64)],
                  str(tmp_path))
    assert all(r.offset % 64 == 0 for r in held.value)
    got = _travel(held.value)
    held.remove()
    assert got[1].ctypes.data % 64 == 0 and got[1][:5].tolist() == [0, 1, 2, 3, 4]
