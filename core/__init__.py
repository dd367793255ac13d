"""Yardstick: trec_eval-exact evaluation, run comparison, topic-set stability and pool diagnostics.

``import yardstick as ys`` gives the Python API (:mod:`yardstick.api`)::

    qrels = ys.read_qrels("qrels.txt")
    df = ys.evaluate(qrels, ["run1.txt", "run2.txt"], ["map", "nDCG@10", "P@10"])
    ys.wide(df)

The names are loaded on first use, so ``yardstick eval`` (which imports this
package) stays fast.  Everything under ``yardstick`` except ``yardstick.gui`` is
Qt-free (``tests/test_core_is_qt_free.py``).
"""

from yardstick.version import __version__  # noqa: F401 - re-exported

_API = ("read_qrels", "read_runs", "evaluate", "evaluations", "wide", "compare", "experiment",
        "stability_report", "pool_report", "plot_recall_precision", "export_table",
        "sample_paths", "EvalOptions", "compare_qrels", "compare_systems")
_INTEROP = ("to_ranx", "to_ir_measures", "to_trec_frames", "ranx_report_frame")
_SPEC = ("MeasureSpec", "parse_measure")

__all__ = [*_API, *_INTEROP, *_SPEC, "__version__"]


def __getattr__(name: str):
    if name in _API:
        from yardstick import api

        return getattr(api, name)
    if name in _INTEROP:
        from yardstick import interop

        return getattr(interop, name)
    if name in _SPEC:
        from yardstick.evaluation.measures import spec

        return getattr(spec, name)
    raise AttributeError(f"module 'yardstick' has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *__all__})
