"""Loading files for the workbench: read many of them, of any kind.

:func:`load_files` reads a batch as a progress generator (the kind of a file given
without one from its content, :mod:`yardstick.session.file_kinds`); a bad file becomes
an entry in ``errors`` (its :class:`~yardstick.common.errors.FormatError`) and does not
stop the others, so nothing loaded before is lost.  Streamed, a track's runs are read,
decompressed and evaluated on several threads and each is yielded as soon as it is
ready (:func:`read_threads`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from yardstick.common.errors import FormatError
from yardstick.common.progress import Progress
from yardstick.inputs.io.groups_file import read_groups
from yardstick.inputs.io.text_source import read_bytes
from yardstick.session.file_kinds import (
    KINDS,
    _opener,
    classify_file,
    classify_text,
    column_shape,
    expand,
    files_in_folder,
    head_text,
    strip_compression,
)

if TYPE_CHECKING:  # pandas and numpy load with the readers (the window paints before them)
    import pandas as pd

    from yardstick.inputs.qrels import Qrels
    from yardstick.inputs.run import Run

__all__ = ["KINDS", "classify_file", "classify_text", "column_shape", "read_groups",
           "LoadResult", "load_files", "files_in_folder", "expand", "strip_compression",
           "read_threads"]


@dataclass(frozen=True)
class LoadResult:
    """What one :func:`load_files` batch read; files that failed are in ``errors``.

    ``evaluations`` holds what ``evaluate`` made of each run (by run name), when
    :func:`load_files` was given one.
    """

    qrels: Qrels | None = None
    runs: tuple[Run, ...] = ()
    topics: pd.DataFrame | None = None
    topics_path: str | None = None
    documents: Mapping[str, str] | None = None
    documents_path: str | None = None
    groups: dict[str, str] = field(default_factory=dict)
    sessions: tuple[str, ...] = ()
    errors: tuple[FormatError, ...] = ()
    evaluations: Mapping[str, Any] = field(default_factory=dict)

    @property
    def loaded_anything(self) -> bool:
        return bool(self.qrels is not None or self.runs or self.topics is not None
                    or self.documents is not None or self.groups or self.sessions)


#: Files read before the runs when a load is streamed (runs need the qrels and groups).
_SMALL_FIRST = {"qrels": 0, "groups": 1, "topics": 2, "documents": 3, "session": 4, None: 5,
                "run": 6}


def load_files(items: Sequence[tuple[str, str | None]], group_of: Mapping[str, str] | None = None,
               *, stream: bool = False, qrels: Qrels | None = None,
               evaluate: Callable[[Run, Qrels], Any] | None = None
               ) -> Generator[Progress | LoadResult, None, LoadResult]:
    """Read ``[(path, kind or None)]``; kind None means classify by content.

    Several qrels/topics/documents files: the last one wins.  Run groups come
    from ``group_of`` (run file name or tag -> group) and from any groups file
    in the batch.

    With ``stream``, the batch is read qrels, groups, topics and documents first,
    then the runs, and pieces are yielded as they are ready (besides
    :class:`Progress`): one :class:`LoadResult` with everything but the runs, then
    one per run, its evaluation included when ``evaluate(run, qrels)`` is given
    (``qrels``: the batch's, else the argument; runs are not evaluated without
    qrels).  The returned result still lists every run and every error, but
    holds no evaluations; its other files were already in the first piece.
    This is how the window shows each run as it arrives (issue 15).
    """
    items = list(items)
    if stream:
        kinds = []
        for path, kind in items:
            kinds.append(kind or classify_file(path))
        order = sorted(range(len(items)), key=lambda i: _SMALL_FIRST.get(kinds[i], 5))
        items = [(items[i][0], kinds[i] or items[i][1]) for i in order]
    total = len(items)
    res: dict[str, Any] = {"runs": [], "errors": [], "groups": dict(group_of or {}),
                           "sessions": []}
    first_sent = not stream
    together = _read_together(items) if stream else set()
    for i, (path, kind) in enumerate(items):
        if i in together:
            continue
        name = os.path.basename(str(path))
        yield Progress(i, total, f"reading {name}")
        if not first_sent and kind == "run":
            first_sent = True
            yield _small_files(res)
            qrels = res["qrels"] if res.get("qrels") is not None else qrels
        try:
            kind = kind or classify_file(path)
            if kind is None:
                read_bytes(path)  # names empty/binary/missing files
                # shaped like a run or qrels: that reader names the line that is wrong
                kind = column_shape(head_text(path))
                if kind is None:
                    raise FormatError(str(path), None, "not recognised as qrels, a run, "
                                      "topics, documents or a run-to-group file")
            if kind in ("run", "qrels"):  # large: read with progress and cancellation points
                yield from _load_with_progress(str(path), kind, res, i, total)
            else:
                _load_one(str(path), kind, res)
        except FormatError as e:
            res["errors"].append(e)
            continue
        except (OSError, MemoryError) as e:
            res["errors"].append(FormatError(str(path), None, f"cannot read: {e}"))
            continue
        if stream and kind == "run":
            run = res["runs"][-1]
            group = _group_for(run, res["groups"]) if res["groups"] else ""
            if group:
                run = res["runs"][-1] = run.renamed(group=group)
            yield Progress(i + 0.9, total, f"evaluating {name}")
            ev = {run.name: evaluate(run, qrels)} if evaluate is not None and qrels else {}
            yield LoadResult(runs=(run,), evaluations=ev)
    if together:
        if not first_sent:
            first_sent = True
            yield _small_files(res)
            qrels = res["qrels"] if res.get("qrels") is not None else qrels
        yield from _runs_together([(i, items[i][0]) for i in sorted(together)], res, total,
                                  qrels, evaluate)
    if not first_sent:
        yield _small_files(res)
    runs = res["runs"]
    groups = res["groups"]
    if groups and not stream:
        runs = [r.renamed(group=_group_for(r, groups)) if _group_for(r, groups) else r
                for r in runs]
    yield Progress(total, total, "loaded")
    return LoadResult(qrels=res.get("qrels"), runs=tuple(runs), topics=res.get("topics"),
                      topics_path=res.get("topics_path"), documents=res.get("documents"),
                      documents_path=res.get("documents_path"), groups=groups,
                      sessions=tuple(res["sessions"]), errors=tuple(res["errors"]))


def _small_files(res: dict[str, Any]) -> LoadResult:
    """The streamed first piece: what the batch read besides runs and sessions."""
    return LoadResult(qrels=res.get("qrels"), topics=res.get("topics"),
                      topics_path=res.get("topics_path"), documents=res.get("documents"),
                      documents_path=res.get("documents_path"), groups=dict(res["groups"]))


def _group_for(run: Run, groups: Mapping[str, str]) -> str:
    for key in (run.name, run.tag, os.path.basename(run.path or "")):
        if key in groups:
            return groups[key]
    return ""


#: A plain run file smaller than this many read chunks (``read_progress.READ_CHUNK``, 32 MB)
#: is read in one call (a track's 150 files of 2 MB): the progress pass and parse thread
#: of ``read_run_job`` would cost more than they show.
SMALL_RUN_CHUNKS = 4


def _load_with_progress(path: str, kind: str, res: dict[str, Any], i: int, total: int):
    from yardstick.inputs.io.read_progress import read_qrels_job, read_run_job, scaled

    if kind == "run" and _small_plain(path):
        from yardstick.inputs.io import read_run

        res["runs"].append(read_run(path))
    elif kind == "run":
        res["runs"].append((yield from scaled(read_run_job(path), i, total)))
    else:
        res["qrels"] = yield from scaled(read_qrels_job(path), i, total)


def _read_together(items: Sequence[tuple[str, str | None]]) -> set[int]:
    """The runs of a streamed batch read on several threads (:func:`_runs_together`): the
    run files smaller than :data:`SMALL_RUN_CHUNKS` read chunks, compressed or not
    (a larger one is read alone, with its progress and cancellation points)."""
    from yardstick.inputs.io import read_progress

    out = set()
    for i, (path, kind) in enumerate(items):
        if kind == "run":
            try:
                if os.path.getsize(path) < SMALL_RUN_CHUNKS * read_progress.READ_CHUNK:
                    out.add(i)
            except OSError:
                pass            # read alone: the error is said there
    return out if len(out) > 1 else set()


def read_threads() -> int:
    """Threads reading a track's runs: one per core, at least two.  The decompressors
    (lzma, zlib, bz2 in CPython) release the GIL while they work, as pyarrow's parser
    does, so threads decompress and parse in parallel; the evaluation's numpy work
    releases it too."""
    from yardstick.common.threads import cores

    return max(2, cores())


def _runs_together(todo: list[tuple[int, str]], res: dict[str, Any], total: int,
                   qrels: Qrels | None, evaluate: Callable[[Run, Qrels], Any] | None):
    """Read, group and evaluate the runs of ``todo`` (``(item index, path)``) on
    :func:`read_threads` threads; yield each as a :class:`LoadResult` piece, in the
    batch's order, as soon as it and those before it are ready."""
    from yardstick.common.threads import in_order
    from yardstick.inputs.io import read_run

    groups = dict(res["groups"])

    def one(item: tuple[int, str]):
        i, path = item
        try:
            run = read_run(path)
        except FormatError as e:
            return i, path, e
        except (OSError, MemoryError) as e:
            return i, path, FormatError(str(path), None, f"cannot read: {e}")
        group = _group_for(run, groups) if groups else ""
        if group:
            run = run.renamed(group=group)
        ev = {run.name: evaluate(run, qrels)} if evaluate is not None and qrels else {}
        return i, run, ev

    threads = read_threads()
    yield Progress(todo[0][0], total, f"reading {len(todo)} runs on {threads} threads")
    for done, (_, got, ev) in enumerate(in_order(one, todo, threads, ahead=2 * threads,
                                                 name="yardstick-load"), 1):
        if isinstance(ev, FormatError):
            res["errors"].append(ev)
            continue
        res["runs"].append(got)
        yield Progress(todo[0][0] + done, total, f"read {done} of {len(todo)} runs")
        yield LoadResult(runs=(got,), evaluations=ev)


def _small_plain(path: str) -> bool:
    from yardstick.inputs.io import read_progress

    try:
        if os.path.getsize(path) >= SMALL_RUN_CHUNKS * read_progress.READ_CHUNK:
            return False
        with open(path, "rb") as f:
            return _opener(f.read(6)) is None
    except OSError:
        return False


def _load_one(path: str, kind: str, res: dict[str, Any]) -> None:
    if kind == "run":
        from yardstick.inputs.io import read_run

        res["runs"].append(read_run(path))
    elif kind == "qrels":
        from yardstick.inputs.io import read_qrels

        res["qrels"] = read_qrels(path)
    elif kind == "topics":
        from yardstick.inputs.io.topics_file import read_topics

        res["topics"] = read_topics(path)
        res["topics_path"] = os.path.abspath(path)
    elif kind == "documents":
        from yardstick.inputs.io.documents_file import read_documents

        res["documents"] = read_documents(path)
        res["documents_path"] = os.path.abspath(path)
    elif kind == "groups":
        res["groups"].update(read_groups(path))
    elif kind == "session":
        res["sessions"].append(os.path.abspath(path))
    else:
        raise ValueError(f"unknown kind {kind!r}")
