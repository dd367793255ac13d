"""Large inputs: loading reports progress, Cancel leaves nothing half-loaded, too-big is refused.

The 7M-line run itself is timed by ``benchmarks/bench_large_run.py`` (no
timings here); these tests use a generated run of 60,000 lines (1,000 per
topic for topics 1..60, scores 1000 - rank) read in 64 KiB chunks, so the same
code paths run many steps.
"""

from __future__ import annotations

import gzip
import os
import threading

import pytest

import yardstick.inputs.io.read_progress as rp
import yardstick.inputs.io.text_source as ts
from yardstick.common.errors import FormatError
from yardstick.common.progress import Progress, run_sync
from yardstick.inputs.io import read_qrels, read_run
from yardstick.session.loading import load_files

N_TOPICS, DEPTH = 60, 1000


@pytest.fixture(scope="module")
def big_run(tmp_path_factory):
    path = tmp_path_factory.mktemp("big") / "big.run"
    lines = (f"{t} Q0 doc{t}-{r} {r} {1000 - r} big\n"
             for t in range(1, N_TOPICS + 1) for r in range(1, DEPTH + 1))
    path.write_text("".join(lines))
    return path


@pytest.fixture
def small_chunks(monkeypatch):
    monkeypatch.setattr(rp, "READ_CHUNK", 64 * 1024)


def test_read_bytes_job_reports_every_chunk_and_returns_the_bytes(big_run, small_chunks):
    steps: list[Progress] = []
    data = run_sync(rp.read_bytes_job(big_run, "run"), on_progress=steps.append)
    size = big_run.stat().st_size
    assert data == big_run.read_bytes()
    assert len(steps) == -(-size // (64 * 1024))           # one report per chunk read
    assert [s.done for s in steps] == sorted(s.done for s in steps)
    assert steps[-1].done == steps[-1].total == size


def test_load_with_progress_equals_read_run(big_run, small_chunks):
    steps: list[Progress] = []
    res = run_sync(load_files([(str(big_run), "run")]), on_progress=steps.append)
    assert res.errors == ()
    run, plain = res.runs[0], read_run(big_run)
    assert len(run) == len(plain) == N_TOPICS * DEPTH
    assert list(run.topics) == list(plain.topics)
    assert (run.score == plain.score).all() and (run.docno_bytes == plain.docno_bytes).all()
    fractions = [s.fraction for s in steps]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert any(s.message.startswith("reading big.run") for s in steps)
    assert any(s.message.startswith("parsing big.run") for s in steps)


def test_closing_the_load_mid_file_returns_nothing_and_closes_the_file(big_run, small_chunks):
    fds = len(os.listdir("/proc/self/fd"))
    job = load_files([(str(big_run), "run")])
    for _ in range(5):
        p = next(job)
    assert p.message.startswith("reading big.run") and 0 < p.fraction < 1
    assert len(os.listdir("/proc/self/fd")) == fds + 1   # the run file is open
    job.close()                                           # what Cancel does
    assert len(os.listdir("/proc/self/fd")) == fds       # ... and now it is not
    with pytest.raises(StopIteration):
        next(job)


def test_parse_errors_and_results_come_back_through_the_thread(tmp_path):
    bad = tmp_path / "bad.run"
    bad.write_text("1 Q0 d1 1 2.0 t\n1 Q0 d2 2 x t\n")
    with pytest.raises(FormatError) as e:
        run_sync(rp.read_run_job(bad))
    assert e.value.line == 2 and "'x' is not a number" in e.value.reason
    q = tmp_path / "q.qrels"
    q.write_text("1 0 d1 1\n1 0 d2 0\n2 0 d1 2\n")
    assert run_sync(rp.read_qrels_job(q)).to_dict() == read_qrels(q).to_dict() == {
        "1": {"d1": 1, "d2": 0}, "2": {"d1": 2}}


# ------------------------------------------------------------------ too large for memory


@pytest.fixture
def little_memory(monkeypatch):
    """Pretend 1 MiB of memory is available, and that only files up to 1 KiB are always read
    (the real floor is 64 MiB: a full page cache must never refuse a small file)."""
    monkeypatch.setattr(ts, "available_memory", lambda: 2**20)
    monkeypatch.setattr(ts, "ALWAYS_READ", 1024)


def test_file_larger_than_free_memory_is_refused_before_reading(big_run, little_memory):
    with pytest.raises(FormatError) as e:
        read_run(big_run)
    assert e.value.path == str(big_run) and e.value.line is None
    assert "refusing to load it" in e.value.reason and "memory is available" in e.value.reason


def test_small_archive_of_a_large_file_is_refused_while_decompressing(tmp_path, little_memory):
    text = b"1 Q0 d1 1 2.0 t\n" * 100_000                  # 1.6 MB, compresses to ~5 kB
    p = tmp_path / "bomb.run.gz"
    p.write_bytes(gzip.compress(text))
    assert p.stat().st_size < 2**19                         # passes the size check ...
    with pytest.raises(FormatError) as e:
        read_run(p)
    assert "decompresses to more than" in e.value.reason   # ... not the decompression


def test_window_loader_reports_the_refusal_and_loads_the_rest(big_run, tmp_path, little_memory):
    ok = tmp_path / "ok.run"
    ok.write_text("1 Q0 d1 1 2.0 t\n")
    res = run_sync(load_files([(str(big_run), "run"), (str(ok), "run")]))
    assert [r.name for r in res.runs] == ["ok.run"]
    assert len(res.errors) == 1 and "refusing to load it" in res.errors[0].message


# ------------------------------------------------------------------ through the window


def test_cancel_in_the_window_leaves_the_workspace_as_it_was(qtbot, tmp_path, monkeypatch,
                                                             big_run, small_chunks):
    """Cancel while the parser runs: no run is added, no 'loaded', no error, nothing busy."""
    from tests.gui_support import RUNS, load, make_window

    win = make_window(qtbot, tmp_path, monkeypatch)
    load(qtbot, win, [(RUNS[0], "run")])
    before = list(win.state.workspace.runs)
    release = threading.Event()
    import yardstick.inputs.io

    real_read_run = yardstick.inputs.io.read_run

    def slow_read_run(*a, **k):  # the parse thread waits until the test has cancelled
        release.wait(30)
        return real_read_run(*a, **k)

    monkeypatch.setattr(yardstick.inputs.io, "read_run", slow_read_run)
    loaded, messages = [], []
    win.loaded.connect(loaded.append)
    win.jobs.progress.connect(lambda key, f, m: messages.append(m))
    key = win.open_items([(str(big_run), "run")])
    qtbot.waitUntil(lambda: any(m.startswith("parsing big.run") for m in messages), timeout=30000)
    assert win.cancel_button.isVisibleTo(win)
    win.cancel_button.click()
    assert not win.jobs.is_running(key)
    release.set()
    win.jobs.wait_for_done(30000)
    qtbot.wait(50)  # let any stale signal arrive (it must be dropped)
    assert loaded == [] and win.errors == []
    assert list(win.state.workspace.runs) == before
    assert not win.jobs.is_busy() and not win.cancel_button.isVisibleTo(win)
