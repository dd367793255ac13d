"""Convert classic test collections (or single files) to TREC files.

A whole collection (Cranfield, CACM, CISI, LISA, Vaswani) becomes three files
in --out: qrels.txt (topic iter docno rel), topics.txt (TREC SGML) and
documents.trec (TREC <DOC> text, .gz or .xz with --compress):

    yardstick convert --collection cranfield --root ../shared/data/cranfield --out cran/

Single files convert too, with --out naming the output file:

    yardstick convert --qrels-in cranqrel --qrels-format cranfield --out cran.qrels
    yardstick convert --topics-in cran.qry --topics-format smart-position --out topics.txt
    yardstick convert --documents-in LISA0.001 LISA0.501 --out lisa.trec.gz
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

QRELS_FORMATS = ("trec", "smart", "cranfield", "lisa-rj", "lisa-rel")
TOPICS_FORMATS = ("auto", "smart", "smart-position", "lisa")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from yardstick.inputs.collections.classic import COLLECTIONS

    src = parser.add_mutually_exclusive_group(required=True)
    src.add_argument("--collection", choices=sorted(COLLECTIONS),
                     help="a whole classic collection (needs --out DIR)")
    src.add_argument("--qrels-in", metavar="FILE", help="one relevance file")
    src.add_argument("--topics-in", metavar="FILE", help="one topics/queries file")
    src.add_argument("--documents-in", metavar="FILE", nargs="+",
                     help="document file(s) in any supported format")
    parser.add_argument("--root", metavar="DIR",
                        help="folder holding the collection's files (default: "
                             "../shared/data/<collection> next to the repository)")
    parser.add_argument("--out", required=True, metavar="PATH",
                        help="output folder (--collection) or file")
    parser.add_argument("--compress", choices=("none", "gz", "xz"), default="none",
                        help="compress documents.trec (--collection only; default none)")
    parser.add_argument("--qrels-format", choices=QRELS_FORMATS, default="trec",
                        help="format of --qrels-in: trec, smart (qid docid ...: all relevant; "
                             "CACM, CISI), cranfield (qid docid code), lisa-rj (LISARJ.NUM), "
                             "lisa-rel (LISA.REL)")
    parser.add_argument("--topics-format", choices=TOPICS_FORMATS, default="auto",
                        help="format of --topics-in: auto (TREC SGML/XML/TSV), smart (.I ids), "
                             "smart-position (numbered 1..n in file order, as Cranfield's "
                             "qrels number cran.qry), lisa (LISA.QUE)")


def run(args: argparse.Namespace) -> int:
    if args.collection:
        return _collection(args)
    out = Path(args.out)
    if args.qrels_in:
        from yardstick.inputs.io.qrels_file import write_qrels

        qrels = read_any_qrels(args.qrels_in, args.qrels_format)
        write_qrels(qrels, out)
        print(f"{out}: {len(qrels)} judgments, {qrels.frame['topic'].nunique()} topics")
    elif args.topics_in:
        from yardstick.inputs.io.topics_file import write_topics

        topics = read_any_topics(args.topics_in, args.topics_format)
        write_topics(topics, out)
        print(f"{out}: {len(topics)} topics")
    else:
        from yardstick.inputs.io.documents_file import read_documents, write_trec_documents

        docs = read_documents(args.documents_in)
        write_trec_documents(docs, out)
        _warn(docs.warnings)
        print(f"{out}: {len(docs)} documents")
    return 0


def read_any_qrels(path: str, fmt: str):
    """Qrels from a TREC, SMART, Cranfield or LISA relevance file."""
    from yardstick.inputs.io.text_source import decode_text, read_bytes

    if fmt == "trec":
        from yardstick.inputs.io.qrels_file import read_qrels

        return read_qrels(path)
    text = decode_text(read_bytes(path, "relevance file"))
    if fmt in ("smart", "cranfield"):
        from yardstick.inputs.collections.smart import read_smart_qrels

        return read_smart_qrels(text, str(path), scheme="binary" if fmt == "smart" else fmt)
    from yardstick.inputs.collections.lisa import read_lisa_rel, read_lisa_rj

    return (read_lisa_rj if fmt == "lisa-rj" else read_lisa_rel)(text, str(path))


def read_any_topics(path: str, fmt: str):
    """Topics from a TREC topics file, a SMART query file or LISA.QUE."""
    from yardstick.inputs.io.text_source import decode_text, read_bytes

    if fmt == "auto":
        from yardstick.inputs.io.topics_file import read_topics

        return read_topics(path)
    text = decode_text(read_bytes(path, "query file"))
    if fmt == "lisa":
        from yardstick.inputs.collections.lisa import read_lisa_queries

        return read_lisa_queries(text, str(path))
    from yardstick.inputs.collections.smart import parse_smart, smart_topics

    return smart_topics(parse_smart(text, str(path)),
                        id_from="position" if fmt == "smart-position" else "record")


def _collection(args: argparse.Namespace) -> int:
    from yardstick.inputs.collections import load_classic
    from yardstick.inputs.io.documents_file import write_trec_documents
    from yardstick.inputs.io.qrels_file import write_qrels
    from yardstick.inputs.io.topics_file import write_topics

    col = load_classic(args.collection, args.root)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    suffix = "" if args.compress == "none" else f".{args.compress}"
    write_qrels(col.qrels, out / "qrels.txt")
    write_topics(col.topics, out / "topics.txt")
    write_trec_documents(col.documents, out / f"documents.trec{suffix}")
    _warn(col.warnings)
    s = col.summary()
    print(f"{col.name}: {s['documents']} documents, {s['queries']} topics "
          f"({s['judged_queries']} judged), {s['judgments']} judgments -> {out}/")
    return 0


def _warn(warnings) -> None:
    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)
