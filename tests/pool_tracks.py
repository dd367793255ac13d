"""Generated tracks whose pool is known (a helper, not a test): teams' runs ranked from a
shared latent relevance, qrels the union of the top-k of the pooled runs (Buckley et al.
2007, §1), with per-topic depths, a second team-level pool, near-copies of pooled runs,
or no pool structure at all, plus a few relevant documents found by other means."""

from __future__ import annotations

import numpy as np
import pandas as pd

from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run


def make_track(seed=3, teams=12, topics=20, docs=1500, length=300, depth=None,
               second_depth=0, copies=0, pool=True):
    """Runs (1-4 per team, the first pooled), qrels from the pool; returns
    (runs, qrels, truth) with truth = {run: depth it was pooled to}, depth per topic."""
    rng = np.random.default_rng(seed)
    grade = rng.choice(3, size=(topics, docs), p=[0.9, 0.07, 0.03])
    depth = np.full(topics, 50) if depth is None else np.asarray(depth)
    runs, truth, judged = [], {}, np.zeros((topics, docs), bool)
    orders = {}
    for t in range(teams):
        view = rng.normal(0, 1, (topics, docs))
        for k in range(int(rng.integers(1, 5))):
            name = f"team{t:02d}{'abcd'[k]}"
            score = rng.uniform(0.3, 1.5) * grade + 0.6 * view + 0.8 * rng.normal(
                0, 1, (topics, docs))
            orders[name] = np.argsort(-score, axis=1)[:, :length]
            if pool and k == 0:
                truth[name] = depth
            elif pool and k == 1 and second_depth:
                truth[name] = np.full(topics, second_depth)
    for name, d in truth.items():
        for t in range(topics):
            judged[t, orders[name][t, :d[t]]] = True
    if not pool:     # judgments with no pool structure: a random sample of the documents
        judged = rng.random((topics, docs)) < 0.08
    for i, name in enumerate(list(truth)[:copies]):     # near-copies: two swaps per topic
        o = orders[name].copy()
        for t in range(topics):
            a, b = rng.choice(np.arange(length // 2, length), 2, replace=False)
            o[t, [a, b]] = o[t, [b, a]]
        orders[f"copy{i}"] = o
    judged |= (grade > 0) & (rng.random(grade.shape) < 0.03)       # found by other means
    for name, o in orders.items():
        tt = np.repeat(np.arange(topics), length)
        runs.append(Run.from_arrays([str(401 + t) for t in tt],
                                    [f"D{t}-{d}" for t, d in zip(tt, o.ravel())],
                                    np.tile(np.arange(length, 0, -1), topics).astype(float),
                                    name=name, group=name[:6]))
    t_idx, d_idx = np.nonzero(judged)
    qrels = Qrels.from_frame(pd.DataFrame({"topic": [str(401 + t) for t in t_idx],
                                           "docno": [f"D{t}-{d}" for t, d in zip(t_idx, d_idx)],
                                           "rel": grade[t_idx, d_idx]}))
    return runs, qrels, truth


def write_track(folder, runs, qrels) -> tuple[list[str], str]:
    """The track as files: ``runs/<name>`` and ``qrels.txt``; returns (run paths, qrels)."""
    from yardstick.inputs.io import write_qrels, write_run

    (folder / "runs").mkdir(parents=True, exist_ok=True)
    paths = []
    for r in runs:
        p = folder / "runs" / r.name
        write_run(r, p)
        paths.append(str(p))
    write_qrels(qrels, folder / "qrels.txt")
    return paths, str(folder / "qrels.txt")
