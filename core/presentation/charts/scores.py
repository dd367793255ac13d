"""Getting the numbers charts are drawn from: per-topic score matrices and run means.

Every chart takes either a mapping ``{run name: Evaluation}`` (from
:func:`yardstick.session.evaluating.evaluate_runs`) or, for per-topic charts, a ready
topics × runs score matrix (what :func:`yardstick.evaluation.evaluation_service.score_matrix`
returns),
so diagnostics computed elsewhere (filtering utilities, known-item ranks) can
be drawn by the same code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Union

import numpy as np
import pandas as pd

from yardstick.evaluation.results import Evaluation, mean_over_topics, score_matrix
from yardstick.inputs.topic_order import natural_key

__all__ = ["ScoreSource", "per_topic_scores", "run_means", "topic_sort_key", "sort_topics"]

ScoreSource = Union[Mapping[str, Evaluation], pd.DataFrame]
_SUMMED = ("num_",)


def per_topic_scores(source: ScoreSource, measure: str | None = None,
                     runs: Sequence[str] | None = None,
                     topics: Sequence[str] | None = None) -> pd.DataFrame:
    """Topics × runs matrix of one per-topic measure.

    Parameters
    ----------
    source : mapping run -> Evaluation, or DataFrame
        A DataFrame is taken as the matrix itself (index topics, columns runs).
    measure : str
        trec_eval name (``map``, ``P_10``, ...); needed with evaluations.
    runs, topics : sequences, optional
        Restrict to these runs (in this order) / these topics (a topic group).
    """
    if isinstance(source, pd.DataFrame):
        mat = source.astype(float).copy()
        mat.index = mat.index.astype(str)
    else:
        if measure is None:
            raise ValueError("measure is required with evaluations")
        missing = [n for n, ev in source.items() if measure not in ev.per_topic.columns]
        if missing:
            raise KeyError(f"measure {measure!r} was not computed for {', '.join(missing)}")
        mat = score_matrix(source, measure)
    if runs is not None:
        mat = mat[list(runs)]
    if topics is not None:
        mat = mat.reindex([str(t) for t in topics])
    mat = mat.dropna(how="all")
    mat.index.name = "topic"
    mat.columns.name = "run"
    return mat


def run_means(evaluations: Mapping[str, Evaluation], measures: Sequence[str],
              runs: Sequence[str] | None = None,
              topics: Sequence[str] | None = None) -> pd.DataFrame:
    """Runs × measures table of trec_eval's "all" values.

    Without ``topics`` this is each evaluation's ``summary`` (trec_eval's own
    averaging, including ``-c``); with a topic group it is the mean of the
    per-topic values over those topics a run has
    (:func:`yardstick.evaluation.results.mean_over_topics`; sum for ``num_*`` counts).
    """
    names = list(runs) if runs is not None else list(evaluations)
    measures = list(measures)
    summed = np.array([m.startswith(_SUMMED) for m in measures], bool)
    out = np.full((len(names), len(measures)), np.nan)
    wanted = None if topics is None else pd.Index([str(t) for t in topics])
    for i, name in enumerate(names):            # scalar lookups: 150 runs in a few ms
        ev = evaluations[name]
        if wanted is None:
            s = ev.summary
            out[i] = [float(s[m]) if m in s.index else np.nan for m in measures]
            continue
        pt = ev.per_topic[measures]              # KeyError for a measure not computed
        rows = pt.index.get_indexer(wanted)
        vals = pt.to_numpy(dtype=float)
        vals = np.where((rows >= 0)[:, None], vals[np.maximum(rows, 0)] if len(vals) else np.nan,
                        np.nan)
        out[i] = np.where(summed, np.nansum(vals, axis=0),
                          mean_over_topics(vals, ~np.isnan(vals), axis=0))
    frame = pd.DataFrame(out, index=pd.Index(names, name="run"), columns=measures)
    return frame


def topic_sort_key(topic: str) -> tuple:
    """Natural order (:mod:`yardstick.inputs.topic_order`): ``"2" < "10" < "100"``,
    ``"q9" < "q10"``; equal keys in text order."""
    t = str(topic)
    return (natural_key(t), t)


def sort_topics(topics) -> list[str]:
    """Topic ids in natural order (chart axes, menus)."""
    return sorted((str(t) for t in topics), key=topic_sort_key)


def finite_or_nan(a) -> np.ndarray:
    a = np.asarray(a, dtype=float)
    return np.where(np.isfinite(a), a, np.nan)
