"""The whole pool report as one job, and the collection characteristics row (Table 1)."""

from __future__ import annotations

import pytest
from pool_fixtures import HAND_DOCS, HAND_TOPICS, hand_qrels, hand_runs

from yardstick.analysis.pool.characteristics import characteristics_table
from yardstick.analysis.pool.report import PoolSettings, iter_pool_report
from yardstick.analysis.pool.titlestat import build_title_index
from yardstick.common.progress import run_sync
from yardstick.judging.judged_runs_build import build_judged_runs


@pytest.fixture(scope="module")
def report_and_progress():
    index = build_judged_runs(hand_runs(), hand_qrels())
    ti = build_title_index(HAND_DOCS, HAND_TOPICS)
    seen = []
    settings = PoolSettings(depth=2, collection="hand", levels={"depth": (1, 2), "mtf": (2, 4),
                                                                  "random": (2, 4)})
    rep = run_sync(iter_pool_report(index, settings, ti, documents=len(HAND_DOCS)), seen.append)
    return rep, seen


def test_characteristics_row_counted_by_hand(report_and_progress):
    rep, _ = report_and_progress
    c = rep.characteristics
    assert c.documents == 16
    assert c.mean_pool_size == pytest.approx((4 + 5) / 2)
    # relevant share of each pool: 3/4 and 2/5
    assert c.pct_pool_relevant == pytest.approx(100 * (3 / 4 + 2 / 5) / 2)
    # qrels: 6 judged (4 relevant) and 4 judged (3 relevant)
    assert c.mean_judged == pytest.approx(5.0)
    assert c.pct_judged_relevant == pytest.approx(100 * (4 / 6 + 3 / 4) / 2)
    # group LOU: A -40 %, B 100 %, C 33.3 % (see test_pool_uniques)
    assert c.lou_average_percent == pytest.approx((-40 + 100 + 100 / 3) / 3)
    assert c.titlestat_rel == pytest.approx((0.75 + 1 / 3) / 2)
    table = characteristics_table([c, c])
    assert list(table.index) == ["hand", "hand"]


def test_every_table_is_named_and_progress_runs_to_the_end(report_and_progress):
    rep, seen = report_and_progress
    tables = rep.tables()
    assert {"pool_per_topic", "uniques_group", "titlestat_rank", "simulation_mtf",
            "characteristics", "earliest_rank_histogram"} <= set(tables)
    assert tables["simulation_depth"]["level"].tolist().count(2) == 4   # one row per measure
    fractions = [p.fraction for p in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0


def test_closing_the_job_cancels_it():
    index = build_judged_runs(hand_runs(), hand_qrels())
    job = iter_pool_report(index, PoolSettings(depth=2))
    first = next(job)
    assert first.fraction == 0.0
    job.close()                               # what the GUI runner does on cancel
    with pytest.raises(StopIteration):
        next(job)


def test_an_empty_pool_reports_zeros_not_errors():
    index = build_judged_runs(hand_runs(), hand_qrels())
    rep = run_sync(iter_pool_report(index, PoolSettings(
        depth={}, analyses=("stats", "uniques", "sources", "simulate"),
        levels={"depth": (1,), "mtf": (2,), "random": (2,)})))
    assert rep.stats.summary["total_pool_size"] == 0
    assert rep.stats.per_topic["judged_outside_pool"].tolist() == [6, 4]   # every judgment
    assert rep.uniques_group.summary["unique_relevant"] == 0
    assert rep.uniques_group.summary["max_percent"] == 0.0
    assert rep.depth_curve is None
    assert rep.simulations["random"].levels["relevant"].tolist() == [0, 0, 0, 0]


def test_pool_analyses_come_from_one_registry():
    """The CLI's choices, its printed sections, the panel's boxes and the report's tables all
    follow yardstick.analysis.pool.report.REGISTRY: an analysis added there is run, tabled and
    summarised without another if/elif."""
    import pandas as pd

    from yardstick.analysis.pool.report import (
        ANALYSES,
        REGISTRY,
        PoolAnalysis,
        PoolSettings,
        iter_pool_report,
    )
    from yardstick.cli.pool_output import PRINTERS
    from yardstick.common.progress import Progress, run_sync

    assert ANALYSES == tuple(REGISTRY) == ("stats", "sources", "uniques", "titlestat", "simulate")
    assert set(PRINTERS) == set(REGISTRY)
    seen = []

    def compute(ctx):
        seen.append(int(ctx.depth.max()))
        yield Progress(0.5, 1, "half way")
        return {}

    extra = PoolAnalysis("extra", "An extra analysis", compute,
                         lambda r: {"extra_table": pd.DataFrame({"x": [1]})},
                         summary=lambda r: ["extra summary."])
    REGISTRY["extra"] = extra
    try:
        report = run_sync(iter_pool_report(build_judged_runs(hand_runs(), hand_qrels()),
                                           PoolSettings(depth=2, analyses=("extra",))))
        assert "extra_table" in report.tables() and report.stats is None
        assert report.summary() == "extra summary."
    finally:
        del REGISTRY["extra"]
    assert seen == [2]
