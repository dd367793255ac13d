"""A load under way tells how many runs it has added of how many (issue #28, round five:
Compare's "Holm over N comparisons" counted only the runs loaded so far, without a word).
A file of no stated kind counts as a run until it is read as something else."""

from __future__ import annotations

from tests.gui_support import QRELS, RUNS
from yardstick.common.progress import run_sync
from yardstick.session.loading import LoadResult
from yardstick.session.model import Session


def test_progress_counts_the_runs_added_of_the_runs_to_come():
    s = Session()
    assert s.load_progress() is None
    load = s.start_load([(str(QRELS), None), (str(RUNS[0]), "run"), (str(RUNS[1]), None)],
                        "load-1")
    assert s.load_progress() == (0, 3)        # the qrels, of no stated kind, might be a run
    seen = []

    def piece(p) -> None:
        if isinstance(p, LoadResult):
            load.receive(p)
            load.flush()
            seen.append(s.load_progress())

    res = run_sync(load.job(), on_progress=piece)
    # the qrels read: two runs to come; then each run added
    assert seen == [(0, 2), (1, 2), (2, 2)]
    assert len(s.workspace.runs) == 2
    load.finish(res)
    assert s.load_progress() is None
