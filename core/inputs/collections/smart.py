"""The SMART format of the Cornell/Glasgow test collections (Cranfield, CACM, CISI).

A SMART file is a sequence of records; ``.I n`` starts record ``n`` and a line
holding only a field marker (``.T`` title, ``.A`` authors, ``.B`` bibliographic
data, ``.W`` abstract or query text, ``.K`` keywords, ``.N``, ``.X``, ``.C``
...) starts a field whose text runs to the next marker.  The same layout holds
documents (``cran.all.1400``, ``cacm.all``, ``CISI.ALL``) and queries
(``cran.qry``, ``query.text``, ``CISI.QRY``).  Relevance files are plain
columns: ``qid docid`` then ``0 0`` (CACM, CISI: every listed pair is relevant)
or a Cleverdon relevance code (Cranfield).

Known defects of the distributed files, handled here (``../shared/data/README.md``):

* CRLF line endings (Cranfield): read as plain newlines.
* A trailing ``.I 0`` record with no field at all (CACM ``query.text``): a record
  with neither a field marker nor text is dropped, with a warning.  A record with
  markers but empty fields (Cranfield document 471) is a real, empty document
  and is kept.
* A field marker repeated right after its own field (CISI gives each author an
  ``.A`` line of its own) continues that field.  A marker of an *earlier* field
  inside a later one (Cranfield documents 240, 576, 578: stray ``.A``/``.B``/``.W``
  lines in the middle of the abstract) is dropped and its text continues the
  current field, with a warning.
* Cranfield query numbers: ``cran.qry`` numbers its queries 001, 002, 004, 008
  ... while ``cranqrel`` numbers them 1..225 in file order, so Cranfield topics
  are numbered by position (``id_from="position"``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from yardstick.common.errors import FormatError
from yardstick.inputs.documents import Documents, clean_lines
from yardstick.inputs.io.text_source import text_frame
from yardstick.inputs.qrels import Qrels

_MARKER = re.compile(r"^\.([A-Z])(?:\s+(.*?))?\s*$")


@dataclass(frozen=True)
class SmartRecord:
    """One ``.I`` record: its id, the line of its ``.I``, and its fields' text."""

    id: str
    line: int
    fields: dict[str, str]
    markers: int = 0


@dataclass(frozen=True)
class SmartFile:
    """All records of a file plus the defects worked around while reading."""

    records: list[SmartRecord]
    warnings: tuple[str, ...] = field(default_factory=tuple)


def parse_smart(text: str, spath: str) -> SmartFile:
    """Split SMART text into records (see the module docstring for the rules).

    Raises
    ------
    FormatError
        Text before the first ``.I``, an ``.I`` without an id, or the same id twice.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    records: list[SmartRecord] = []
    warnings: list[str] = []
    seen: dict[str, int] = {}
    rid: str | None = None
    rline = 0
    fields: dict[str, list[str]] = {}
    current: str | None = None
    markers = 0

    def close() -> None:
        if rid is None:
            return
        joined = {k: "\n".join(v).strip() for k, v in fields.items()}
        if markers == 0 and not any(joined.values()):
            warnings.append(f"{spath}, line {rline}: record .I {rid} is empty (no fields); dropped")
            return
        records.append(SmartRecord(rid, rline, joined, markers))

    for lineno, line in enumerate(lines, 1):
        m = _MARKER.match(line)
        if m and m.group(1) == "I":
            close()
            ident = (m.group(2) or "").strip()
            if not ident or len(ident.split()) != 1:
                raise FormatError(spath, lineno, "expected '.I <id>' (one record id)", line)
            rid = _norm_id(ident)
            if rid in seen:
                raise FormatError(spath, lineno,
                                  f"record id {rid} appears twice (first on line {seen[rid]})",
                                  line)
            seen[rid], rline, fields, current, markers = lineno, lineno, {}, None, 0
        elif m:
            if rid is None:
                raise FormatError(spath, lineno, "field marker before the first '.I <id>'", line)
            tag, rest = m.group(1), m.group(2)
            if tag == current:  # multi-valued field (CISI: one .A line per author)
                continue
            if tag in fields:
                warnings.append(f"{spath}, line {lineno}: record .I {rid} repeats field .{tag}; "
                                f"read as text of field .{current}")
                continue
            fields[tag], current, markers = [], tag, markers + 1
            if rest:
                fields[tag].append(rest)
        elif rid is None:
            if line.strip():
                raise FormatError(spath, lineno, "text before the first '.I <id>' record", line)
        elif current is None:
            if line.strip():
                raise FormatError(spath, lineno,
                                  f"text in record .I {rid} before any field marker "
                                  "(.T, .W, .A ...)", line)
        else:
            fields[current].append(line.rstrip())
    close()
    if not records:
        raise FormatError(spath, None, "has no records: expected '.I <id>' lines, each "
                          "followed by fields (.T, .W ...)")
    return SmartFile(records, tuple(warnings))


def _norm_id(ident: str) -> str:
    """Numeric ids lose leading zeros (``01`` -> ``1``) so files agree with each other."""
    return str(int(ident)) if ident.isascii() and ident.isdigit() else ident


def _norm(text: str) -> str:
    return " ".join(text.split())


def smart_documents(parsed: SmartFile, name: str,
                    text_fields: tuple[str, ...] = ("W", "K")) -> Documents:
    """Documents from SMART records: title ``.T``; text = title + ``text_fields``.

    Cranfield's ``.W`` repeats the title at its start; then the title is not
    added a second time.
    """
    texts, titles = {}, {}
    for rec in parsed.records:
        title = rec.fields.get("T", "")
        body = "\n".join(rec.fields[f] for f in text_fields if rec.fields.get(f))
        if title and not _norm(body).startswith(_norm(title)):
            body = title + ("\n" + body if body else "")
        texts[rec.id] = clean_lines(body)
        titles[rec.id] = _norm(title)
    return Documents(text=texts, title=titles, name=name, warnings=parsed.warnings)


def smart_topics(parsed: SmartFile, id_from: str = "record") -> pd.DataFrame:
    """Topics from SMART query records.

    ``title`` is ``.T`` when the query has one (CISI's document-like queries),
    else the query text ``.W``; ``desc`` is ``.W`` when there is a ``.T``; ``narr``
    is empty (CACM's ``.N`` names the requester, not a narrative).

    Parameters
    ----------
    id_from : {"record", "position"}
        Topic ids from the ``.I`` numbers, or 1..n in file order (Cranfield).
    """
    rows = []
    for i, rec in enumerate(parsed.records, 1):
        t, w = _norm(rec.fields.get("T", "")), _norm(rec.fields.get("W", ""))
        tid = str(i) if id_from == "position" else rec.id
        rows.append({"topic": tid, "title": t or w, "desc": w if t else "", "narr": ""})
    return text_frame(rows, ["topic", "title", "desc", "narr"])


#: Cleverdon's relevance codes (cranqrel.readme) -> graded TREC relevance.
#: 1 "complete answer" -> 4, 2 "high degree of relevance" -> 3, 3 "useful" -> 2,
#: 4 "minimum interest" -> 1; -1 (one per query: the query's source document,
#: which was not assessed) -> -1, which trec_eval reads as "in the pool, unjudged".
CRANFIELD_GRADES = {1: 4, 2: 3, 3: 2, 4: 1, -1: -1}


def read_smart_qrels(text: str, spath: str, scheme: str = "binary",
                     name: str = "qrels") -> Qrels:
    """Relevance judgments of the SMART collections as TREC qrels.

    Parameters
    ----------
    scheme : {"binary", "cranfield"}
        ``"binary"``: lines ``qid docid`` with optional trailing columns (CACM
        ``01 1410 0 0``, CISI ``1 28 0 0.000000``); every listed pair is relevant
        (rel 1).  ``"cranfield"``: lines ``qid docid code`` with Cleverdon's
        codes, mapped by :data:`CRANFIELD_GRADES`.

    Notes
    -----
    Why Cranfield's codes are reversed.  ``cranqrel.readme`` quotes Cleverdon:
    1 = "references which are a complete answer to the question", 2 = "a high
    degree of relevance", 3 = "useful ... as general background", 4 = "of
    minimum interest", 5 = "of no interest" (never listed).  So 1 is the *most*
    relevant and every listed code 1-4 is relevant; TREC grades grow with
    relevance, hence ``5 - code``: binary measures at trec_eval's default
    ``-l 1`` count all 1,612 coded pairs as relevant (as ir_datasets and most
    Cranfield studies do), and ``-l 3`` keeps only codes 1-2.  (ir_datasets
    0.6 labels the codes the other way round, 4 = complete answer, which
    contradicts the readme.)  The data agree: under plain BM25 (run ``okBM25``
    of ``yardstick make-runs``) the median rank of code-1 documents is 9.5 and
    of code-4 documents 50.

    The 225 ``-1`` lines, exactly one per query, with document numbers growing
    with the query number, appear to mark the paper each question was written
    from (Cleverdon's questions came from the authors of "base" papers): query
    1's ``-1`` document, 486, is "similarity laws for aerothermoelastic
    testing" for "what similarity laws must be obeyed when constructing
    aeroelastic models of heated high speed aircraft", and BM25 puts these
    documents at median rank 2.  They carry no assessment, so they stay ``-1``,
    trec_eval's "in the pool but not judged": counted neither as relevant nor
    as judged non-relevant (bpref, ``-J``), and all 1,837 lines are kept.
    """
    topics, docnos, rels = [], [], []
    seen: dict[tuple[str, str], int] = {}
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for lineno, line in enumerate(lines, 1):
        f = line.split()
        if not f:
            continue
        if scheme == "cranfield":
            if len(f) != 3:
                raise FormatError(spath, lineno,
                                  f"expected 3 columns (qid docid code), found {len(f)}", line)
            try:
                code = int(f[2])
            except ValueError:
                raise FormatError(spath, lineno, f"relevance code {f[2]!r} is not an integer",
                                  line) from None
            if code not in CRANFIELD_GRADES:
                raise FormatError(spath, lineno,
                                  f"relevance code {code} is not one of Cleverdon's 1-4 or -1",
                                  line)
            rel = CRANFIELD_GRADES[code]
        else:
            if len(f) < 2:
                raise FormatError(spath, lineno, f"expected 'qid docid ...', found {len(f)} column",
                                  line)
            rel = 1
        if not (f[0].isascii() and f[1].isascii() and f[0].isdigit() and f[1].isdigit()):
            raise FormatError(spath, lineno, "query and document ids must be numbers", line)
        key = (_norm_id(f[0]), _norm_id(f[1]))
        if key in seen:
            raise FormatError(spath, lineno,
                              f"document {key[1]} is judged twice for query {key[0]} "
                              f"(first on line {seen[key]})", line)
        seen[key] = lineno
        topics.append(key[0])
        docnos.append(key[1])
        rels.append(rel)
    if not topics:
        raise FormatError(spath, None, "has no judgments: expected lines 'qid docid ...'")
    frame = pd.DataFrame({"topic": topics, "docno": docnos, "rel": np.asarray(rels, np.int64)})
    return Qrels.from_frame(frame, name=name)
