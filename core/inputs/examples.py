"""The worked examples of the TREC appendix as loadable files (teaching mode).

The TREC proceedings appendix "Common Evaluation Measures" explains its
measures on three tiny cases; ``resources/examples/`` holds each as a qrels
file and a run file, and :func:`examples` lists them with the values
trec_eval 10.0 prints for them (checked with the binary and in
``tests/test_examples.py`` with pytrec_eval):

* ``interpolation`` -- "a document collection has 20 documents, four of which
  are relevant to topic t ... the relevant documents [are ranked] first,
  second, fourth, and fifteenth": interpolated precision 1 up to recall 0.5,
  0.75 at 0.6 and 0.7, and 4/15 = 0.27 from 0.8 on (appendix, "Interpolated
  recall-precision averages").
* ``average_precision`` -- "four relevant documents which are retrieved at
  ranks 1, 2, 4, and 7 ... precision 1, 1, 0.75 and 0.57, the mean of which is
  0.83" (appendix, "Average precision").  The list has 10 documents.
* ``r_precision`` -- two topics, 50 and 10 relevant documents, "17 relevant
  documents in the top 50 ... and 7 relevant documents in the top 10", so
  R-precision (17/50 + 7/10) / 2 = 0.52 (appendix, "R-Precision").  Topic 1's
  relevant documents sit at ranks 1, 4, 7, ..., 49; topic 2's at 1, 2, 3, 5,
  6, 8, 10; the other relevant documents are not retrieved.

trec_eval 10.0 does *not* print the appendix's interpolated precisions: it
turns each recall level into a number of relevant documents with
``lround(level x R)`` (``m_iprec_at_recall.c``), so at 0.6 with R = 4 it takes
lround(2.4) = 2 relevant documents, where the precision is still 1; 9.0.8
used ``(long)(level x R + 0.9)`` = 3 and gives the appendix's 0.75.  With 10.0
the example reads 1 up to 0.6, 0.75 at 0.7 and 0.8, 0.27 at 0.9 and 1.0.
:attr:`Example.expected` holds 10.0's values, :attr:`Example.expected_v9`
9.0.8's (= the appendix).

Document ids are ``d01``, ``d02``, ... in the order the run ranks them
(scores fall by one per rank, so no ties).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from yardstick.inputs.bundled import RESOURCES

EXAMPLES_DIR = RESOURCES / "examples"
SOURCE = "TREC proceedings appendix 'Common Evaluation Measures'"


@dataclass(frozen=True)
class Example:
    """One worked example.

    Attributes
    ----------
    name, title, description : str
    qrels : Path
    runs : tuple of Path
    expected : dict
        trec_eval measure name (as printed, e.g. ``iprec_at_recall_0.60``) ->
        the mean value trec_eval 10.0 prints (4 decimals; Yardstick's default).
    expected_v9 : dict
        The same for trec_eval 9.0.8 (``--compat 9``, and pytrec_eval).
    paper : dict
        The measures as the appendix states them (its rounding).
    """

    name: str
    title: str
    description: str
    qrels: Path
    runs: tuple[Path, ...]
    expected: dict[str, float] = field(default_factory=dict)
    expected_v9: dict[str, float] = field(default_factory=dict)
    paper: dict[str, str] = field(default_factory=dict)
    source: str = SOURCE


def _iprec(values: list[float]) -> dict[str, float]:
    return {f"iprec_at_recall_{i / 10:.2f}": float(v) for i, v in enumerate(values)}


# name -> (title, description, {topic: (ranks of relevant docs, retrieved, total relevant)},
#          trec_eval 10.0 values, trec_eval 9.0.8 values, appendix values)
_SPECS: dict[str, tuple] = {
    "interpolation": (
        "Interpolated precision at 11 recall levels",
        "20 documents, 4 relevant, ranked 1st, 2nd, 4th and 15th.",
        {"1": ((1, 2, 4, 15), 20, 4)},
        {**_iprec([1, 1, 1, 1, 1, 1, 1, 0.75, 0.75, 0.2667, 0.2667]), "map": 0.7542},
        {**_iprec([1, 1, 1, 1, 1, 1, 0.75, 0.75, 0.2667, 0.2667, 0.2667]), "map": 0.7542},
        {"iprec_at_recall_0.00-0.50": "1", "iprec_at_recall_0.60-0.70": ".75",
         "iprec_at_recall_0.80-1.00": ".27"},
    ),
    "average_precision": (
        "Average precision",
        "4 relevant documents retrieved at ranks 1, 2, 4 and 7 of 10.",
        {"1": ((1, 2, 4, 7), 10, 4)},
        {"map": 0.8304, "P_5": 0.6, "P_10": 0.4},
        {"map": 0.8304, "P_5": 0.6, "P_10": 0.4},
        {"map": "0.83"},
    ),
    "r_precision": (
        "R-precision over two topics",
        "Topic 1: 50 relevant, 17 of them in the top 50; topic 2: 10 relevant, 7 in the top 10.",
        {"1": (tuple(range(1, 50, 3)), 50, 50), "2": ((1, 2, 3, 5, 6, 8, 10), 10, 10)},
        {"Rprec": 0.52, "map": 0.3741},
        {"Rprec": 0.52, "map": 0.3741},
        {"Rprec": "0.52"},
    ),
}


def examples(root: str | os.PathLike | None = None) -> list[Example]:
    """All worked examples, with paths under ``root`` (default ``resources/examples``)."""
    root = Path(root) if root is not None else EXAMPLES_DIR
    return [Example(name=n, title=s[0], description=s[1], qrels=root / n / f"{n}.qrels",
                    runs=(root / n / f"{n}.run",), expected=dict(s[3]), expected_v9=dict(s[4]),
                    paper=dict(s[5]))
            for n, s in _SPECS.items()]


def example(name: str, root: str | os.PathLike | None = None) -> Example:
    for ex in examples(root):
        if ex.name == name:
            return ex
    raise KeyError(f"no example {name!r}: expected one of {', '.join(_SPECS)}")


def example_texts(name: str) -> tuple[str, str]:
    """The qrels and run text of an example, built from its specification."""
    topics = _SPECS[name][2]
    qrels, run = [], []
    for topic, (rel_ranks, retrieved, n_rel) in topics.items():
        width = max(2, len(str(retrieved + n_rel)))
        rel = set(rel_ranks)
        for rank in range(1, retrieved + 1):
            doc = f"d{rank:0{width}d}"
            run.append(f"{topic} Q0 {doc} {rank} {retrieved + 1 - rank} {name}\n")
            qrels.append(f"{topic} 0 {doc} {1 if rank in rel else 0}\n")
        # relevant documents the run never retrieves
        for k in range(n_rel - len(rel)):
            qrels.append(f"{topic} 0 d{retrieved + 1 + k:0{width}d} 1\n")
    return "".join(qrels), "".join(run)


def build_examples(root: str | os.PathLike | None = None) -> list[Example]:
    """(Re)write the example files (deterministic)."""
    from yardstick.inputs.io.atomic import atomic_write_text

    out = examples(root)
    for ex in out:
        q, r = example_texts(ex.name)
        atomic_write_text(ex.qrels, q)
        atomic_write_text(ex.runs[0], r)
    return out
