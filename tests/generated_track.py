"""A generated stand-in for the 17 TREC 2003 Robust runs (a helper, not a test).

``../shared/data/trectools_robust03`` holds 17 real Robust 2003 submissions and
NIST's qrels; the runs are TREC participants' files that trectools redistributes
without a licence of their own, so the repository does not carry them.  Tests
that compare Yardstick with an oracle computed on the same files (pytrec_eval,
scipy, an independent count) run on :func:`robust03_dir`: the real folder when
it is next to the checkout, else this generated track with the same layout and
the same quirks:

* the same 17 run tags and the same 100 topic ids (50 "old" topics from 301-450,
  50 "new" ones 601-650), ``runs/input.<tag>.gz`` (tab-separated, gzip) and
  ``qrels/robust03_qrels.txt`` (``qid 0 docno rel``, grades 0/1/2);
* ranks that start at 0, 1 or 2 (trec_eval ignores them), ``NLPR03vb10`` with
  10-12 documents per topic, ``humR03dc`` with 100, ``uic0301`` short of 1000 on
  some topics, the rest 1000; tied scores (scores rounded; ``rutcor03100`` and
  ``humR03dc`` coarsely);
* qrels pooled from the runs' top 125 (every pooled document judged, with the
  generator's grade) plus relevant documents no run retrieved; old topics have
  fewer relevant documents and noisier runs, so they are harder, as in the real
  track (Voorhees, "Overview of the TREC 2003 Robust Retrieval Track", 2003, §2);
* on five old topics one run (``pircRBa1``) is far better than the rest (difficult
  topics with an outlier, as the robust track's topic-spread charts show);
* one topic (``650``) has no relevant document at grade 2 and ``humR03dc`` misses
  topic ``601`` entirely (a run without a topic).

Published numbers (NIST's MAP, trectools' README values) hold only for the real
files; tests that check them ask :data:`REAL_ROBUST03` and skip otherwise.  The
track is written once per machine into a temporary folder named after the hash of
this file (workers of ``pytest -n`` share it; the folder appears atomically).
"""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np

OLD_TOPICS = ("303 307 310 314 320 322 325 330 336 341 344 345 346 347 350 353 354 355 356 362 "
              "363 367 372 374 375 378 379 383 389 393 394 397 399 401 404 408 409 414 416 419 "
              "426 427 433 435 436 439 442 443 445 448").split()
TOPICS = OLD_TOPICS + [str(t) for t in range(601, 651)]

#: tag -> (documents per topic, first rank, quality, score decimals)
RUNS = {
    "InexpC2": (1000, 0, 0.75, 4), "MU03rob01": (1000, 1, 0.65, 4),
    "NLPR03vb10": (12, 1, 0.45, 4), "SABIR03BASE": (1000, 1, 0.68, 4),
    "Sel50": (1000, 0, 0.72, 4), "THUIRr0301": (1000, 1, 0.85, 4),
    "UAmsT03RDesc": (1000, 0, 0.70, 4), "UIUC03Rd1": (1000, 1, 0.80, 4),
    "VTcdhgp1": (1000, 1, 0.87, 4), "aplrob03a": (1000, 0, 0.95, 5),
    "fub03IeOLKe3": (1000, 0, 0.82, 4), "humR03dc": (100, 1, 0.40, 1),
    "oce03noXbmD": (1000, 0, 0.66, 4), "pircRBa1": (1000, 0, 1.00, 5),
    "rutcor03100": (1000, 2, 0.25, 1), "uic0301": (1000, 0, 0.79, 4),
    "uwmtCR0": (1000, 1, 0.90, 4),
}
PREFIXES = np.array(["FBIS3-", "FBIS4-", "FT921-", "FT934-", "LA010189-", "FR940104-"])
DOCS_PER_TOPIC = 3000
POOL_DEPTH = 125
SEED = 2003


def _relevance(rng: np.random.Generator, old: bool) -> np.ndarray:
    """Grades of one topic's documents: 0, 1, 2 (old topics have fewer relevant ones)."""
    p1, p2 = (0.012, 0.002) if old else (0.03, 0.006)
    u = rng.random(DOCS_PER_TOPIC)
    return np.where(u < p2, 2, np.where(u < p2 + p1, 1, 0))


def write_track(dest: Path) -> None:
    """Write the runs and the qrels under ``dest`` (``runs/``, ``qrels/``)."""
    rng = np.random.default_rng(SEED)
    (dest / "runs").mkdir(parents=True)
    (dest / "qrels").mkdir()
    lines: dict[str, list[str]] = {tag: [] for tag in RUNS}
    qrels: list[str] = []
    for ti, topic in enumerate(TOPICS):
        old = topic in OLD_TOPICS
        grades = _relevance(rng, old)
        if topic == "650":
            grades[grades == 2] = 1
        prefix = PREFIXES[rng.integers(len(PREFIXES), size=DOCS_PER_TOPIC)]
        docnos = np.char.add(prefix, np.char.zfill(
            (np.arange(DOCS_PER_TOPIC) * 7 + ti * 13).astype(str), 5))
        docrank = np.argsort(np.argsort(docnos))
        pooled = np.zeros(DOCS_PER_TOPIC, bool)
        for tag, (depth, first, quality, decimals) in RUNS.items():
            if tag == "humR03dc" and topic == "601":
                continue
            n = depth - int(rng.integers(0, 4)) if tag == "uic0301" and ti % 7 == 0 else depth
            n = int(rng.integers(10, 13)) if tag == "NLPR03vb10" else n
            signal = quality * (0.45 if old else 1.0)
            if old and ti % 10 == 3 and tag == "pircRBa1":
                signal = 3.0        # a difficult topic one run gets right (an outlier)
            score = signal * grades + rng.normal(0, 0.6, DOCS_PER_TOPIC) + 10.0
            score = np.round(score, decimals)
            top = np.lexsort((-docrank, -score))[:n]     # trec_eval's order: docno desc on ties
            pooled[top[:POOL_DEPTH]] = True
            fmt = f"{{:.{decimals}f}}"
            lines[tag].extend(f"{topic}\tQ0\t{docnos[d]}\t{first + r}\t{fmt.format(score[d])}"
                              f"\t{tag}\n" for r, d in enumerate(top))
        missed = np.flatnonzero(~pooled & (grades > 0))
        judged = np.flatnonzero(pooled)
        judged = np.union1d(judged, missed[: max(1, len(missed) // 3)])
        qrels.extend(f"{topic} 0 {docnos[d]} {grades[d]}\n"
                     for d in judged[np.argsort(docnos[judged])])
    for tag, ls in lines.items():
        with gzip.open(dest / "runs" / f"input.{tag}.gz", "wt", compresslevel=1) as f:
            f.writelines(ls)
    (dest / "qrels" / "robust03_qrels.txt").write_text("".join(qrels))


def generated_robust03() -> Path:
    """The generated track's folder (written on first use, shared by test workers)."""
    from tests.shared_data import generated_folder

    return generated_folder("robust03", [Path(__file__)], write_track)
