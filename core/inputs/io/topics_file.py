"""TREC topic files: classic SGML, TREC XML and ``id<TAB>text``, detected by content.

Every reader returns a :class:`pandas.DataFrame` with columns ``topic``,
``title``, ``desc``, ``narr`` (all str, ``""`` where a field is absent), one row
per topic in file order.

* **Classic TREC SGML** (TREC-1 to Robust 2004, e.g. ``topics.robust04.txt``)::

      <top>
      <num> Number: 301
      <title> International Organized Crime
      <desc> Description:
      Identify organizations that ...
      <narr> Narrative:
      A relevant document must ...
      </top>

  Field tags are normally unclosed; closing tags (``<num>1</num><title>``, as in
  Terrier's Vaswani file) are accepted too.  The ``Number:``, ``Topic:``,
  ``Description:`` and ``Narrative:`` labels are dropped, white space is
  collapsed, and purely numeric topic numbers lose leading zeros (TREC-1/2
  topics say ``Number: 051`` while their qrels say ``51``).  Other tags of the
  early topics (``<dom>``, ``<con>``, ``<fac>``, ``<def>``, ``<smry>``) are
  ignored.
* **TREC XML** (Web track and later): ``<topic number="1"><query>...</query>
  <description>...`` (or ``<question>``) ``<narrative>...``; ``query`` becomes
  ``title``.  A bare ``&`` (common in these files) is read as text.
* **TSV**: ``id<TAB>title`` with optional third and fourth columns ``desc`` and
  ``narr``; a header line such as ``qid<TAB>text`` is skipped.

Malformed input raises :class:`~yardstick.common.errors.FormatError` with the line number.
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET

import pandas as pd

from yardstick.common.errors import FormatError
from yardstick.inputs.io.atomic import atomic_write_text
from yardstick.inputs.io.text_source import decode_text, read_bytes, text_frame

COLUMNS = ["topic", "title", "desc", "narr"]
_WHAT = "topics file (TREC SGML <top>, TREC XML <topic> or id<TAB>text)"

#: Tags of TREC topics 1-700 (only these are tags: any other ``<`` is text).
_SGML_TAG = re.compile(
    r"<\s*(/?)\s*(top|num|title|desc|narr|head|dom|smry|con|fac|nat|def|fields)\s*>", re.I)
_SGML_FIELDS = {"num": "topic", "title": "title", "desc": "desc", "narr": "narr"}
_LABELS = {
    "topic": re.compile(r"^\s*(number|topic)\s*:\s*", re.I),
    "title": re.compile(r"^\s*topic\s*:\s*", re.I),
    "desc": re.compile(r"^\s*description\s*:\s*", re.I),
    "narr": re.compile(r"^\s*narrative\s*:\s*", re.I),
}
_XML_FIELDS = {"query": "title", "title": "title", "description": "desc",
               "question": "desc", "desc": "desc", "narrative": "narr", "narr": "narr"}
#: Deepest XML nesting accepted in a topics file (TREC's is 3: topics, topic, field).
MAX_XML_DEPTH = 64
_BARE_AMP = re.compile(r"&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)")
_TSV_HEADER = {"qid", "id", "topic", "query_id", "topic_id", "num", "number"}


def read_topics(path: str | os.PathLike, data: bytes | None = None) -> pd.DataFrame:
    """Read a topics file in any of the three formats (plain or compressed).

    Parameters
    ----------
    path : path-like
        The file; only names it when ``data`` is given.
    data : bytes, optional
        Content already read.

    Returns
    -------
    pandas.DataFrame
        Columns ``topic``, ``title``, ``desc``, ``narr`` (str), file order.

    Raises
    ------
    FormatError
        Unclosed or nested ``<top>``, a topic without a number, duplicate topic
        numbers, XML syntax errors, TSV lines without a tab, no topics at all.
    """
    spath = str(path)
    if data is None:
        data = read_bytes(path, _WHAT)
    text = decode_text(data).replace("\r\n", "\n").replace("\r", "\n")
    fmt = detect_topics_format(text)
    if fmt == "sgml":
        rows = _read_sgml(text, spath)
    elif fmt == "xml":
        rows = _read_xml(text, spath)
    else:
        rows = _read_tsv(text, spath)
    if not rows:
        raise FormatError(spath, None, f"has no topics: expected a {_WHAT}")
    return _frame(rows, spath)


def detect_topics_format(text: str) -> str:
    """``"sgml"``, ``"xml"`` or ``"tsv"`` from the first tag (or its absence)."""
    m = re.search(r"<\s*(top|topic)\b", text, re.I)
    if m is None:
        return "tsv"
    return "sgml" if m.group(1).lower() == "top" else "xml"


# --------------------------------------------------------------------- SGML
def _read_sgml(text: str, spath: str) -> list[tuple[int, dict]]:
    line_starts = _line_starts(text)
    rows: list[tuple[int, dict]] = []
    current: dict | None = None
    top_line = 0
    field_name: str | None = None
    pos = 0
    for m in _SGML_TAG.finditer(text):
        chunk_start, chunk = pos, text[pos:m.start()]
        pos = m.end()
        if current is not None and field_name is not None:
            current[field_name] += chunk
        elif current is None and chunk.strip():
            line = _line_of(line_starts, chunk_start + _lead(chunk))
            raise FormatError(spath, line, "text outside <top> ... </top>",
                              _line_text(text, line_starts, line))
        closing, tag = m.group(1) == "/", m.group(2).lower()
        line = _line_of(line_starts, m.start())
        if tag == "top":
            if closing:
                if current is None:
                    raise FormatError(spath, line, "</top> without a matching <top>",
                                      _line_text(text, line_starts, line))
                rows.append((top_line, current))
                current, field_name = None, None
            else:
                if current is not None:
                    raise FormatError(spath, line,
                                      f"<top> inside the topic opened on line {top_line} "
                                      "(missing </top>?)", _line_text(text, line_starts, line))
                current = {"topic": "", "title": "", "desc": "", "narr": ""}
                top_line, field_name = line, None
        elif current is None:
            raise FormatError(spath, line, f"<{tag}> outside <top> ... </top>",
                              _line_text(text, line_starts, line))
        elif closing:
            field_name = None
        else:
            field_name = _SGML_FIELDS.get(tag)  # unknown tags: their text is ignored
    if current is not None:
        raise FormatError(spath, top_line, "<top> is never closed (missing </top>)",
                          _line_text(text, line_starts, top_line))
    if text[pos:].strip():
        line = _line_of(line_starts, pos + _lead(text[pos:]))
        raise FormatError(spath, line, "text outside <top> ... </top>",
                          _line_text(text, line_starts, line))
    out = []
    for line, row in rows:
        fields = {k: _clean(v, k) for k, v in row.items()}
        fields["topic"] = _topic_id(fields["topic"])
        out.append((line, fields))
    return out


def _clean(value: str, key: str) -> str:
    value = " ".join(value.split())
    label = _LABELS.get(key)
    return label.sub("", value, count=1).strip() if label else value


def _topic_id(raw: str) -> str:
    tid = raw.split()[0] if raw.split() else ""
    return str(int(tid)) if tid.isascii() and tid.isdigit() else tid


def _line_starts(text: str) -> list[int]:
    return [0] + [m.end() for m in re.finditer("\n", text)]


def _line_of(starts: list[int], offset: int) -> int:
    import bisect

    return bisect.bisect_right(starts, offset)


def _line_text(text: str, starts: list[int], line: int) -> str:
    begin = starts[line - 1]
    end = text.find("\n", begin)
    return text[begin:] if end < 0 else text[begin:end]


def _lead(chunk: str) -> int:
    return len(chunk) - len(chunk.lstrip())


# ---------------------------------------------------------------------- XML
def _read_xml(text: str, spath: str) -> list[tuple[int, dict]]:
    # Drop the declaration and DOCTYPE but keep their newlines so line numbers hold.
    body = re.sub(r"<\?xml[^>]*\?>|<!DOCTYPE[^>]*>",
                  lambda m: "\n" * m.group(0).count("\n"), text)
    body = _BARE_AMP.sub("&amp;", body)
    prefix = "<yardstick-root>"
    try:
        root = ET.fromstring(prefix + body + "</yardstick-root>")
    except ET.ParseError as e:
        line, col = getattr(e, "position", (None, 0))
        if line == 1:
            col -= len(prefix)
        what = str(e).split(":")[0]
        raise FormatError(spath, line, f"is not well-formed XML ({what} at column {col + 1})",
                          None if line is None else _safe_line(text, line)) from None
    _check_depth(root, spath)
    rows: list[tuple[int, dict]] = []
    topics = [el for el in root.iter() if el.tag.lower() == "topic"]
    lines = _xml_topic_lines(text)
    for i, el in enumerate(topics):
        line = lines[i] if i < len(lines) else None
        row = {"topic": "", "title": "", "desc": "", "narr": ""}
        tid = el.get("number") or el.get("id") or el.get("num") or el.get("qid") or ""
        for child in el:
            tag = child.tag.lower()
            content = " ".join("".join(child.itertext()).split())
            if tag in ("num", "number", "id") and not tid:
                tid = content
            key = _XML_FIELDS.get(tag)
            if key and not row[key]:
                row[key] = content
        if not row["title"] and not len(el) and (el.text or "").strip():
            row["title"] = " ".join(el.text.split())
        row["topic"] = _topic_id(tid.strip())
        rows.append((line or 0, row))
    return rows


def _check_depth(root: ET.Element, spath: str) -> None:
    """Refuse elements nested deeper than :data:`MAX_XML_DEPTH` (one pass, no recursion).

    TREC XML topics nest three deep (topics, topic, field); reading the text of
    every topic of a deeply nested file would take time quadratic in its size.
    """
    stack = [(root, 0)]
    while stack:
        el, depth = stack.pop()
        if depth > MAX_XML_DEPTH:
            raise FormatError(spath, None,
                              f"has XML elements nested more than {MAX_XML_DEPTH} deep "
                              f"(<{el.tag}>); TREC topics nest three deep")
        stack.extend((child, depth + 1) for child in el)


def _xml_topic_lines(text: str) -> list[int]:
    starts = _line_starts(text)
    return [_line_of(starts, m.start()) for m in re.finditer(r"<\s*topic\b", text, re.I)]


def _safe_line(text: str, line: int) -> str | None:
    lines = text.split("\n")
    return lines[line - 1] if 0 < line <= len(lines) else None


# ---------------------------------------------------------------------- TSV
def _read_tsv(text: str, spath: str) -> list[tuple[int, dict]]:
    rows: list[tuple[int, dict]] = []
    for lineno, line in enumerate(text.split("\n"), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) < 2:
            raise FormatError(spath, lineno,
                              "expected 'id<TAB>text' (no tab found; a topics file in TREC "
                              "SGML starts with <top>, TREC XML with <topic>)", line)
        if len(parts) > 4:
            raise FormatError(spath, lineno,
                              f"expected 2 to 4 tab-separated columns (id, title, desc, narr), "
                              f"found {len(parts)}", line)
        if not rows and parts[0].strip().lower() in _TSV_HEADER and not parts[0].strip().isdigit():
            continue  # header line
        parts = [" ".join(p.split()) for p in parts] + [""] * (4 - len(parts))
        if not parts[0]:
            raise FormatError(spath, lineno, "empty topic id", line)
        rows.append((lineno, dict(zip(COLUMNS, parts))))
    return rows


# ------------------------------------------------------------------- common
def _frame(rows: list[tuple[int, dict]], spath: str) -> pd.DataFrame:
    seen: dict[str, int] = {}
    for line, row in rows:
        if not row["topic"]:
            raise FormatError(spath, line or None, "topic has no number (<num> or number=\"...\")")
        if row["topic"] in seen:
            raise FormatError(spath, line or None,
                              f"topic {row['topic']!r} appears twice (first on line "
                              f"{seen[row['topic']]})")
        seen[row["topic"]] = line
    return text_frame((r for _, r in rows), COLUMNS)


def write_topics(frame: pd.DataFrame, path: str | os.PathLike) -> None:
    """Write topics as classic TREC SGML (atomically).

    ``frame`` needs ``topic`` and ``title``; ``desc`` and ``narr`` are written
    when present and non-empty.  :func:`read_topics` reads the result back to
    the same frame.
    """
    if "topic" not in frame or "title" not in frame:
        raise ValueError("write_topics needs columns 'topic' and 'title'")
    parts = []
    for row in frame.to_dict("records"):
        parts.append("<top>\n")
        parts.append(f"<num> Number: {row['topic']}\n")
        parts.append(f"<title> {_one_line(row.get('title', ''))}\n\n")
        if row.get("desc"):
            parts.append(f"<desc> Description:\n{_one_line(row['desc'])}\n\n")
        if row.get("narr"):
            parts.append(f"<narr> Narrative:\n{_one_line(row['narr'])}\n\n")
        parts.append("</top>\n\n")
    atomic_write_text(path, "".join(parts))


def _one_line(value) -> str:
    """White space collapsed (the reader collapses it too, so text round-trips)."""
    return " ".join(str(value or "").split())
