"""An archive study: one row of collection diagnostics per track, tracks side by side.

The studies behind Yardstick's stability and pooling diagnostics ran them across
whole series of collections: Voorhees & Buckley, "The effect of topic set size on
retrieval experiment error", SIGIR 2002 (TREC-3 to 8: the minimum difference for a
5 % swap rate at 25 and 50 topics, §4, Table 2); Buckley, Dimmick, Soboroff &
Voorhees, "Bias and the limits of pooling for large collections", Information
Retrieval 2007 (leave-out-uniques across collections, §4); Sakai, "Topic set size
design", Information Retrieval Journal 2016 (topic-set sizes across test
collections); Sakai, "Evaluating evaluation metrics based on the bootstrap", SIGIR
2006 (discriminative power).  :func:`track_row` computes one track's row from its
directory (qrels, ``runs/``, optional ``groups.tsv`` and ``pooled.txt``);
:func:`archive_table` runs it for every track, one executor task per track (the
track's files are read where the task runs: only paths travel).  It sits with the
session, above the analyses it runs, because it reads files and evaluates the runs
through the session's :func:`yardstick.session.evaluating.evaluate_runs`.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from yardstick.common.errors import FormatError
from yardstick.common.executor import Executor, InProcess
from yardstick.common.progress import run_sync

__all__ = ["ArchiveSettings", "TrackFiles", "track_files", "tracks", "check_measures",
           "track_row", "archive_table"]


@dataclass(frozen=True)
class ArchiveSettings:
    """What every track's row is computed with."""

    measures: tuple[str, ...] = ("map", "P_10")
    samples: int = 1000
    seed: int = 0
    depth: int = 100
    difference: float = 0.05
    sizes: tuple[int, ...] = (25, 50)
    alpha: float = 0.05
    beta: float = 0.20
    bin_width: float = 0.01
    level: int = 1


@dataclass(frozen=True)
class TrackFiles:
    """A track directory's files: qrels, run files, and the optional groups / pooled lists."""

    name: str
    qrels: str
    runs: tuple[str, ...]
    groups: str | None = None
    pooled: str | None = None


def track_files(directory: str, name: str | None = None) -> TrackFiles:
    """The files of a track directory: ``qrels*`` (or ``*.qrels``), every file under
    ``runs/`` (two or more: the columns compare runs), ``groups.tsv`` and ``pooled.txt``
    when present; named ``name`` (default: the directory's name).  What is missing is a
    :class:`~yardstick.common.errors.FormatError` naming the directory."""
    d = os.path.abspath(directory)
    qrels = sorted(glob.glob(os.path.join(d, "qrels*")) + glob.glob(os.path.join(d, "*.qrels")))
    if not os.path.isdir(d):
        raise FormatError(directory, None, "not a directory (a track directory holds a qrels "
                                           "file and its runs under runs/)")
    if not qrels:
        raise FormatError(directory, None, "no qrels file (qrels* or *.qrels)")
    run_dir = os.path.join(d, "runs")
    runs = sorted(p for p in glob.glob(os.path.join(run_dir, "*")) if os.path.isfile(p))
    if not runs:
        raise FormatError(directory, None, "no run files under runs/")
    if len(runs) < 2:
        raise FormatError(directory, None, "one run file under runs/: the table's columns "
                                           "compare runs (swap rates, discriminative power, "
                                           "Kendall's tau), so a track needs two or more")
    groups = os.path.join(d, "groups.tsv")
    pooled = os.path.join(d, "pooled.txt")
    return TrackFiles(name or os.path.basename(d.rstrip(os.sep)), qrels[0], tuple(runs),
                      groups if os.path.isfile(groups) else None,
                      pooled if os.path.isfile(pooled) else None)


def tracks(directories: Sequence[str]) -> list[TrackFiles]:
    """Every directory's :func:`track_files`, each named by its directory: its name, or,
    where two share it, its path back to where they part (``2004/robust``,
    ``2005/robust``).  A directory given twice is a ``FormatError``."""
    paths = [os.path.realpath(d).rstrip(os.sep) for d in directories]
    for i, p in enumerate(paths):
        if p in paths[:i]:
            raise FormatError(directories[i], None, "given twice (the same directory as "
                                                    f"{directories[paths.index(p)]})")
    parts = [os.path.abspath(d).rstrip(os.sep).split(os.sep) for d in directories]
    names = []
    for i, mine in enumerate(parts):
        k = 1
        while k < len(mine) and any(j != i and other[-k:] == mine[-k:]
                                    for j, other in enumerate(parts)):
            k += 1
        names.append("/".join(mine[-k:]))
    return [track_files(d, n) for d, n in zip(directories, names)]


def check_measures(settings: ArchiveSettings) -> None:
    """Every measure of ``settings`` known, before any track is read (a ``FormatError``
    naming the one that is not)."""
    from yardstick.evaluation.measures.spec import parse_measures

    for m in settings.measures:
        try:
            parse_measures([_spec(m)])
        except ValueError as e:
            raise FormatError("--measure", None, str(e)) from None


def track_row(files: TrackFiles, settings: ArchiveSettings) -> dict:
    """One track's row (an executor task: reads the track's files where it runs); a track
    whose qrels judge none of its runs' topics, or an analysis it cannot have, is a
    :class:`~yardstick.common.errors.FormatError` naming the track."""
    from yardstick.inputs.io import read_qrels, read_run
    from yardstick.inputs.run_names import unique_names

    st = settings
    qrels = read_qrels(files.qrels)
    runs, _ = unique_names([read_run(p) for p in files.runs])
    judged = set(qrels.topics.tolist())
    if not any(judged.intersection(r.topics.tolist()) for r in runs):
        raise FormatError(files.qrels, None, f"judges none of the runs' topics (track "
                                             f"{files.name}: qrels topics "
                                             f"{_some(sorted(judged))}, runs' topics "
                                             f"{_some(sorted(runs[0].topics.tolist()))})")
    try:
        return _row(files, st, qrels, runs)
    except FormatError:
        raise
    except ValueError as e:             # an analysis that cannot be done on this track
        raise FormatError(files.qrels, None, f"track {files.name}: {e}") from e


def _row(files: TrackFiles, st: ArchiveSettings, qrels, runs) -> dict:
    from yardstick.analysis.pool.reconstruction import reconstruct_pool
    from yardstick.analysis.pool.uniques import iter_leave_out_uniques
    from yardstick.analysis.stability.aggregates import lower_is_better
    from yardstick.analysis.stability.discriminative_power import discriminative_power
    from yardstick.analysis.stability.rank_correlation import correlation_matrix
    from yardstick.analysis.stability.report import score_matrices
    from yardstick.analysis.stability.swap_rates import swap_rates
    from yardstick.analysis.stability.topic_set_size import topic_set_size
    from yardstick.common.options import EvalOptions
    from yardstick.inputs.io.groups_file import read_groups
    from yardstick.judging.judged_runs_build import build_judged_runs
    from yardstick.session.evaluating import evaluate_runs

    labels = list(st.measures)
    specs = sorted({_spec(m) for m in [*labels, "map"]})
    evals = run_sync(evaluate_runs(runs, qrels, specs, EvalOptions(relevance_level=st.level,
                                                                   complete=True)))
    matrices, tie_break = score_matrices(evals, labels)
    first = matrices[labels[0]]
    row: dict = {"track": files.name, "runs": len(runs), "topics": first.shape[0]}

    groups = read_groups(files.groups) if files.groups else {}
    listed = None
    if files.pooled:
        with open(files.pooled, encoding="utf-8") as f:
            listed = {w for line in f if not line.startswith("#") for w in line.split()}
    pooled = [listed is None or r.tag in listed or r.name in listed for r in runs]
    group_of = {r.name: groups.get(r.name) or groups.get(r.tag) or r.group for r in runs}
    index = build_judged_runs(runs, qrels, pooled=pooled, groups=group_of,
                              relevance_level=st.level)
    row["judged_depth"] = judged_depth(index)
    depth = index.depth_array(st.depth, None)
    uniq = run_sync(iter_leave_out_uniques(index, depth, "group", "map", None,
                                           reconstruct_pool(index, depth)))
    row["uniques_largest_drop_%"] = float(uniq.summary["max_percent"])

    swaps = run_sync(swap_rates(first, samples=st.samples, seed=st.seed,
                                bin_width=st.bin_width, measure=labels[0]))
    for n in st.sizes:
        ok = np.flatnonzero(swaps.fitted_error(n) <= 0.05)
        row[f"min_diff_5%_at_{n}"] = float(ok[0] * st.bin_width) if len(ok) else float("nan")
    # the sizes above it are the Voorhees-Buckley fit extrapolated (SIGIR 2002, sec. 3)
    row["swap_largest_sampled_size"] = int(max(swaps.sizes)) if len(swaps.sizes) else None
    disc = run_sync(discriminative_power(first, samples=st.samples, alpha=st.alpha,
                                         seed=st.seed, measure=labels[0]))
    row["discriminative_power"] = disc.share_significant
    # ties broken by MAP, as the stability report's rank correlations (robust 2003, Fig. 3)
    taus = correlation_matrix(pd.DataFrame({m: mat.mean() for m, mat in matrices.items()}),
                              "kendall", None if tie_break is None else tie_break.mean(),
                              [m for m in labels if lower_is_better(m)])
    for m in labels[1:]:
        row[f"kendall_tau_{labels[0]}_{m}"] = float(taus.loc[labels[0], m])
    tss = topic_set_size(first, [st.difference], st.alpha, st.beta, measure=labels[0])
    row[f"topics_for_diff_{st.difference:g}"] = _count(tss.table["paired_t"].iloc[0])
    row["qrels"] = files.qrels
    row["run_files"] = len(files.runs)
    return row


def judged_depth(index) -> int | None:
    """Median over pooled runs × judged topics of the depth to which the run is judged
    without a gap (rank of its first unjudged document − 1): the lower median, a depth
    some run has, so a whole number of documents (``None`` when nothing is pooled)."""
    seg = index.seg_start
    unjudged = np.flatnonzero(index.e_rel < 0)
    starts, ends = seg[:-1], seg[1:]
    pos = np.searchsorted(unjudged, starts)
    nxt = unjudged[np.minimum(pos, len(unjudged) - 1)] if len(unjudged) else ends
    nxt = np.where(pos < len(unjudged), nxt, ends)
    first = np.minimum(nxt, ends)
    depth = (first - starts).reshape(len(index.run_names), -1)
    keep = depth[np.asarray(index.pooled)][:, np.asarray(index.in_qrels)]
    return int(np.sort(keep, axis=None)[(keep.size - 1) // 2]) if keep.size else None


def archive_table(directories: Sequence[str], settings: ArchiveSettings,
                  executor: Executor | None = None) -> pd.DataFrame:
    """One row per track directory (in the order given), each computed as one task."""
    ex = executor or InProcess()
    check_measures(settings)
    files = tracks(directories)
    rows = ex.map(track_row, [(f,) for f in files], settings=settings)
    table = pd.DataFrame(rows)
    counts = [c for c in table.columns if c in _COUNTS or c.startswith("topics_for_diff_")]
    return table.astype({c: "Int64" for c in counts})


_COUNTS = ("runs", "topics", "judged_depth", "run_files", "swap_largest_sampled_size")
"""Columns of whole numbers (with ``topics_for_diff_*``): nullable integers in the table,
so every format writes them as integers (``201``, not ``201.0``; blank where missing)."""


def _count(v) -> int | None:
    """A whole number, or ``None`` where there is none."""
    return None if v is None or pd.isna(v) else int(v)


def _some(items: list, n: int = 3) -> str:
    """The first ``n`` items and how many more."""
    head = ", ".join(map(str, items[:n]))
    return head + (f" … ({len(items)} in all)" if len(items) > n else "")


def _spec(label: str) -> str:
    """trec_eval request for a per-topic column label (``P_10`` -> ``P.10``)."""
    head, _, tail = label.rpartition("_")
    return f"{head}.{tail}" if head and tail.replace(".", "", 1).isdigit() else label
