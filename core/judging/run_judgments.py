"""What the qrels say about each line of a run, and the run in trec_eval's order: the two
things computed once per run (and qrels) that every judged ranking is cut from.

* :func:`cached_order` — the run's lines in trec_eval's order
  (:func:`yardstick.inputs.ranking.trec_order`: topic, score descending, docno descending),
  kept per run and compat level (:mod:`yardstick.inputs.run_cache`);
* :func:`ranked_judgments` — the judgment of each line in that order, kept per run
  for the qrels it was joined with (``form_res_rels.c``'s look-up, done once):
  ``>= 0`` the judgment, :data:`NONPOOL` (-1) not in the qrels, :data:`UNJUDGED` (-2)
  a negative judgment (trec_eval's ``RELVALUE_NONPOOL`` / ``RELVALUE_UNJUDGED``).

:func:`yardstick.judging.judged.build_judged_ranking` (one run, any options) and
:func:`yardstick.judging.judged_runs_build.build_judged_runs` (every run, the pool) read both.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

import numpy as np

from yardstick.inputs.ranking import cached_order
from yardstick.inputs.run import Run
from yardstick.inputs.run_cache import derived

if TYPE_CHECKING:
    from yardstick.inputs.qrels import Qrels

NONPOOL = -1
UNJUDGED = -2


def line_judgments(run: Run, qrels: Qrels, q_run_code: np.ndarray | None = None,
                   last_join: bool = False) -> np.ndarray:
    """The judgment of every run line (int32, in the file's order): the qrels value,
    :data:`UNJUDGED` for a negative one, :data:`NONPOOL` when the qrels lack the line.

    Each qrels row is looked up in the run's join index (:meth:`Run.lookup`, exact on
    the docno bytes); ``last_join`` frees that index afterwards.  ``q_run_code``: per
    qrels topic, its code in the run (-1 if the run lacks it), when already known.
    """
    q_topics, q_code = qrels.topic_index
    if q_run_code is None:
        run_pos = {t: i for i, t in enumerate(run.topics.tolist())}
        q_run_code = np.array([run_pos.get(t, -1) for t in q_topics.tolist()], dtype=np.int64)
    row_run_code = q_run_code[q_code]
    frame_rel = qrels.rel
    if bool((q_run_code >= 0).all()):  # every judged topic has run lines: no row to leave out
        hit = run.lookup(row_run_code, qrels.docno_bytes, qrels.docno_hash)
        vals = frame_rel
    else:
        ok = row_run_code >= 0
        hit = run.lookup(row_run_code[ok], qrels.docno_bytes[ok], qrels.docno_hash[ok])
        vals = frame_rel[ok]
    if last_join:
        run.drop_join_index()
    rel_line = np.full(len(run), NONPOOL, dtype=np.int32)  # (in the join index's room)
    found = hit >= 0
    vals = vals[found]
    rel_line[hit[found]] = np.where(vals < 0, UNJUDGED, vals)
    return rel_line


def judgment_dtype(qrels: Qrels) -> np.dtype:
    """The narrowest integer type holding every judgment code of ``qrels`` (int8 for
    the usual 0..127 grades): what :func:`ranked_judgments` keeps, one a ranked line."""
    top = int(qrels.rel.max()) if len(qrels.rel) else 0
    for t in (np.int8, np.int16):
        if top <= np.iinfo(t).max:
            return np.dtype(t)
    return np.dtype(np.int32)


def ranked_judgments(run: Run, qrels: Qrels, compat: int = 10) -> np.ndarray:
    """The judgment of every line of ``run`` in trec_eval's order
    (:func:`cached_order`: all its topics, every line), in :func:`judgment_dtype`.

    The qrels are joined once per (run, qrels) and the result is kept on the run
    (:data:`~yardstick.inputs.run_cache.RUN_CACHE`, with a weak reference to these qrels:
    other qrels replace it), so every option of
    :func:`~yardstick.judging.judged.build_judged_ranking` and the judged runs of the pool
    (:mod:`yardstick.judging.judged_runs_build`, which keeps them as views of its own array)
    read the same judgments.
    """
    entry = derived(run)
    with entry.lock:                    # joined once, whichever thread asks first
        kept = entry.judgments
        if kept is not None and kept[0]() is qrels:
            if kept[1] == compat:
                return kept[2]
            rel_line = np.empty(len(run), kept[2].dtype)     # another compat: reorder
            rel_line[cached_order(run, kept[1])] = kept[2]
        else:
            rel_line = line_judgments(run, qrels)
        order = cached_order(run, compat)
        dtype = judgment_dtype(qrels)
        ranked = rel_line.astype(dtype) if _is_identity(order) else rel_line[order].astype(dtype)
        del rel_line
        keep_judgments(run, qrels, compat, ranked)
        return entry.judgments[2]


def keep_judgments(run: Run, qrels: Qrels, compat: int, ranked: np.ndarray) -> None:
    """Keep ``ranked`` as the run's :func:`ranked_judgments` for ``qrels`` (a view of a
    larger array may replace the run's own copy: the memory is then shared)."""
    ranked = ranked.view()
    ranked.flags.writeable = False          # shared: every judged ranking of the run reads it
    derived(run).judgments = (weakref.ref(qrels), compat, ranked)


def _is_identity(order: np.ndarray) -> bool:
    """Whether ``order`` is 0, 1, 2, ... (checked a slice at a time, no big temporary)."""
    step = 1 << 20
    for a in range(0, len(order), step):
        part = order[a:a + step]
        if part[0] != a or not bool((part == np.arange(a, a + len(part), dtype=part.dtype)).all()):
            return False
    return True


def run_topic_counts(run: Run) -> np.ndarray:
    """Lines per run topic code, computed once per run (the reader counts them as it parses)."""
    entry = derived(run)
    counts = entry.topic_counts
    if counts is None:
        counts = entry.topic_counts = np.bincount(run.topic_code, minlength=len(run.topics))
    return counts


def segment_of_sorted(start: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """``np.searchsorted(start, idx, side="right") - 1`` (int64): the segment of each
    position of ``idx`` in the CSR offsets ``start``; for a sorted ``idx`` (the usual
    case) by cutting ``idx`` at the offsets and repeating each segment's number, a
    search per segment instead of one per position (the same numbers)."""
    idx = np.asarray(idx)
    n = len(idx)
    if n < 2 * len(start) or idx.ndim != 1 or idx[0] < start[0] or not bool(
            (idx[1:] >= idx[:-1]).all()):
        return np.searchsorted(start, idx, side="right").astype(np.int64) - 1
    # per segment s (and past the last offset: len(start) - 1), the positions in
    # [start[s], start[s + 1]); an empty segment's offset repeats the next one's
    cut = np.searchsorted(idx, start, side="left")
    counts = np.diff(np.append(cut, n))
    return np.repeat(np.arange(len(start), dtype=np.int64), counts)
