"""Shared data for the pool-diagnostics tests: a hand-built pool and the real runs.

The hand-built pool (every number in the tests is counted from this listing)::

    topic 1                         topic 2
    run A (group G1): d1 3, d2 2, d3 1       e1 1, e2 1 (tie: e2 first), e3 0.5
    run B (group G1): d2 5, d4 4, d5 3       e4 2, e5 1
    run C (group G2): d6 9, d1 8, d7 7       e1 3, e6 2, e7 1

    qrels topic 1: d1 1, d2 0, d4 1, d6 1, d7 1, d9 0
    qrels topic 2: e1 2, e2 0, e5 1, e8 1

trec_eval order breaks the e1/e2 tie of run A by docno descending, so run A
ranks e2 first.  At depth 2 the pool is {d1, d2, d4, d6} and {e1, e2, e4, e5, e6}.
"""

from __future__ import annotations

import glob
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tests.shared_data import REAL_ROBUST03, robust03_dir  # noqa: F401
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
ROBUST03 = robust03_dir()   # the real runs, or the generated track with their layout
ROBUST04 = DATA / "robust04"

HAND_RUNS = {
    "A": ("G1", [("1", "d1", 3.0), ("1", "d2", 2.0), ("1", "d3", 1.0),
                 ("2", "e1", 1.0), ("2", "e2", 1.0), ("2", "e3", 0.5)]),
    "B": ("G1", [("1", "d2", 5.0), ("1", "d4", 4.0), ("1", "d5", 3.0),
                 ("2", "e4", 2.0), ("2", "e5", 1.0)]),
    "C": ("G2", [("1", "d6", 9.0), ("1", "d1", 8.0), ("1", "d7", 7.0),
                 ("2", "e1", 3.0), ("2", "e6", 2.0), ("2", "e7", 1.0)]),
}
HAND_QRELS = [("1", "d1", 1), ("1", "d2", 0), ("1", "d4", 1), ("1", "d6", 1), ("1", "d7", 1),
              ("1", "d9", 0), ("2", "e1", 2), ("2", "e2", 0), ("2", "e5", 1), ("2", "e8", 1)]
#: documents for titlestat: topic 1 "Apple and Banana", topic 2 "durian pie"
HAND_DOCS = {
    "d1": "apple banana", "d2": "Apple", "d3": "cherry", "d4": "banana cherry",
    "d5": "the apple pie", "d6": "durian", "d7": "apple, banana & cherry", "d9": "",
    "e1": "durian durian", "e2": "pie", "e3": "cake", "e4": "durian pie", "e5": "cherry pie",
    "e6": "", "e7": "apple", "e8": "kiwi",
}
HAND_TOPICS = pd.DataFrame({"topic": ["1", "2"], "title": ["Apple and Banana", "durian pie"]})


def hand_runs() -> list[Run]:
    out = []
    for name, (group, rows) in HAND_RUNS.items():
        f = pd.DataFrame(rows, columns=["topic", "docno", "score"])
        out.append(Run.from_frame(f, name=name, group=group))
    return out


def hand_qrels() -> Qrels:
    return Qrels.from_frame(pd.DataFrame(HAND_QRELS, columns=["topic", "docno", "rel"]),
                            name="hand")


def need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"extra check (../shared): {path} not available")
    return path


def robust03():
    """The 17 TREC 2003 Robust runs (one group each) and the official qrels."""
    from yardstick.inputs.io import read_qrels, read_run

    need(ROBUST03)
    runs = [read_run(p) for p in sorted(glob.glob(str(ROBUST03 / "runs" / "*.gz")))]
    return runs, read_qrels(ROBUST03 / "qrels" / "robust03_qrels.txt")


def robust04():
    """The 19 Robust 2004 runs of ../shared/data/robust04 (CEDR folds joined into one)."""
    from yardstick.inputs.io import read_qrels, read_run

    need(ROBUST04)
    rdir = ROBUST04 / "runs"
    paths = sorted(glob.glob(str(rdir / "trec2004_submissions" / "input.*.xz"))) + \
        sorted(glob.glob(str(rdir / "sigir18_tutorial_new_systems" / "*.run.xz"))) + \
        [str(rdir / "rob04_yang19_rm3.run.xz")]
    runs = [read_run(p) for p in paths]
    folds = [read_run(p).to_frame() for p in sorted(glob.glob(str(rdir / "cedr_bm25_folds" /
                                                                  "f*.test.run")))]
    cedr = pd.concat(folds, ignore_index=True)
    runs.append(Run.from_frame(cedr.astype({"topic": str, "docno": str}), name="cedr_bm25"))
    return runs, read_qrels(ROBUST04 / "qrels.robust2004.txt")


def trec_ranked(runs: list[Run], max_rank: int | None = None) -> pd.DataFrame:
    """Independent ranking: per topic, score descending then docno descending (one lexsort)."""
    frames = []
    for r in runs:
        doc_order = np.unique(r.docno_bytes, return_inverse=True)[1].ravel()
        o = np.lexsort((-doc_order, -r.score, r.topic_code))
        topic = r.topic_code[o]
        first = np.searchsorted(topic, topic, side="left")
        rank = np.arange(len(o)) - first + 1
        keep = o if max_rank is None else o[rank <= max_rank]
        rank = rank if max_rank is None else rank[rank <= max_rank]
        frames.append(pd.DataFrame({
            "topic": r.topics[r.topic_code[keep]].astype(str),
            "docno": np.char.decode(r.docno_bytes[keep], "utf-8").astype(object),
            "score": r.score[keep], "rank": rank, "run": r.name}))
    return pd.concat(frames, ignore_index=True)
