"""The classic full-text test collections as documents + topics + TREC qrels.

``load_classic(name, root)`` reads Cranfield, CACM, CISI, LISA or Vaswani/NPL
from the files the Glasgow IR group distributes (as staged in
``../shared/data/<folder>``) and returns a :class:`ClassicCollection` whose
parts are in Yardstick's own types, ready for ``yardstick convert`` (TREC
files) or ``yardstick make-runs``.

=========  ==============================  ==========  ============  ===========
name       files                           documents   queries       judgments
=========  ==============================  ==========  ============  ===========
cranfield  cran.all.1400, cran.qry,        1,400       225           1,837
           cranqrel                                                  (graded)
cacm       cacm.all, query.text,           3,204       64 (52        796
           qrels.text                                  judged)
cisi       CISI.ALL, CISI.QRY, CISI.REL    1,460       112 (76       3,114
                                                       judged)
lisa       LISA0.001..LISA5.850,           5,999       35            379
           LISA.QUE, LISARJ.NUM            (see lisa)
vaswani    doc-text.trec, query-text.trec, 11,429      93            2,083
           qrels (TREC formats already)
=========  ==============================  ==========  ============  ===========
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from yardstick.common.errors import FormatError
from yardstick.inputs.documents import Documents
from yardstick.inputs.io.text_source import decode_text, read_bytes
from yardstick.inputs.qrels import Qrels

#: name -> (folder under ../shared/data, one-line description)
COLLECTIONS: dict[str, tuple[str, str]] = {
    "cranfield": ("cranfield", "Cranfield 1400: aeronautics abstracts, 225 queries, graded "
                               "judgments (Cleverdon 1967)"),
    "cacm": ("cacm", "CACM: Communications of the ACM titles and abstracts 1958-1979, 64 queries"),
    "cisi": ("cisi", "CISI: information science abstracts, 112 queries"),
    "lisa": ("lisa", "LISA: Library and Information Science Abstracts, 35 queries"),
    "vaswani": ("vaswani_npl", "Vaswani/NPL: electronics abstracts (no titles), 93 queries"),
}


@dataclass(frozen=True, eq=False)
class ClassicCollection:
    """One test collection in Yardstick's types.

    Attributes
    ----------
    name : str
    documents : Documents
        docno -> text (title included), with ``documents.title``.
    topics : pandas.DataFrame
        Columns ``topic``, ``title``, ``desc``, ``narr``; every query, judged or not.
    qrels : Qrels
    root : str
        The folder it was read from.
    """

    name: str
    documents: Documents
    topics: pd.DataFrame
    qrels: Qrels
    root: str = ""

    @property
    def warnings(self) -> tuple[str, ...]:
        return self.documents.warnings

    def summary(self) -> dict[str, int]:
        """Counts as collections are described: documents, queries, judged queries, judgments."""
        return {"documents": len(self.documents), "queries": len(self.topics),
                "judged_queries": int(self.qrels.frame["topic"].nunique()),
                "judgments": len(self.qrels)}


def default_root(name: str) -> Path:
    """``../shared/data/<folder>`` next to the repository."""
    folder = COLLECTIONS[_check_name(name)][0]
    return Path(__file__).resolve().parents[3].parent / "shared" / "data" / folder


def _check_name(name: str) -> str:
    key = name.lower()
    if key not in COLLECTIONS:
        raise ValueError(f"unknown collection {name!r}: expected one of {', '.join(COLLECTIONS)}")
    return key


def _text(path: Path, what: str) -> str:
    return decode_text(read_bytes(path, what))


def _need(root: Path, *names: str) -> list[Path]:
    out = []
    for n in names:
        p = root / n
        if not p.exists():
            raise FormatError(str(p), None,
                              f"missing: the collection folder {root} should hold {n}")
        out.append(p)
    return out


def load_classic(name: str, root: str | os.PathLike | None = None) -> ClassicCollection:
    """Read a classic collection from its folder (default: :func:`default_root`).

    Raises
    ------
    ValueError
        for an unknown name.
    FormatError
        for a missing or malformed file.
    """
    key = _check_name(name)
    root = Path(root) if root is not None else default_root(key)
    if not root.is_dir():
        raise FormatError(str(root), None, f"is not a folder holding the {key} collection")
    loader = {"cranfield": _cranfield, "cacm": _cacm, "cisi": _cisi, "lisa": _lisa,
              "vaswani": _vaswani}[key]
    docs, topics, qrels = loader(root)
    qrels = Qrels(frame=qrels.frame, name=f"{key}.qrels", path=None)
    return ClassicCollection(name=key, documents=docs, topics=topics, qrels=qrels,
                             root=str(root))


def _smart(root: Path, name: str, docs_file: str, qry_file: str, rel_file: str,
           scheme: str, id_from: str):
    from yardstick.inputs.collections.smart import (
        parse_smart,
        read_smart_qrels,
        smart_documents,
        smart_topics,
    )

    d, q, r = _need(root, docs_file, qry_file, rel_file)
    docs = smart_documents(parse_smart(_text(d, "SMART document file"), str(d)), name=name)
    qparsed = parse_smart(_text(q, "SMART query file"), str(q))
    topics = smart_topics(qparsed, id_from=id_from)
    qrels = read_smart_qrels(_text(r, "SMART relevance file"), str(r), scheme=scheme)
    return Documents(text=docs.text, title=docs.title, name=name,
                     warnings=docs.warnings + qparsed.warnings), topics, qrels


def _cranfield(root: Path):
    return _smart(root, "cranfield", "cran.all.1400", "cran.qry", "cranqrel",
                  scheme="cranfield", id_from="position")


def _cacm(root: Path):
    return _smart(root, "cacm", "cacm.all", "query.text", "qrels.text",
                  scheme="binary", id_from="record")


def _cisi(root: Path):
    return _smart(root, "cisi", "CISI.ALL", "CISI.QRY", "CISI.REL",
                  scheme="binary", id_from="record")


#: The 14 LISA document files in collection order.
LISA_FILES = ("LISA0.001", "LISA0.501", "LISA1.001", "LISA1.501", "LISA2.001", "LISA2.501",
              "LISA3.001", "LISA3.501", "LISA4.001", "LISA4.501", "LISA5.001", "LISA5.501",
              "LISA5.627", "LISA5.850")


def _lisa(root: Path):
    from yardstick.inputs.collections.lisa import lisa_documents, read_lisa_queries, read_lisa_rj

    paths = _need(root, *LISA_FILES)
    q, r = _need(root, "LISA.QUE", "LISARJ.NUM")
    docs = lisa_documents([(str(p), _text(p, "LISA document file")) for p in paths], name="lisa")
    topics = read_lisa_queries(_text(q, "LISA query file"), str(q))
    qrels = read_lisa_rj(_text(r, "LISA relevance file"), str(r))
    return docs, topics, qrels


def _vaswani(root: Path):
    from yardstick.inputs.io.documents_file import read_documents
    from yardstick.inputs.io.qrels_file import read_qrels
    from yardstick.inputs.io.topics_file import read_topics

    d, q, r = _need(root, "doc-text.trec", "query-text.trec", "qrels")
    return read_documents(d, name="vaswani"), read_topics(q), read_qrels(r)
