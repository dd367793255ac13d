"""``run_means`` (the run filter's ranking and the system-ranking chart) agrees with the
plain pandas computation it replaced: trec_eval's "all" values without a topic group,
the mean of the per-topic values (the sum for ``num_*`` counts) over a topic group."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tests.gui_support import QRELS, RUNS
from yardstick.common.progress import run_sync
from yardstick.inputs.io.qrels_file import read_qrels
from yardstick.inputs.io.run_file import read_run
from yardstick.presentation.charts.scores import run_means
from yardstick.session.evaluating import evaluate_runs

MEASURES = ["map", "P_10", "num_rel_ret", "recip_rank", "ndcg_cut_10"]


@pytest.fixture(scope="module")
def evaluations():
    return run_sync(evaluate_runs([read_run(p) for p in RUNS], read_qrels(QRELS),
                                  ["official", "ndcg_cut"]))


def _direct(evs, measures, topics=None):
    rows = {}
    for name, ev in evs.items():
        if topics is None:
            rows[name] = ev.summary.reindex(measures).astype(float)
        else:
            pt = ev.per_topic.reindex([str(t) for t in topics])[measures].astype(float)
            row = pt.mean()
            summed = [m for m in measures if m.startswith("num_")]
            row[summed] = pt[summed].sum()
            rows[name] = row
    return pd.DataFrame(rows).T


def test_means_without_topics_are_trec_evals_all_values(evaluations):
    got = run_means(evaluations, MEASURES + ["no_such_measure"])
    want = _direct(evaluations, MEASURES + ["no_such_measure"])
    assert list(got.index) == list(evaluations) and got.index.name == "run"
    np.testing.assert_array_equal(got.to_numpy(), want.to_numpy())
    assert got["no_such_measure"].isna().all()


def test_means_over_a_topic_group_average_and_sum_counts(evaluations):
    first = next(iter(evaluations.values()))
    topics = list(first.per_topic.index[::3]) + ["no-such-topic"]
    got = run_means(evaluations, MEASURES, topics=topics, runs=list(evaluations)[::-1])
    want = _direct({n: evaluations[n] for n in list(evaluations)[::-1]}, MEASURES, topics)
    np.testing.assert_allclose(got.to_numpy(), want.to_numpy(), rtol=0, atol=1e-15)
    with pytest.raises(KeyError):
        run_means(evaluations, ["no_such_measure"], topics=topics)
