"""Make real runs for a collection with BM25 variants, feedback, fusion and routing.

Indexes the documents with bm25s (the optional extra "runs": pip install
'yardstick-ir[runs]') and writes one TREC run file per recipe plus groups.tsv
(run<TAB>group) to --out:

    yardstick make-runs --collection cranfield --root ../shared/data/cranfield --out runs/
    yardstick make-runs --documents docs.trec --topics topics.txt --qrels qrels.txt --out runs/

Use --list to see the recipes (17 runs in 5 groups).
"""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from yardstick.inputs.collections.classic import COLLECTIONS

    parser.add_argument("--collection", choices=sorted(COLLECTIONS),
                        help="a classic collection (see yardstick convert)")
    parser.add_argument("--root", metavar="DIR", help="its folder (default ../shared/data/...)")
    parser.add_argument("--documents", metavar="FILE", nargs="+",
                        help="instead of --collection: document file(s)")
    parser.add_argument("--topics", metavar="FILE", help="with --documents: topics file")
    parser.add_argument("--qrels", metavar="FILE",
                        help="with --documents: qrels (needed by the routing run)")
    parser.add_argument("--out", metavar="DIR", help="where to write the runs")
    parser.add_argument("--depth", type=int, default=1000,
                        help="documents per topic (cut to the collection size; default 1000)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the routing run's document halves (default 0)")
    parser.add_argument("--compress", choices=("none", "gz", "xz"), default="none",
                        help="compress the run files (default none)")
    parser.add_argument("--runs", metavar="TAG,TAG",
                        help="only these recipes (fused runs need their inputs listed too)")
    parser.add_argument("--list", action="store_true", help="list the recipes and exit")


def run(args: argparse.Namespace) -> int:
    from yardstick.common.errors import FormatError
    from yardstick.inputs.runmaker.recipes import DEFAULT_SPECS

    specs = DEFAULT_SPECS
    if args.runs:
        wanted = [t.strip() for t in args.runs.split(",") if t.strip()]
        known = {s.tag: s for s in DEFAULT_SPECS}
        unknown = [t for t in wanted if t not in known]
        if unknown:
            raise FormatError("--runs", None, f"unknown run(s) {', '.join(unknown)}; "
                                              f"known: {', '.join(known)}")
        specs = tuple(s for s in DEFAULT_SPECS if s.tag in wanted)
    if args.list:
        for s in specs:
            print(f"{s.tag}\t{s.group}\t{s.description}")
        return 0
    if not args.out:
        raise FormatError("--out", None, "missing: the folder to write the runs to")
    documents, topics, qrels = _inputs(args)
    if qrels is None:
        specs = tuple(s for s in specs if not s.routing)
    from yardstick.common.progress import run_sync
    from yardstick.inputs.runmaker import make_runs

    try:
        runset = run_sync(make_runs(documents, topics, qrels, specs=specs, depth=args.depth,
                                    seed=args.seed),
                          on_progress=lambda p: print(f"\r{p.message:<60}", end="",
                                                      file=sys.stderr))
    except (ImportError, ValueError) as e:
        print(file=sys.stderr)
        raise FormatError("make-runs", None, str(e)) from None
    print(file=sys.stderr)
    runset.write(args.out, compress="" if args.compress == "none" else args.compress)
    frame = runset.to_frame()
    print(frame.to_string(index=False))
    print(f"{len(runset.runs)} runs (depth {runset.depth}) and groups.tsv -> {args.out}")
    return 0


def _inputs(args: argparse.Namespace):
    from yardstick.common.errors import FormatError

    if args.collection:
        from yardstick.inputs.collections import load_classic

        col = load_classic(args.collection, args.root)
        return col.documents, col.topics, col.qrels
    if not (args.documents and args.topics):
        raise FormatError("make-runs", None,
                          "give --collection NAME, or --documents FILE and --topics FILE")
    from yardstick.inputs.io.documents_file import read_documents
    from yardstick.inputs.io.qrels_file import read_qrels
    from yardstick.inputs.io.topics_file import read_topics

    qrels = read_qrels(args.qrels) if args.qrels else None
    return read_documents(args.documents), read_topics(args.topics), qrels
