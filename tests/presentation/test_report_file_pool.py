"""Table files of a large report are written on the worker process of
``reports/figure_pool.py`` (or here, when the pool has not begun them, or on a Dask
cluster whose workers may not share this file system): the files must be those this
process writes."""

import numpy as np
import pandas as pd

from yardstick.presentation.reports import figure_pool
from yardstick.presentation.reports.figure_pool import RenderedFigures, TableFile


def _frame(rows: int) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    return pd.DataFrame({"run": [f"r{k}" for k in range(rows)], "p_value": rng.random(rows),
                         "n_topics": np.arange(rows)}).set_index("run")


def test_table_files_from_the_worker_equal_those_written_here(tmp_path):
    frame = _frame(300)
    jobs = {("table", fmt): TableFile(frame, str(tmp_path / "pool" / f"t.{fmt}"), fmt,
                                      caption="p-values")
            for fmt in ("csv", "latex", "markdown")}
    with RenderedFigures(jobs, workers=1) as pooled:
        written = {k: pooled.get(k) for k in jobs}
        assert pooled.get(("table", "csv")) is written["table", "csv"]  # made once
    for _, fmt in jobs:
        here = figure_pool.run_job(TableFile(frame, str(tmp_path / "here" / f"t.{fmt}"), fmt,
                                             caption="p-values"))
        assert (tmp_path / "pool" / f"t.{fmt}").read_bytes() == here.read_bytes(), fmt


class _Cluster:
    """An executor that is not local: what ``--dask tcp://…`` gives."""

    local = False

    def __init__(self):
        self.submitted = []

    def submit(self, fn, *args):
        self.submitted.append(args[0])
        return fn(*args)

    def results(self, futures):
        for k, f in enumerate(futures):
            yield k, f, None

    def cancel(self, futures):
        pass


def test_a_cluster_renders_figures_but_tables_are_written_here(tmp_path):
    cluster = _Cluster()
    figure_pool.use_executor(cluster)
    try:
        table = TableFile(_frame(5), str(tmp_path / "t.csv"), "csv")
        figure = figure_pool.FigureFile(lambda ax: ax.plot([0, 1]), 2, 2, "png", 30)
        with RenderedFigures({"t": table, "f": figure}) as made:
            assert made.get("f")[:4] == b"\x89PNG"
            assert made.get("t") == tmp_path / "t.csv" and (tmp_path / "t.csv").exists()
    finally:
        figure_pool.use_executor(None)
    assert cluster.submitted == [figure]
    assert figure_pool.job_cost(table) < figure_pool.job_cost(figure)
