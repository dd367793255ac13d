"""What kind of file is this: qrels, a run, topics, documents, run groups or a session.

:func:`classify_file` looks at a file's first lines (never its name), compressed
or not; "Open folder" and drag and drop use it (:func:`files_in_folder`,
:func:`expand`), and :func:`yardstick.session.loading.load_files` for files given
without a kind.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from pathlib import Path

from yardstick.inputs.io.text_source import COMPRESSED_SUFFIXES, decode_text

__all__ = ["KINDS", "classify_file", "classify_text", "column_shape", "files_in_folder",
           "expand", "strip_compression"]

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


def head_text(path: str | os.PathLike) -> str:
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
        return classify_text(head_text(path))
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
