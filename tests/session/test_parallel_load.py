"""A track's runs, compressed as tracks are published, are read and evaluated on several
threads (issue #28), each yielded as soon as it is ready, with the numbers of trec_eval."""

from __future__ import annotations

import bz2
import gzip
import lzma
import threading

import pytest

from tests.gui_support import QRELS, RUNS
from tests.pytrec_evaluations import pytrec_evaluations
from yardstick.common.errors import FormatError
from yardstick.common.options import EvalOptions
from yardstick.common.progress import Progress
from yardstick.inputs.io import read_qrels, read_run
from yardstick.session import loading
from yardstick.session.evaluating import Evaluator
from yardstick.session.loading import LoadResult, load_files


@pytest.fixture(scope="module")
def track(tmp_path_factory):
    """The sample's three runs as xz, gz and bz2 files, twice over, plus a broken one."""
    d = tmp_path_factory.mktemp("track")
    paths = []
    for k, (suffix, compress) in enumerate([("xz", lzma.compress), ("gz", gzip.compress),
                                            ("bz2", bz2.compress)] * 2):
        src = RUNS[k % 3]
        p = d / f"run{k}.{suffix}"
        p.write_bytes(compress(gzip.decompress(src.read_bytes())))
        paths.append(p)
    bad = d / "bad.xz"
    bad.write_bytes(lzma.compress(b"301 Q0 doc 1 not-a-score tag\n"))
    return paths, bad


def test_runs_are_read_on_threads_in_order_with_trec_eval_numbers(track, monkeypatch):
    paths, bad = track
    readers: set[str] = set()
    real = loading.read_threads
    monkeypatch.setattr(loading, "read_threads", lambda: max(2, real()))
    import yardstick.inputs.io as io

    real_read = io.read_run

    def read(path, *a, **k):
        readers.add(threading.current_thread().name)
        return real_read(path, *a, **k)

    monkeypatch.setattr(io, "read_run", read)
    items = [(str(QRELS), "qrels")] + [(str(p), "run") for p in paths[:3]] \
        + [(str(bad), "run")] + [(str(p), "run") for p in paths[3:]]
    evaluator = Evaluator(["official"], EvalOptions())
    job = load_files(items, stream=True, evaluate=evaluator)
    pieces = []
    try:
        while True:
            p = next(job)
            if not isinstance(p, Progress):
                pieces.append(p)
    except StopIteration as stop:
        res = stop.value
    assert all(name.startswith("yardstick-load") for name in readers) and len(readers) >= 2
    assert pieces[0].qrels is not None and not pieces[0].runs       # the small files first
    runs = [p.runs[0] for p in pieces[1:]]
    assert [r.path for r in runs] == [str(p) for p in paths]        # the batch's order
    assert [e.path for e in res.errors] == [str(bad)]
    assert isinstance(res.errors[0], FormatError) and "score" in res.errors[0].message
    qrels = read_qrels(QRELS)
    ref = pytrec_evaluations([read_run(p) for p in paths], qrels, {"map", "P", "recip_rank"})
    for piece, path in zip(pieces[1:], paths):
        assert isinstance(piece, LoadResult)
        ev = piece.evaluations[piece.runs[0].name]
        want = ref[read_run(path).name].summary
        for m in ("map", "P_10", "recip_rank"):
            assert ev.summary[m] == pytest.approx(want[m], abs=1e-12), (path, m)
