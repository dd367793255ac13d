"""Many runs evaluated as executor tasks (:mod:`yardstick.common.executor`).

The qrels go to the workers once (scattered); the runs are split into about four
chunks a worker, each chunk one task that evaluates its runs with
:func:`yardstick.evaluation.engine.evaluate_run`, exactly as in-process — the
numbers are trec_eval's wherever they are computed.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Sequence
from dataclasses import is_dataclass, replace

from yardstick.common.executor import Executor
from yardstick.common.options import EvalOptions
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run

__all__ = ["evaluate_runs_on", "evaluate_chunk", "travelling"]


def evaluate_chunk(runs: Sequence[Run], qrels: Qrels, measures: Sequence[str],
                   options: EvalOptions) -> list:
    """``[(run name, Evaluation)]`` of some runs (one task).  What of an evaluation cannot
    be pickled back (its judged ranking keeps weak references to the run's caches) is
    left on the worker: the numbers, the per-topic table and the summary come back."""
    from yardstick.evaluation.engine import evaluate_run

    out = []
    for r in runs:
        ev = evaluate_run(r, qrels, measures, options)
        if not _picklable(ev):
            ev = replace(ev, judged=None, columns=())
        out.append((r.name, ev))
    return out


def evaluate_runs_on(executor: Executor, qrels: Qrels, runs: Sequence[Run],
                     measures: Sequence[str], options: EvalOptions) -> dict:
    """``{run name: Evaluation}`` in the runs' order, computed on ``executor``."""
    runs = [travelling(r) for r in runs]
    n_chunks = max(1, min(len(runs), 4 * executor.workers))
    size = -(-len(runs) // n_chunks) if runs else 1
    q = executor.scatter(travelling(qrels))
    chunks = [(runs[i:i + size],) for i in range(0, len(runs), size)]
    out: dict = {}
    for part in executor.map(evaluate_chunk, chunks, qrels=q, measures=list(measures),
                             options=options):
        out.update(part)
    return out


def travelling(obj):
    """``obj`` without the cached entries of its ``meta`` that cannot be pickled (those
    holding weak references, e.g. a run's judgments cached per qrels; rebuilt where
    needed)."""
    meta = getattr(obj, "meta", None)
    if not isinstance(meta, dict):
        return obj
    kept = {k: v for k, v in meta.items() if _picklable(v)}
    if len(kept) == len(meta):
        return obj
    if is_dataclass(obj):
        return replace(obj, meta=kept)
    clone = copy.copy(obj)
    clone.meta = kept
    return clone


def _picklable(value) -> bool:
    try:
        pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except (TypeError, pickle.PicklingError, AttributeError):
        return False
    return True
