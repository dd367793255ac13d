"""Yardstick from Python: read, evaluate, compare and diagnose with pandas DataFrames.

``import yardstick as ys`` gives these functions; they return the same numbers
as ``yardstick eval`` (the session's evaluation function,
:func:`yardstick.session.evaluating.measure`).

>>> import yardstick as ys
>>> paths = ys.sample_paths()
>>> qrels = ys.read_qrels(paths["qrels"])
>>> runs = ys.read_runs(paths["runs"][:2])
>>> df = ys.evaluate(qrels, runs, ["map", "nDCG@10"], per_topic=False)
>>> list(df.columns)
['run', 'topic', 'measure', 'value']
>>> ys.wide(df).round(4)                   # doctest: +NORMALIZE_WHITESPACE
measure     map  nDCG@10
run
okBM25   0.2894   0.3597
okBM25a  0.2727   0.3432

Qrels and runs may be paths, lists of paths, :class:`~yardstick.inputs.qrels.Qrels` /
:class:`~yardstick.inputs.run.Run` objects, pandas DataFrames (trec_eval's column names
``topic, docno, rel`` / ``topic, docno, score`` or ir_measures' and ranx's
``query_id, doc_id, relevance`` / ``query_id, doc_id, score``, with a ``run``
column when one frame holds several runs), ``{topic: {docno: value}}`` dicts, or
ranx's ``Qrels``/``Run`` and ir_measures' namedtuple iterables.  Measures are
named in trec_eval's, ir_measures' or ranx's spelling (:mod:`yardstick.evaluation.measures.spec`).

The functions live by topic in :mod:`yardstick.api.evaluation` (reading, evaluating,
tidy and wide tables), :mod:`yardstick.api.comparison` (runs, judgment sets and
systems compared), :mod:`yardstick.api.diagnostics` (stability and pool) and
:mod:`yardstick.api.outputs` (figures and exported tables); every one is here.
"""

from __future__ import annotations

from yardstick.api.comparison import compare, compare_qrels, compare_systems, experiment
from yardstick.api.diagnostics import pool_report, stability_report
from yardstick.api.evaluation import (
    evaluate,
    evaluations,
    read_qrels,
    read_runs,
    sample_paths,
    wide,
)
from yardstick.api.outputs import export_table, plot_recall_precision
from yardstick.common.options import EvalOptions

__all__ = ["read_qrels", "read_runs", "evaluate", "evaluations", "wide", "compare",
           "experiment", "stability_report", "pool_report", "plot_recall_precision",
           "export_table", "sample_paths", "EvalOptions", "compare_qrels", "compare_systems"]
