"""What evaluating many runs on an executor (:mod:`yardstick.common.executor`) needs.

:func:`run_batches` cuts a list of runs into contiguous batches, each one executor
task worth at least :data:`MIN_BATCH_LINES` run lines (about 0.1 s or more of
reading and evaluating: about 1 µs a line for trec_eval's official set, measured on
a 150-run × 50-topic generated track) and about four a worker, so that a scheduler's
per-task cost stays small beside the work and a slow batch does not hold the rest.
:func:`travelling` and :func:`returnable` strip what cannot be pickled on the way
to a worker and back.  The tasks themselves evaluate through the session
(:func:`yardstick.session.evaluating.evaluate_runs`; ``yardstick eval --dask``).
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Sequence
from dataclasses import is_dataclass, replace

__all__ = ["MIN_BATCH_LINES", "run_batches", "travelling", "returnable"]

#: Run lines a task evaluates at the least (a 50,000-line run: 0.04–0.05 s of evaluation
#: and about as much reading on a quiet 2-core machine).
MIN_BATCH_LINES = 250_000


def run_batches(sizes: Sequence[int], workers: int,
                min_size: int | None = None) -> list[range]:
    """Contiguous batches of positions ``0 .. len(sizes) - 1``, as even in total size as
    whole runs allow: ``min(4 × workers, total // min_size)`` of them (at least one),
    none empty (``min_size``: :data:`MIN_BATCH_LINES` unless given).

    >>> [list(b) for b in run_batches([100] * 6, workers=1, min_size=200)]
    [[0, 1], [2, 3], [4, 5]]
    """
    min_size = MIN_BATCH_LINES if min_size is None else min_size
    n = len(sizes)
    if n == 0:
        return []
    total = sum(max(0, int(s)) for s in sizes)
    count = max(1, min(n, 4 * max(1, workers), total // max(1, min_size)))
    out, start, done = [], 0, 0
    for i, s in enumerate(sizes):
        done += max(0, int(s))
        left = count - len(out) - 1          # batches still to make after this one
        if left == 0:
            break
        if done * count >= total * (len(out) + 1) or n - i - 1 == left:
            out.append(range(start, i + 1))
            start = i + 1
    out.append(range(start, n))
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


def returnable(ev):
    """An :class:`~yardstick.evaluation.results.Evaluation` that can be pickled back from a
    worker: without its judged ranking (it keeps weak references to the run's caches),
    keeping the numbers, the per-topic table, the summary and the columns."""
    return ev if ev.judged is None else replace(ev, judged=None)


def _picklable(value) -> bool:
    try:
        pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except (TypeError, pickle.PicklingError, AttributeError):
        return False
    return True
