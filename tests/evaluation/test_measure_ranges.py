"""A large ranking is measured in topic ranges on several threads (issue #19).

:func:`yardstick.evaluation.engine.compute_columns` (asked to, as ``yardstick eval`` and the
evaluation service do) cuts a ranking of a million lines or more into topic
ranges and measures each on its own thread.  That is only
right if every kernel's value for a topic depends on that topic alone.  These
tests force the cut on trec_eval's own test collection (every range a few
topics) and hold the output to trec_eval's expected files byte for byte,
and to the uncut computation value for value.
"""

from __future__ import annotations

import io
from contextlib import redirect_stdout

import numpy as np
import pytest

from tests.shared_data import data_dir
from yardstick.cli import main
from yardstick.common import threads
from yardstick.evaluation import engine
from yardstick.judging.judged import JudgedRanking

DATA = data_dir("trec_eval_tests") / "v10.0_HEAD"


@pytest.fixture
def ranges(monkeypatch):
    """Every ranking cut into 4 topic ranges; the ranges taken are recorded."""
    monkeypatch.setattr(threads, "PARALLEL_LINES", 1)
    monkeypatch.setattr(threads, "cores", lambda: 4)
    taken: list[tuple[int, int]] = []
    whole = JudgedRanking.topic_range

    def spy(self, a, b):
        taken.append((a, b))
        return whole(self, a, b)

    monkeypatch.setattr(JudgedRanking, "topic_range", spy)
    return taken


def _eval(*args) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["eval", *args]) == 0
    return out.getvalue()


@pytest.mark.parametrize("args, gold", [
    (["-m", "all_trec", "-q", "qrels.test", "results.test"], "out.test.aq"),
    (["-m", "all_trec", "-q", "-c", "qrels.test", "results.trunc"], "out.test.aqc"),
    (["-m", "all_trec", "-q", "-c", "-M100", "qrels.test", "results.trunc"], "out.test.aqcM"),
    (["-m", "all_trec", "-mrelstring.20", "-q", "-l2", "qrels.rel_level", "results.test"],
     "out.test.aql"),
])
def test_ranges_print_trec_eval_s_own_output(ranges, args, gold):
    args = [str(DATA / a) if (DATA / a).is_file() else a for a in args]
    assert _eval(*args) == (DATA / gold).read_text()
    assert len(ranges) >= 2                      # the cut was taken
    assert all(b > a for a, b in ranges)


def test_ranges_equal_the_whole_value_for_value(monkeypatch):
    from yardstick.evaluation.measures.registry import parse_requests
    from yardstick.inputs.io.qrels_file import read_qrels
    from yardstick.inputs.io.run_file import read_run
    from yardstick.judging.judged import build_judged_ranking

    jr = build_judged_ranking(read_run(DATA / "results.test"), read_qrels(DATA / "qrels.test"))
    requests = parse_requests(["all_trec", "relstring.20", "ndcg_cut.3,7", "rbp.p=0.8"], 10)
    whole = engine.compute_columns(jr, requests)
    monkeypatch.setattr(threads, "PARALLEL_LINES", 1)
    monkeypatch.setattr(threads, "cores", lambda: 3)
    assert len(engine._topic_ranges(jr)) == 3
    cut = engine.compute_columns(jr, requests, split=True)
    assert [c.name for c in cut] == [c.name for c in whole]
    for a, b in zip(whole, cut):
        if isinstance(a.values, list):
            assert a.values == b.values, a.name
        else:
            np.testing.assert_array_equal(a.values, b.values, err_msg=a.name)
    # unasked, a ranking is measured whole (callers measuring it again keep its memos)
    monkeypatch.setattr(JudgedRanking, "topic_range", lambda *a: pytest.fail("cut"))
    engine.compute_columns(jr, requests)


def test_ranges_hold_about_equal_lines(monkeypatch):
    start = np.array([0, 10, 20, 900, 1000, 2000, 3000, 4000], np.int64)
    jr = JudgedRanking(np.array(list("abcdefg"), object), start, np.zeros(4000, np.int32),
                       None, np.zeros((7, 2), np.int64), 1, np.zeros(7, bool), 7)
    monkeypatch.setattr(threads, "PARALLEL_LINES", 1000)
    monkeypatch.setattr(threads, "cores", lambda: 2)
    # 4000 lines in two ranges: cut where topic 5 starts, at line 2000
    assert engine._topic_ranges(jr) == [(0, 5), (5, 7)]
    monkeypatch.setattr(threads, "cores", lambda: 1)
    assert engine._topic_ranges(jr) == [(0, 7)]
    monkeypatch.setattr(threads, "cores", lambda: 8)     # 4000 lines: at most 4 ranges
    assert len(engine._topic_ranges(jr)) == 4
