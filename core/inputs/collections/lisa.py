"""The Glasgow LISA files (Library and Information Science Abstracts).

* Documents, ``LISA0.001`` ... ``LISA5.850``: ``Document N``, the title
  (upper case, one or more lines), a blank line, the abstract, and a line of
  ``*`` ending the record.
* Queries, ``LISA.QUE``: the query number alone on a line, the request text,
  and ``#`` at the end of its last line.
* Judgments, ``LISARJ.NUM``: a stream of integers ``qid n doc_1 ... doc_n``
  wrapped over fixed-width lines (binary: all listed documents are relevant).
  ``LISA.REL`` holds the same as text blocks (``Query N`` / ``K Relevant
  Refs:`` / ids ending with ``-1``), but the staged copy is malformed (the
  block of query 21 is cut, 22 and 23 are missing, 35 appears twice):
  :func:`read_lisa_rel` reports that as a :class:`FormatError`, so use
  ``LISARJ.NUM``.

The staged document files are not clean either (checked by hand): documents
1993-1997 are missing, the records of 1998-2000 appear twice in ``LISA1.501``
(after an orphan fragment of abstract text with no ``Document`` line) and
2001 appears again at the start of ``LISA2.001``.  Identical repeats and
orphan text are skipped with a warning; a repeated number with *different*
text is an error.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from yardstick.common.errors import FormatError
from yardstick.inputs.documents import Documents, clean_lines
from yardstick.inputs.io.text_source import text_frame
from yardstick.inputs.qrels import Qrels

_DOC_HEAD = re.compile(r"^Document\s+(\d+)\s*$")
_STARS = re.compile(r"^\*{5,}\s*$")


def parse_lisa_documents(text: str, spath: str, into: dict | None = None,
                         warnings: list[str] | None = None) -> tuple[dict, list[str]]:
    """Parse one LISA document file; returns ``({docno: (title, text)}, warnings)``.

    ``into`` accumulates over several files so that repeats across files are found.
    """
    docs: dict[str, tuple[str, str]] = {} if into is None else into
    warnings = [] if warnings is None else warnings
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    docno: str | None = None
    start = 0
    buf: list[str] = []
    orphan_line = 0
    for lineno, line in enumerate(lines, 1):
        m = _DOC_HEAD.match(line)
        if m:
            if docno is not None:
                raise FormatError(spath, lineno,
                                  f"'Document {m.group(1)}' before the '****' line ending "
                                  f"document {docno} (started line {start})", line)
            if orphan_line:
                warnings.append(f"{spath}, line {orphan_line}: text outside any document "
                                "(no 'Document N' line); skipped")
                orphan_line = 0
            docno, start, buf = str(int(m.group(1))), lineno, []
        elif _STARS.match(line):
            if docno is None:
                if orphan_line:
                    warnings.append(f"{spath}, line {orphan_line}: text outside any document "
                                    "(no 'Document N' line); skipped")
                    orphan_line = 0
                continue
            _store(docs, docno, buf, spath, start, warnings)
            docno = None
        elif docno is not None:
            buf.append(line.rstrip())
        elif line.strip() and not orphan_line:
            orphan_line = lineno
    if docno is not None:
        raise FormatError(spath, start, f"document {docno} is not ended by a '****' line")
    if orphan_line:
        warnings.append(f"{spath}, line {orphan_line}: text outside any document; skipped")
    return docs, warnings


def _store(docs: dict, docno: str, buf: list[str], spath: str, start: int,
           warnings: list[str]) -> None:
    while buf and not buf[0].strip():
        buf.pop(0)
    title_lines = []
    while buf and buf[0].strip():
        title_lines.append(buf.pop(0).strip())
    body = "\n".join(x.strip() for x in buf).strip()
    title = " ".join(title_lines)
    text = clean_lines("\n".join(title_lines) + ("\n" + body if body else ""))
    if docno in docs:
        if docs[docno] != (title, text):
            raise FormatError(spath, start,
                              f"document {docno} appears twice with different text")
        warnings.append(f"{spath}, line {start}: document {docno} repeated (identical); skipped")
        return
    docs[docno] = (title, text)


def lisa_documents(parts: list[tuple[str, str]], name: str = "lisa") -> Documents:
    """Documents from several ``(path, text)`` LISA files, in the order given."""
    docs: dict[str, tuple[str, str]] = {}
    warnings: list[str] = []
    for spath, text in parts:
        parse_lisa_documents(text, spath, docs, warnings)
    return Documents(text={d: v[1] for d, v in docs.items()},
                     title={d: v[0] for d, v in docs.items()}, name=name,
                     warnings=tuple(warnings))


def read_lisa_queries(text: str, spath: str) -> pd.DataFrame:
    """``LISA.QUE``: number line, request text, ``#`` at the end -> topics frame."""
    rows: list[dict] = []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    tid: str | None = None
    start = 0
    buf: list[str] = []
    for lineno, line in enumerate(lines, 1):
        s = line.strip()
        if tid is None:
            if not s:
                continue
            if not (s.isascii() and s.isdigit()):
                raise FormatError(spath, lineno, "expected a query number alone on its line", line)
            tid, start, buf = str(int(s)), lineno, []
            continue
        ends = s.endswith("#")
        buf.append(s[:-1] if ends else s)
        if ends:
            rows.append({"topic": tid, "title": " ".join(" ".join(buf).split()),
                         "desc": "", "narr": ""})
            tid = None
    if tid is not None:
        raise FormatError(spath, start, f"query {tid} is not ended by '#'")
    ids = [r["topic"] for r in rows]
    if len(set(ids)) != len(ids):
        dup = next(t for t in ids if ids.count(t) > 1)
        raise FormatError(spath, None, f"query {dup} appears twice")
    if not rows:
        raise FormatError(spath, None, "has no queries: expected 'N', text, '#'")
    return text_frame(rows, ["topic", "title", "desc", "narr"])


def read_lisa_rj(text: str, spath: str, name: str = "qrels") -> Qrels:
    """``LISARJ.NUM``: integers ``qid n doc_1 .. doc_n`` repeated -> binary qrels."""
    tokens: list[tuple[int, int]] = []  # (value, line)
    for lineno, line in enumerate(text.replace("\r", "").split("\n"), 1):
        for tok in line.split():
            if not re.fullmatch(r"-?[0-9]+", tok):
                raise FormatError(spath, lineno, f"{tok!r} is not an integer", line)
            tokens.append((int(tok), lineno))
    topics, docnos = [], []
    i = 0
    seen: set[int] = set()
    while i < len(tokens):
        (qid, line) = tokens[i]
        if i + 1 >= len(tokens):
            raise FormatError(spath, line,
                              f"query {qid}: the count of relevant documents is missing")
        n = tokens[i + 1][0]
        if n < 0 or i + 2 + n > len(tokens):
            raise FormatError(spath, line,
                              f"query {qid} announces {n} relevant documents but the file ends "
                              "before them")
        if qid in seen:
            raise FormatError(spath, line, f"query {qid} appears twice")
        seen.add(qid)
        docs = [t[0] for t in tokens[i + 2:i + 2 + n]]
        if len(set(docs)) != len(docs):
            raise FormatError(spath, line, f"query {qid} lists a document twice")
        topics += [str(qid)] * n
        docnos += [str(d) for d in docs]
        i += 2 + n
    if not topics:
        raise FormatError(spath, None, "has no judgments: expected 'qid n doc ... doc'")
    return Qrels.from_frame(pd.DataFrame({"topic": topics, "docno": docnos,
                                          "rel": np.ones(len(topics), np.int64)}), name=name)


def read_lisa_rel(text: str, spath: str, name: str = "qrels") -> Qrels:
    """``LISA.REL``: ``Query N`` / ``K Relevant Refs:`` / K ids then ``-1``.

    Checks what the file itself promises: that each block lists exactly K ids
    before its ``-1`` and that no query appears twice.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    topics, docnos = [], []
    seen: dict[str, int] = {}
    i = 0
    while i < len(lines):
        s = lines[i].strip()
        if not s:
            i += 1
            continue
        m = re.match(r"^Query\s+(\d+)$", s)
        if not m:
            raise FormatError(spath, i + 1, "expected 'Query N'", lines[i])
        qid, qline = str(int(m.group(1))), i + 1
        if qid in seen:
            raise FormatError(spath, qline, f"query {qid} appears twice (first on line "
                                            f"{seen[qid]})", lines[i])
        seen[qid] = qline
        i += 1
        m = re.match(r"^(\d+)\s+Relevant\s+Refs:?$", lines[i].strip()) if i < len(lines) else None
        if not m:
            raise FormatError(spath, i + 1, f"query {qid}: expected 'K Relevant Refs:'",
                              lines[i] if i < len(lines) else None)
        k = int(m.group(1))
        i += 1
        ids: list[str] = []
        while i < len(lines):
            toks = lines[i].split()
            i += 1
            if toks and not all(re.fullmatch(r"-?[0-9]+", t) for t in toks):
                raise FormatError(spath, i, f"query {qid}: expected document numbers ending "
                                            "with -1", lines[i - 1])
            if "-1" in toks:
                ids += toks[:toks.index("-1")]
                break
            ids += toks
        else:
            raise FormatError(spath, qline, f"query {qid}: its list never ends with -1")
        if len(ids) != k:
            raise FormatError(spath, qline,
                              f"query {qid} announces {k} relevant references but lists "
                              f"{len(ids)}", lines[qline - 1])
        topics += [qid] * k
        docnos += [str(int(d)) for d in ids]
    if not topics:
        raise FormatError(spath, None, "has no judgments")
    return Qrels.from_frame(pd.DataFrame({"topic": topics, "docno": docnos,
                                          "rel": np.ones(len(topics), np.int64)}), name=name)
