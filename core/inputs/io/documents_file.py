"""Document files: TREC ``<DOC>``, SMART ``.I``, LISA, JSONL and TSV, detected by content.

:func:`read_documents` returns a :class:`~yardstick.inputs.documents.Documents`, a
read-only mapping ``docno -> text`` (title included) with ``.title`` on the
side, which is what titlestat needs (Buckley et al. 2007, “Bias and the limits of pooling for large
collections”, Information Retrieval 2007, 3.3).

Formats, recognised from the first non-blank text:

* **TREC** (``<DOC>``): ``<DOCNO>`` names the document; the title is the first
  ``<TITLE>``, ``<HEADLINE>``, ``<HEAD>`` or ``<TI>`` element; the text is every
  element's text except ``<DOCNO>``, ``<DOCOLDNO>`` and ``<DOCHDR>``, tags
  removed and entities (``&amp;``) decoded.  Terrier's Vaswani file, whose text
  follows ``</DOCNO>`` without a ``<TEXT>`` tag, reads the same way.
* **SMART** (``.I 1``, Cranfield/CACM/CISI; see :mod:`yardstick.inputs.collections.smart`).
* **LISA** (``Document 1`` ... ``****``; see :mod:`yardstick.inputs.collections.lisa`).
* **JSONL**: one object per line with the id under ``docno``, ``doc_id``,
  ``docid``, ``id`` or ``_id``, the text under ``text``, ``contents``, ``body``
  or ``abstract``, and an optional ``title``.
* **TSV**: ``docno<TAB>text`` or ``docno<TAB>title<TAB>text``.

:func:`write_trec_documents` writes any of them back as TREC text (``.gz`` or
``.xz`` compressed when the file name says so) that :func:`read_documents`
reads to the same titles and texts.
"""

from __future__ import annotations

import gzip
import html
import json
import lzma
import os
import re
from collections.abc import Sequence

from yardstick.common.errors import FormatError
from yardstick.inputs.documents import Documents, clean_lines
from yardstick.inputs.io.atomic import atomic_write_bytes
from yardstick.inputs.io.text_source import decode_text, display_name, read_bytes

_WHAT = "document file (TREC <DOC>, SMART .I, LISA, JSONL or docno<TAB>text)"
_DOC = re.compile(r"<DOC>(.*?)</DOC>", re.S | re.I)
_DOCNO = re.compile(r"<DOCNO>\s*(.*?)\s*</DOCNO>", re.S | re.I)
_DROP = re.compile(r"<(DOCNO|DOCOLDNO|DOCHDR)>.*?</\1>", re.S | re.I)
_TITLE = re.compile(r"<(TITLE|HEADLINE|HEAD|TI)>(.*?)</\1>", re.S | re.I)
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9_.:-]*(?:\s[^<>]*)?/?>")
_ID_KEYS = ("docno", "doc_id", "docid", "id", "_id")
_TEXT_KEYS = ("text", "contents", "body", "abstract")


def read_documents(path: str | os.PathLike | Sequence[str | os.PathLike],
                   data: bytes | None = None, name: str | None = None) -> Documents:
    """Read documents from one file, or from several (e.g. the 14 LISA files).

    Parameters
    ----------
    path : path-like or sequence of path-likes
        Plain or compressed.  Several files must share one format; a docno may
        not repeat across them (LISA's identical repeats excepted, see
        :mod:`yardstick.inputs.collections.lisa`).
    data : bytes, optional
        Content already read (single path only).
    name : str, optional
        The collection's name (default: the file name).

    Raises
    ------
    FormatError
        Unrecognised format, a ``<DOC>`` without ``</DOC>`` or ``<DOCNO>``, a
        duplicate docno, a bad JSON or TSV line -- with the line number.
    """
    paths = [path] if isinstance(path, (str, os.PathLike)) else list(path)
    if not paths:
        raise ValueError("read_documents needs at least one path")
    texts = []
    for p in paths:
        raw = data if (data is not None and len(paths) == 1) else read_bytes(p, _WHAT)
        texts.append((str(p), decode_text(raw).replace("\r\n", "\n").replace("\r", "\n")))
    name = name or display_name(paths[0])
    fmt = detect_documents_format(texts[0][1], texts[0][0])
    if fmt == "lisa":
        from yardstick.inputs.collections.lisa import lisa_documents

        return lisa_documents(texts, name=name)
    merged_text: dict[str, str] = {}
    merged_title: dict[str, str] = {}
    warnings: list[str] = []
    first_seen: dict[str, str] = {}
    for spath, text in texts:
        if detect_documents_format(text, spath) != fmt:
            raise FormatError(spath, None, f"is not in the same format ({fmt}) as {texts[0][0]}")
        docs = _READERS[fmt](text, spath)
        for d in docs.text:
            if d in merged_text:
                raise FormatError(spath, None, f"document {d!r} was already read from "
                                               f"{first_seen[d]}")
            first_seen[d] = spath
        merged_text.update(docs.text)
        merged_title.update(docs.title)
        warnings += docs.warnings
    return Documents(text=merged_text, title=merged_title, name=name, warnings=tuple(warnings))


def detect_documents_format(text: str, spath: str = "file") -> str:
    """``"trec"``, ``"smart"``, ``"lisa"``, ``"jsonl"`` or ``"tsv"`` from the first text."""
    head = text.lstrip()[:2000]
    first = head.split("\n", 1)[0].strip()
    if re.match(r"<DOC[\s>]", head, re.I):
        return "trec"
    if re.match(r"\.I\s+\S", first):
        return "smart"
    if re.match(r"Document\s+\d+$", first):
        return "lisa"
    if first.startswith("{"):
        return "jsonl"
    if "\t" in first:
        return "tsv"
    raise FormatError(spath, None, f"unrecognised format: expected a {_WHAT}", first)


# ----------------------------------------------------------------- readers
def _line_at(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _clean_text(raw: str) -> str:
    """Tags removed, entities decoded, lines right-stripped, blank runs collapsed."""
    return clean_lines(html.unescape(_TAG.sub(" ", raw)))


def _read_trec(text: str, spath: str) -> Documents:
    texts, titles = {}, {}
    pos = 0
    for m in _DOC.finditer(text):
        gap = text[pos:m.start()]
        if gap.strip():
            off = pos + len(gap) - len(gap.lstrip())
            raise FormatError(spath, _line_at(text, off), "text outside <DOC> ... </DOC>",
                              text[off:off + 80].split("\n")[0])
        if re.search(r"<DOC>", m.group(1), re.I):
            raise FormatError(spath, _line_at(text, m.start()),
                              "<DOC> is not closed before the next <DOC> (missing </DOC>)")
        pos = m.end()
        body = m.group(1)
        dm = _DOCNO.search(body)
        if dm is None or not dm.group(1):
            raise FormatError(spath, _line_at(text, m.start()), "<DOC> without <DOCNO>...</DOCNO>")
        docno = dm.group(1)
        if docno in texts:
            raise FormatError(spath, _line_at(text, m.start()), f"DOCNO {docno!r} appears twice")
        rest = _DROP.sub("\n", body)
        tm = _TITLE.search(rest)
        title = " ".join(_clean_text(tm.group(2)).split()) if tm else ""
        if tm:
            rest = rest[:tm.start()] + "\n" + rest[tm.end():]
        texts[docno], titles[docno] = _with_title(title, _clean_text(rest)), title
    tail = text[pos:]
    if tail.strip():
        off = pos + len(tail) - len(tail.lstrip())
        what = ("<DOC> is never closed (missing </DOC>)" if re.match(r"<DOC>", tail.lstrip(), re.I)
                else "text outside <DOC> ... </DOC>")
        raise FormatError(spath, _line_at(text, off), what, text[off:off + 80].split("\n")[0])
    return Documents(text=texts, title=titles, name=display_name(spath))


def _read_smart(text: str, spath: str) -> Documents:
    from yardstick.inputs.collections.smart import parse_smart, smart_documents

    return smart_documents(parse_smart(text, spath), name=display_name(spath))


def _with_title(title: str, text: str) -> str:
    if title and not " ".join(text.split()).startswith(" ".join(title.split())):
        return title + ("\n" + text if text else "")
    return text


def _read_jsonl(text: str, spath: str) -> Documents:
    texts, titles = {}, {}
    for lineno, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise FormatError(spath, lineno, f"not a JSON object: {e.msg}", line) from None
        if not isinstance(obj, dict):
            raise FormatError(spath, lineno, "expected a JSON object per line", line)
        key = next((k for k in _ID_KEYS if k in obj), None)
        tkey = next((k for k in _TEXT_KEYS if k in obj), None)
        if key is None or (tkey is None and "title" not in obj):
            raise FormatError(spath, lineno,
                              f"expected an id ({'/'.join(_ID_KEYS)}) and a text "
                              f"({'/'.join(_TEXT_KEYS)}) field", line)
        docno = str(obj[key]).strip()
        if docno in texts:
            raise FormatError(spath, lineno, f"docno {docno!r} appears twice", line)
        title = " ".join(str(obj.get("title") or "").split())
        body = str(obj.get(tkey) or "") if tkey else ""
        texts[docno], titles[docno] = _with_title(title, clean_lines(body)), title
    return Documents(text=texts, title=titles, name=display_name(spath))


def _read_tsv(text: str, spath: str) -> Documents:
    texts, titles = {}, {}
    for lineno, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        parts = line.split("\t")
        if len(parts) not in (2, 3):
            raise FormatError(spath, lineno,
                              f"expected docno<TAB>text or docno<TAB>title<TAB>text, found "
                              f"{len(parts)} columns", line)
        if lineno == 1 and parts[0].strip().lower() in _ID_KEYS + ("pid",):
            continue  # header
        docno = parts[0].strip()
        if not docno:
            raise FormatError(spath, lineno, "empty docno", line)
        if docno in texts:
            raise FormatError(spath, lineno, f"docno {docno!r} appears twice", line)
        title = " ".join(parts[1].split()) if len(parts) == 3 else ""
        texts[docno], titles[docno] = _with_title(title, clean_lines(parts[-1])), title
    return Documents(text=texts, title=titles, name=display_name(spath))


_READERS = {"trec": _read_trec, "smart": _read_smart, "jsonl": _read_jsonl, "tsv": _read_tsv}


# ------------------------------------------------------------------ writer
def trec_documents_text(documents: Documents) -> str:
    """The TREC ``<DOC>`` text of a collection (``<TITLE>`` only when there is one).

    ``<TEXT>`` holds the whole text, title included; the reader does not add the
    title again when the text already starts with it.
    """
    out = []
    for docno, text in documents.text.items():
        title = documents.title.get(docno, "") if hasattr(documents, "title") else ""
        out.append(f"<DOC>\n<DOCNO>{docno}</DOCNO>\n")
        if title:
            out.append(f"<TITLE>{html.escape(title, quote=False)}</TITLE>\n")
        out.append(f"<TEXT>\n{html.escape(text, quote=False)}\n</TEXT>\n</DOC>\n")
    return "".join(out)


def write_trec_documents(documents: Documents, path: str | os.PathLike) -> None:
    """Write documents as TREC text; ``.gz`` / ``.xz`` suffixes compress (deterministically)."""
    data = trec_documents_text(documents).encode("utf-8")
    spath = str(path)
    if spath.endswith(".gz"):
        data = gzip.compress(data, compresslevel=9, mtime=0)
    elif spath.endswith(".xz"):
        data = lzma.compress(data, preset=9 | lzma.PRESET_EXTREME)
    atomic_write_bytes(path, data)
