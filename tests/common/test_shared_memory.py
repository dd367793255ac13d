"""Data for a local cluster's workers through shared memory (issue 30): the value comes
back equal, its arrays read-only views of one file, and the file can go once loaded."""

from __future__ import annotations

import os
import pickle

import numpy as np
import pandas as pd

from yardstick.common.shared_memory import shared


def test_a_value_comes_back_equal_with_its_arrays_mapped(tmp_path):
    value = {"a": np.arange(100_000, dtype=np.int32), "b": np.linspace(0, 1, 7),
             "frame": pd.DataFrame({"x": [1.5, 2.5]}), "name": "run-1", "none": None}
    held = shared(value, str(tmp_path))
    assert held is not None
    stream = pickle.dumps(held)
    assert len(stream) < 10_000            # the arrays are in the file, not the stream
    assert os.path.getsize(held.path) >= value["a"].nbytes
    got = pickle.loads(stream)
    held.remove()                          # mapped: the file may go
    assert not os.path.exists(held.path)
    assert np.array_equal(got["a"], value["a"]) and got["a"].dtype == np.int32
    assert np.array_equal(got["b"], value["b"])
    assert got["frame"].equals(value["frame"]) and got["name"] == "run-1"
    assert not got["a"].flags.writeable    # every worker reads the same pages
    # a value that travels on (to a worker that joined later) carries its arrays
    again = pickle.loads(pickle.dumps(got, protocol=5))
    assert np.array_equal(again["a"], value["a"])


def test_no_room_or_no_directory_gives_none(tmp_path):
    assert shared(np.zeros(10), str(tmp_path / "missing")) is None


def test_arrays_start_aligned(tmp_path):
    held = shared([np.arange(3, dtype=np.int8), np.arange(5, dtype=np.float64)],
                  str(tmp_path))
    assert all(a % 64 == 0 for a, _ in held.spans)
    got = pickle.loads(pickle.dumps(held))
    held.remove()
    assert got[1].ctypes.data % 64 == 0 and got[1].tolist() == [0, 1, 2, 3, 4]
