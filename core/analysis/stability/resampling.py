"""Vectorised topic resampling shared by every stability diagnostic.

All diagnostics in :mod:`yardstick.analysis.stability` start from a *score matrix*: a
:class:`pandas.DataFrame` with one row per topic and one column per run holding
a per-topic measure
(``yardstick.evaluation.evaluation_service.score_matrix(evals, "map")``).  A set of
``B`` topic samples is a ``B × n`` index array (drawn all at once: a row-wise
shuffle for subsets, ``integers`` for bootstrap samples), or equivalently a
``B × N`` weight matrix ``W`` (``W[b, t]`` = multiplicity of topic ``t`` in
sample ``b`` over ``n``).  Every run's mean on every sample is one gather-sum
(:func:`sample_means`, ``B × R``) or one product ``W @ S``; the differences of
all run pairs on all samples come from :func:`pair_differences` (``P × B``,
``P = R(R−1)/2``, pairs ``i < j`` in :func:`run_pairs` order).  Nothing here
loops in Python over samples × runs or samples × topics.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
import pandas as pd

__all__ = ["ScoreArray", "as_score_array", "run_pairs", "pair_frame", "subset_indices",
           "disjoint_subset_indices", "bootstrap_indices", "weights_from_indices",
           "sample_means", "pair_differences", "bin_index"]


#: Samples × runs that :func:`sample_means` adds up in one block (1000 samples of 150 runs:
#: each gather a hand-over of the interpreter lock, see swap_rates.BLOCK_ELEMENTS)
GATHER_ELEMENTS = 150_000


class ScoreArray:
    """A validated score matrix as a float64 array plus its labels.

    Attributes
    ----------
    values : numpy.ndarray
        ``N × R`` float64, no NaN.
    topics : list of str
    runs : list of str
    """

    __slots__ = ("values", "topics", "runs")

    def __init__(self, values: np.ndarray, topics: Sequence[str], runs: Sequence[str]):
        self.values = values
        self.topics = [str(t) for t in topics]
        self.runs = [str(r) for r in runs]

    @property
    def n_topics(self) -> int:
        return self.values.shape[0]

    @property
    def n_runs(self) -> int:
        return self.values.shape[1]


def as_score_array(scores: pd.DataFrame | np.ndarray, min_topics: int = 1,
                   min_runs: int = 2) -> ScoreArray:
    """Check a topics × runs score matrix and return it as a :class:`ScoreArray`.

    Raises
    ------
    ValueError
        When the matrix holds NaN (a run without a score on some topic: evaluate
        with ``complete=True`` — trec_eval ``-c`` — or ``fillna(0)`` first), or
        has fewer than ``min_topics`` topics or ``min_runs`` runs.
    """
    if isinstance(scores, pd.DataFrame):
        values = scores.to_numpy(dtype=np.float64)
        topics, runs = list(scores.index), list(scores.columns)
    else:
        values = np.asarray(scores, dtype=np.float64)
        if values.ndim != 2:
            raise ValueError("a score matrix must be 2-D (topics × runs)")
        topics, runs = list(range(values.shape[0])), list(range(values.shape[1]))
    if values.shape[0] < min_topics:
        raise ValueError(f"need at least {min_topics} topics, the score matrix has "
                         f"{values.shape[0]}")
    if values.shape[1] < min_runs:
        raise ValueError(f"need at least {min_runs} runs, the score matrix has {values.shape[1]}")
    bad = np.isnan(values)
    if bad.any():
        t, r = np.argwhere(bad)[0]
        raise ValueError(f"the score matrix has {int(bad.sum())} missing value(s) (first: run "
                         f"{runs[r]!r}, topic {topics[t]!r}); evaluate with complete=True "
                         "(trec_eval -c) or fill them with 0")
    return ScoreArray(np.ascontiguousarray(values), topics, runs)


def run_pairs(n_runs: int) -> tuple[np.ndarray, np.ndarray]:
    """Indices ``(i, j)`` of every unordered run pair, ``i < j`` (row-major order)."""
    return np.triu_indices(n_runs, k=1)


def pair_frame(runs: Sequence[str]) -> pd.DataFrame:
    """The run pairs of :func:`run_pairs` as a frame with columns ``run_a``, ``run_b``."""
    ii, jj = run_pairs(len(runs))
    names = np.asarray(runs, dtype=object)
    return pd.DataFrame({"run_a": names[ii], "run_b": names[jj]})


def subset_indices(rng: np.random.Generator, n_topics: int, size: int,
                   n_samples: int) -> np.ndarray:
    """``n_samples × size`` topic indices, each row drawn without replacement."""
    if not 1 <= size <= n_topics:
        raise ValueError(f"subset size must be in 1..{n_topics}, not {size}")
    keys = rng.random((n_samples, n_topics))
    return np.argpartition(keys, size - 1, axis=1)[:, :size] if size < n_topics \
        else np.argsort(keys, axis=1)


def disjoint_subset_indices(rng: np.random.Generator, n_topics: int, size: int,
                            n_samples: int) -> tuple[np.ndarray, np.ndarray]:
    """Two ``n_samples × size`` index arrays whose rows are disjoint topic subsets.

    Row ``b`` of both comes from one random permutation of the topics
    (``Generator.permuted``, one shuffle per row in C): its first ``size``
    entries and the next ``size`` (Voorhees and Buckley 2002).
    """
    if not 1 <= 2 * size <= n_topics:
        raise ValueError(f"disjoint subsets need 1 <= size <= {n_topics // 2}, not {size}")
    base = np.broadcast_to(np.arange(n_topics, dtype=np.intp), (n_samples, n_topics))
    perm = rng.permuted(base, axis=1)
    return perm[:, :size], perm[:, size:2 * size]


def bootstrap_indices(rng: np.random.Generator, n_topics: int, size: int,
                      n_samples: int) -> np.ndarray:
    """``n_samples × size`` topic indices drawn with replacement (Efron and Tibshirani 1993)."""
    if size < 1:
        raise ValueError(f"sample size must be >= 1, not {size}")
    return rng.integers(0, n_topics, size=(n_samples, size))


def weights_from_indices(indices: np.ndarray, n_topics: int) -> np.ndarray:
    """``B × N`` weight matrix: multiplicity of each topic in each row, over the row length."""
    n_samples, size = indices.shape
    flat = (np.arange(n_samples)[:, None] * n_topics + indices).ravel()
    counts = np.bincount(flat, minlength=n_samples * n_topics)
    return counts.reshape(n_samples, n_topics) / float(size)


def sample_means(values: np.ndarray, indices: np.ndarray, out: np.ndarray | None = None,
                 ) -> np.ndarray:
    """Mean score of every run on every sample: ``B × R`` (into ``out`` if given).

    ``values[indices[:, 0]] + values[indices[:, 1]] + …`` over the sample's topics, then
    divided by ``n``: the additions ``values[indices].sum(axis=1)`` makes, in the same
    order, so the same floats, without its ``B × n × R`` gather (one ``B × R`` row block at
    a time instead, which stays in the CPU cache; in blocks of :data:`GATHER_ELEMENTS`
    samples × runs).  (For these shapes this beats ``weights @ values``, whose
    multi-threaded BLAS call costs more than the arithmetic when cores are shared, and
    whose sums come in another order.)  ``np.take(..., mode="clip")``: the indices are
    valid, and the default ``mode="raise"`` copies ``out`` on every call (on a Dask
    worker, whose ``MALLOC_TRIM_THRESHOLD_`` fixes glibc's mmap threshold, each copy is
    mapped and faulted afresh: the gather ran 10–20× slower there).
    """
    n_samples, size = indices.shape
    n_runs = values.shape[1]
    out = np.empty((n_samples, n_runs)) if out is None else out
    if size == 0:
        out.fill(np.nan)
        return out
    step = max(1, GATHER_ELEMENTS // max(n_runs, 1))
    row = _scratch(min(step, n_samples) * n_runs).reshape(-1, n_runs)
    for lo in range(0, n_samples, step):
        block = out[lo:lo + step]
        cols = indices[lo:lo + step]
        np.take(values, cols[:, 0], axis=0, out=block, mode="clip")
        part = row[:len(block)]
        for t in range(1, size):
            np.take(values, cols[:, t], axis=0, out=part, mode="clip")
            block += part
        block /= size
    return out


_local = threading.local()


def _scratch(size: int) -> np.ndarray:
    """``size`` float64 of this thread's scratch buffer, kept between calls (on a Dask
    worker a new array of over 128 kB is mapped and faulted in afresh each time)."""
    buf = getattr(_local, "buf", None)
    if buf is None or len(buf) < size:
        buf = _local.buf = np.empty(size)
    return buf[:size]


def pair_differences(means: np.ndarray) -> np.ndarray:
    """``m_i − m_j`` of every run pair ``i < j`` on every sample: ``P × B``.

    ``means`` is ``B × R`` (samples × runs).  Pairs come in :func:`run_pairs`
    order; the output is built one block per first run ``i`` (``R − 1`` numpy
    subtractions, each over all later runs × all samples), which is several
    times faster than a fancy-index gather of both columns.
    """
    mt = np.ascontiguousarray(means.T)
    n_runs, n_samples = mt.shape
    out = np.empty((n_runs * (n_runs - 1) // 2, n_samples))
    k = 0
    for i in range(n_runs - 1):
        m = n_runs - 1 - i
        np.subtract(mt[i], mt[i + 1:], out=out[k:k + m])
        k += m
    return out


def bin_index(abs_diff: np.ndarray, width: float, out_scratch: bool = False) -> np.ndarray:
    """Difference bin of each value: ``k`` such that ``k·width <= |d| < (k+1)·width``.

    ``1e-9`` is added to ``|d| / width`` before truncation so that a difference
    of exactly ``0.03`` computed as ``0.0299999…`` lands in the bin starting at
    0.03.  With ``out_scratch=True`` the input array is overwritten (saves a copy).
    """
    if not width > 0:
        raise ValueError(f"bin width must be > 0, not {width}")
    x = abs_diff if out_scratch else np.array(abs_diff, dtype=np.float64)
    np.abs(x, out=x)
    x *= 1.0 / width
    x += 1e-9
    return x.astype(np.intp)


#: the most topic-set sizes the swap-rate analyses sample by default
MAX_SIZES = 60


def default_sizes(largest: int) -> list[int]:
    """Topic-set sizes ``1 .. largest``: every size up to :data:`MAX_SIZES` of them, beyond
    that :data:`MAX_SIZES` sizes spread evenly with ``largest`` itself included (on a
    topic set of tens of thousands, every size would sample for hours).  The exponential
    fit of Voorhees & Buckley (2002) needs the spread, not every size."""
    if largest <= MAX_SIZES:
        return list(range(1, largest + 1))
    return sorted({int(round(x)) for x in np.linspace(1, largest, MAX_SIZES)})
