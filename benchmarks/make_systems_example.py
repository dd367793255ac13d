"""Generate ``resources/systems_example``: a 40-run track with two sets of judgments.

Eight systems with five random seeds each (``<system>_s<seed>``) over 16 topics, 30
documents a run per topic, graded qrels (0/1/2) from a depth-20 pool of every run, and
a second set made by perturbing the grades (:func:`yardstick.judging.perturbed_qrels.
perturb_grades`: a relevant document judged non-relevant with probability 0.35, moved
one grade with probability 0.2, a non-relevant one judged relevant with probability
0.04, 1% left unjudged) with its last topic left unjudged, so the window shows
judgment against judgment (missing judgments, a topic in one set only) and system
against system on first use.  The systems' true qualities are spaced so that some
pairs differ and some do not; the seeds add run-to-run spread.

    .venv/bin/python benchmarks/make_systems_example.py      # rewrite it (deterministic)
"""

from __future__ import annotations

import lzma
from pathlib import Path

import numpy as np
import pandas as pd

from yardstick.inputs.qrels import Qrels
from yardstick.judging.perturbed_qrels import perturb_grades

OUT = Path(__file__).resolve().parent.parent / "resources" / "systems_example"
SYSTEMS = {"bm25": 0.0, "bm25rm3": 0.25, "splade": 0.55, "dense": 0.45, "colbert": 0.6,
           "monot5": 0.9, "hybrid": 0.75, "tfidf": -0.3}
SEEDS, TOPICS, DOCS, DEPTH, POOL = 5, 16, 150, 30, 20


def main() -> None:
    rng = np.random.default_rng(20001)
    topics = [str(401 + t) for t in range(TOPICS)]
    grades = {t: rng.choice([0, 1, 2], size=DOCS, p=[0.84, 0.11, 0.05]) for t in topics}
    runs: dict[str, list[str]] = {}
    pool: dict[str, set[int]] = {t: set() for t in topics}
    for name, quality in SYSTEMS.items():
        # what the system knows about each topic (shared by its seeds)
        sys_view = {t: rng.normal(0, 0.8, DOCS) for t in topics}
        for s in range(1, SEEDS + 1):
            tag = f"{name}_s{s}"
            lucky = rng.normal(0, 0.12)        # a seed's own quality: run-to-run spread
            lines = []
            for t in topics:
                score = (1.0 + quality + lucky) * grades[t] + sys_view[t] + rng.normal(0, 0.5, DOCS)
                order = np.argsort(-score, kind="stable")[:DEPTH]
                pool[t].update(order[:POOL].tolist())
                lines += [f"{t} Q0 d{t}-{d:03d} {k + 1} {score[d]:.4f} {tag}\n"
                          for k, d in enumerate(order)]
            runs[tag] = lines
    rows = [(t, f"d{t}-{d:03d}", int(grades[t][d])) for t in topics for d in sorted(pool[t])]
    nist = Qrels.from_frame(pd.DataFrame(rows, columns=["topic", "docno", "rel"]), name="nist")
    second = perturb_grades(nist, drop=0.35, add=0.04, shift=0.2, unjudge=0.01, seed=7,
                            name="second")
    f = second.frame
    second = second.with_frame(f[f["topic"] != topics[-1]])
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "runs").mkdir(exist_ok=True)
    for q, fname in ((nist, "qrels.nist.txt"), (second, "qrels.second.txt")):
        (OUT / fname).write_text("".join(f"{t} 0 {d} {r}\n" for t, d, r in
                                         q.frame[["topic", "docno", "rel"]].itertuples(
                                             index=False)))
    for tag, lines in runs.items():
        (OUT / "runs" / f"{tag}.xz").write_bytes(lzma.compress("".join(lines).encode(),
                                                              preset=9))
    (OUT / "systems.tsv").write_text("".join(f"{tag}\t{tag.rsplit('_s', 1)[0]}\n"
                                             for tag in runs))


if __name__ == "__main__":
    main()
