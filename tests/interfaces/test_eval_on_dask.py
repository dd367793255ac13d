"""``yardstick eval --dask`` and ``evaluate_runs`` on an executor (issue 30, item 2).

On a ``LocalCluster`` of two worker threads (``processes=False``): the output of
``yardstick eval`` is byte-identical to the in-process run (trec_eval's text, CSV and
Markdown, a run tag given twice, an unknown measure); the session's ``evaluate_runs``
cuts the runs into batches (one task each), sends the qrels once, computes every run
through the session's ``measure`` and gives the in-process numbers.
"""

from __future__ import annotations

import pytest

import yardstick as ys
from yardstick.cli import main
from yardstick.common.progress import run_sync
from yardstick.evaluation import runs_on_executor
from yardstick.evaluation.runs_on_executor import run_batches
from yardstick.inputs.io import read_qrels, read_run
from yardstick.session import evaluating

distributed = pytest.importorskip("distributed")

SPEC = "local-threads:2"


@pytest.fixture(scope="module")
def sample():
    p = ys.sample_paths()
    return p["qrels"], p["runs"][:5]


def _eval(capsysbinary, argv):
    code = main(["eval", *argv])
    got = capsysbinary.readouterr()
    return code, got.out, got.err


@pytest.mark.parametrize("fmt", ["trec_eval", "csv", "markdown"])
def test_eval_on_dask_prints_the_same_bytes(capsysbinary, sample, fmt):
    qrels, runs = sample
    # the first run twice: the second is told apart (a note on stderr, a #2 label)
    argv = ["-q", "-m", "official", "-m", "ndcg_cut.10", "--format", fmt, qrels,
            *runs, runs[0]]
    here = _eval(capsysbinary, argv)
    there = _eval(capsysbinary, ["--dask", SPEC, *argv])
    assert here[0] == there[0] == 0
    assert here[1] == there[1] and len(here[1]) > 10_000
    assert here[2] == there[2] and b"has the run tag" in here[2]
    assert (b"#2" in here[1]) == (fmt != "trec_eval")


def test_eval_on_dask_fails_as_in_process(capsysbinary, sample):
    qrels, runs = sample
    here = _eval(capsysbinary, ["-m", "no_such_measure", qrels, *runs[:2]])
    there = _eval(capsysbinary, ["--dask", SPEC, "-m", "no_such_measure", qrels, *runs[:2]])
    assert here == there and here[0] == 1 and b"no_such_measure" in here[2]


def test_batches_cover_the_runs_in_order_evenly():
    sizes = [50_000, 70_000, 10_000, 400_000, 50_000, 50_000, 30_000, 90_000]
    for workers, min_size in [(1, 1), (2, 1), (2, 100_000), (8, 1), (2, 10**9)]:
        got = run_batches(sizes, workers, min_size)
        assert [i for b in got for i in b] == list(range(len(sizes)))     # contiguous, all
        assert all(len(b) for b in got)
        assert len(got) == max(1, min(len(sizes), 4 * workers, sum(sizes) // min_size))
    assert run_batches([], 2) == []
    # the default: at least MIN_BATCH_LINES lines a task (a 50,000-line run: 5 a task)
    assert len(run_batches([50_000] * 150, 2)) == 8
    assert len(run_batches([50_000] * 10, 2)) == 2


def test_evaluate_runs_on_a_cluster_is_the_session_evaluation(sample, monkeypatch):
    qrels_path, run_paths = sample
    qrels = read_qrels(qrels_path)
    runs = [read_run(p) for p in run_paths]
    here = run_sync(evaluating.evaluate_runs(runs, qrels, ["map", "P.10", "ndcg_cut.10"]))
    monkeypatch.setattr(runs_on_executor, "MIN_BATCH_LINES", 1)      # a task a batch of 1-2
    seen = []
    real = evaluating.measure
    monkeypatch.setattr(evaluating, "measure",
                        lambda r, *a, **k: seen.append(r.name) or real(r, *a, **k))
    from yardstick.common.executor import connect

    with connect(SPEC) as ex:
        scattered = []
        scatter = ex.scatter
        monkeypatch.setattr(ex, "scatter", lambda v: scattered.append(v) or scatter(v))
        there = run_sync(evaluating.evaluate_runs(runs, qrels, ["map", "P.10", "ndcg_cut.10"],
                                                  executor=ex))
        assert ex.stats.tasks == len(run_batches([len(r) for r in runs], 2)) == len(runs)
    assert scattered[0].path == qrels.path                               # the qrels, once
    # then each batch's runs, once (not inside the task graph)
    assert [[r.name for r in b] for b in scattered[1:]] == [[r.name] for r in runs]
    assert sorted(seen) == sorted(r.name for r in runs)
    assert list(there) == list(here)
    for name, ev in here.items():
        assert there[name].judged is None
        assert there[name].per_topic.equals(ev.per_topic)
        assert there[name].summary.equals(ev.summary)


def test_relative_run_paths_are_read_from_here_not_the_workers_directory(
        capsysbinary, sample, tmp_path, monkeypatch):
    """A worker's working directory is its own (a ``dask worker`` started in /tmp read
    ``runs/a`` as /tmp/runs/a: "No such file"); the output, errors included, is the
    in-process one."""
    import os
    import shutil

    from yardstick.cli import eval_on_executor

    qrels, runs = sample
    shutil.copy(qrels, tmp_path / "qrels")
    (tmp_path / "runs").mkdir()
    shutil.copy(runs[0], tmp_path / "runs" / "a")
    monkeypatch.chdir(tmp_path)
    real = eval_on_executor.measure_batch

    def elsewhere(*args, **kwargs):             # the task runs in another directory
        os.chdir("/")
        try:
            return real(*args, **kwargs)
        finally:
            os.chdir(tmp_path)

    for argv in (["-m", "map", "qrels", "runs/a"], ["-m", "map", "qrels", "runs/nosuch"]):
        here = _eval(capsysbinary, argv)
        monkeypatch.setattr(eval_on_executor, "measure_batch", elsewhere)
        there = _eval(capsysbinary, ["--dask", SPEC, *argv])
        monkeypatch.setattr(eval_on_executor, "measure_batch", real)
        assert here == there
    assert here[0] == 1 and b"runs/nosuch: cannot read run file" in here[2]


def test_a_run_from_standard_input_is_evaluated_by_a_worker_process(capsysbinary, sample,
                                                                    monkeypatch):
    """The run read from standard input travels to a worker process; it went without its
    scores, and trec_eval's order, cached in this process only, could not be made there
    (TypeError: object of type 'NoneType' has no len())."""
    import io
    import sys

    from yardstick.inputs.io.text_source import read_bytes

    qrels, runs = sample
    data = read_bytes(runs[0], "run")

    def stdin():
        return io.TextIOWrapper(io.BytesIO(data))

    monkeypatch.setattr(sys, "stdin", stdin())
    here = _eval(capsysbinary, ["-m", "map", "-m", "P.10", qrels, "-", runs[1]])
    monkeypatch.setattr(sys, "stdin", stdin())
    there = _eval(capsysbinary, ["--dask", "local:1", "-m", "map", "-m", "P.10", qrels, "-",
                                 runs[1]])
    assert here == there and here[0] == 0 and here[1].count(b"runid") == 2
