"""Loading files for the workbench: what kind of file is this, and read many of them.

:func:`classify_file` looks at a file's first lines (never its name) and says
``"run"``, ``"qrels"``, ``"topics"``, ``"documents"``, ``"groups"`` or
``"session"`` (None when it cannot tell): used by "Open folder" and drag and
drop.  :func:`load_files` reads a batch as a progress generator; a bad file
becomes an entry in ``errors`` (its :class:`~yardstick.common.errors.FormatError`) and does
not stop the others, so nothing loaded before is lost.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from yardstick.common.errors import FormatError
from yardstick.common.progress import Progress
from yardstick.inputs.io.groups_file import read_groups
from yardstick.inputs.io.text_source import COMPRESSED_SUFFIXES, decode_text, read_bytes

if TYPE_CHECKING:  # pandas and numpy load with the readers (the window paints before them)
    import pandas as pd

    from yardstick.inputs.qrels import Qrels
    from yardstick.inputs.run import Run

__all__ = ["KINDS", "classify_file", "classify_text", "read_groups", "LoadResult",
           "load_files", "files_in_folder"]

KINDS = ("qrels", "run", "topics", "documents", "groups", "session")
_HEAD_BYTES = 64 * 1024
_NUM = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
_INT = re.compile(r"^[+-]?\d+$")


def _opener(raw: bytes):
    import bz2
    import gzip
    import lzma

    if raw.startswith(b"\x1f\x8b"):
        return gzip.open
    if raw.startswith(b"BZh"):
        return bz2.open
    if raw.startswith(b"\xfd7zXZ\x00"):
        return lzma.open
    return None


def _head(path: str | os.PathLike) -> str:
    """Decoded first lines of a (possibly compressed) file."""
    p = str(path)
    with open(p, "rb") as f:
        raw = f.read(_HEAD_BYTES)
    opener = _opener(raw)
    if opener is not None:
        import lzma
        import zlib

        try:
            with opener(p, "rb") as f:
                raw = f.read(_HEAD_BYTES)
        except (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError):
            return ""  # a corrupt archive: read_bytes names the problem
    if b"\x00" in raw:
        return ""
    text = decode_text(raw)
    if len(raw) == _HEAD_BYTES and "\n" in text:
        text = text[: text.rindex("\n")]
    return text


def classify_text(text: str) -> str | None:
    """Kind of a file from its first lines (see module docstring)."""
    s = text.lstrip("\ufeff \t\r\n")
    if not s:
        return None
    if s.startswith("{"):
        try:
            obj = json.loads(text)
            if isinstance(obj, dict) and obj.get("format") == "yardstick-session":
                return "session"
        except (ValueError, RecursionError):  # RecursionError: nested too deeply to parse
            if '"yardstick-session"' in text[:2000]:
                return "session"
        first = s.splitlines()[0]
        if '"docno"' in first or '"doc_id"' in first or '"contents"' in first:
            return "documents"
        if '"query"' in first or '"qid"' in first or '"title"' in first:
            return "topics"
        return None
    head = s[:20000]
    markdown = s.startswith(("# ", "## ", "```"))
    if markdown:
        pass
    elif (re.search(r"^\s*<docno>", head, re.I | re.M)
          and re.search(r"^\s*<doc>", head, re.I | re.M)):
        return "documents"
    elif re.search(r"^\s*<(top|topics?\b)[^>]*>", head, re.I | re.M):
        return "topics"
    elif s.startswith(".I"):
        # SMART: document files carry .X (CACM, CISI) or .T with .B (Cranfield);
        # query files (.W only) have no reader yet
        if re.search(r"^\.X\s*$", head, re.M) or (re.search(r"^\.T\s*$", head, re.M)
                                                 and re.search(r"^\.B\s*$", head, re.M)):
            return "documents"
        return None
    lines = [ln.split() for ln in s.splitlines()[:200] if ln.strip() and not ln.startswith("#")]
    if not lines:
        return None
    widths = {len(f) for f in lines}
    if widths and min(widths) >= 6 and all(_NUM.match(f[4]) for f in lines):
        return "run"
    if widths == {4} and all(_INT.match(f[3]) for f in lines):
        return "qrels"
    tabbed = [ln.split("\t") for ln in s.splitlines()[:200] if ln.strip()]
    if all(len(t) == 2 for t in tabbed):
        if all(len(t[1].split()) == 1 for t in tabbed) and not all(_INT.match(t[1].strip())
                                                                   for t in tabbed):
            return "groups"
        return "topics"
    return None


def column_shape(text: str) -> str | None:
    """"run" or "qrels" for a head whose lines have a run's or a qrels file's columns but
    that :func:`classify_text` does not take (a score that is not a number, a line too
    long for the head): reading it as that kind says which line is wrong and why."""
    lines = [ln.split() for ln in text.splitlines()[:200] if ln.strip()
             and not ln.lstrip().startswith("#")]
    if not lines:
        return None
    if len(lines) == 1 and len(lines[0]) >= 3 and lines[0][1] == "Q0":
        return "run"                    # one line cut off by the head: topic Q0 docno…
    widths = [len(f) for f in lines[:-1] or lines]   # the head's last line may be cut
    if sum(w == 6 for w in widths) * 2 > len(widths):
        return "run"
    if sum(w == 4 for w in widths) * 2 > len(widths):
        return "qrels"
    return None


def classify_file(path: str | os.PathLike) -> str | None:
    """Kind of the file at ``path`` (None for unreadable or unknown files)."""
    try:
        if Path(path).is_dir():
            return None
        return classify_text(_head(path))
    except OSError:
        return None


def files_in_folder(folder: str | os.PathLike) -> dict[str, list[str]]:
    """``{kind: [paths]}`` for the files of a folder (recursively, hidden files skipped)."""
    out: dict[str, list[str]] = {}
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.startswith("."):
                continue
            p = os.path.join(root, name)
            kind = classify_file(p)
            if kind:
                out.setdefault(kind, []).append(p)
    return out


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
    for i, (path, kind) in enumerate(items):
        name = os.path.basename(str(path))
        yield Progress(i, total, f"reading {name}")
        if not first_sent and kind == "run":
            first_sent = True
            yield _small_files(res)
            qrels = res["qrels"] if res.get("qrels") is not None else qrels
        try:
            kind = kind or classify_file(path)
            if kind is None:
                read_bytes(path, "Yardstick input")  # names empty/binary/missing files
                # shaped like a run or qrels: that reader names the line that is wrong
                kind = column_shape(_head(path))
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


def strip_compression(name: str) -> str:
    for suf in COMPRESSED_SUFFIXES:
        if name.endswith(suf):
            return name[: -len(suf)]
    return name


def expand(paths: Iterable[str | os.PathLike]) -> list[tuple[str, str | None]]:
    """Folders become their classified files; files stay (kind decided when read)."""
    out: list[tuple[str, str | None]] = []
    for p in paths:
        if Path(p).is_dir():
            for kind, files in files_in_folder(p).items():
                out.extend((f, kind) for f in files)
        else:
            out.append((str(p), None))
    return out
