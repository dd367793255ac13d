"""About the bytes a value takes when sent to a Dask worker, without pickling it (the
executor's :class:`~yardstick.common.executor.TaskStats`)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["data_size"]


def data_size(value: Any, skip: Callable[[Any], bool] | None = None) -> int:
    """About the bytes ``value`` takes when sent (futures inside arguments count as nothing:
    they are keys): :func:`_nbytes`, no pickling (pickling a 300 MB shipment only to count
    its bytes cost the client 0.3 s before any task could start)."""
    if skip is not None and isinstance(value, tuple):
        value = tuple(None if skip(v) else v for v in value[0]), value[1]
    try:
        return _nbytes(value, set())
    except Exception:  # noqa: BLE001 - a size is only reported
        return 0


def _nbytes(value: Any, seen: set[int]) -> int:
    """The data bytes of ``value``: numpy arrays' ``nbytes`` (what dominates a pickle of
    score matrices or judged runs), pandas objects' memory, ``bytes``/``str`` lengths,
    containers and objects' attributes walked once each; anything else its
    ``sys.getsizeof``."""
    if id(value) in seen:
        return 0
    seen.add(id(value))
    if isinstance(value, np.ndarray):
        return value.nbytes if value.dtype != object else sum(
            _nbytes(v, seen) for v in value.ravel().tolist())
    if isinstance(value, (bytes, bytearray, memoryview, str)):
        return len(value)
    if isinstance(value, (int, float, complex, bool, type(None))):
        return 8
    if hasattr(value, "memory_usage") and hasattr(value, "to_numpy"):     # pandas
        usage = value.memory_usage(index=True, deep=True)
        return int(usage.sum() if hasattr(usage, "sum") else usage)
    if isinstance(value, dict):
        return sum(_nbytes(k, seen) + _nbytes(v, seen) for k, v in value.items())
    if isinstance(value, (list, tuple, set, frozenset)):
        return sum(_nbytes(v, seen) for v in value)
    fields = getattr(value, "__dict__", None)
    slots = [n for c in type(value).__mro__ for n in getattr(c, "__slots__", ())]
    if fields is None and not slots:
        return sys.getsizeof(value)
    out = _nbytes(fields, seen) if fields is not None else 0
    return out + sum(_nbytes(getattr(value, n, None), seen) for n in slots)
