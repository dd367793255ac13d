"""Preferences observed in a ranking: trec_eval's ``form_prefs_counts.c`` for all topics.

For every topic, each judged document gets a *docid rank*: ``0 .. J_ret-1``
for the judged documents the run retrieved, in rank order (score descending,
ties by docno *ascending* — this file's own ``comp_sim_docno``), then
``J_ret .. J-1`` for the judged documents not retrieved, in docno order.  A
preference "A over B" is then

* *fulfilled, retrieved* — both retrieved and A ranked above B;
* *possible, retrieved* — both retrieved (fulfilled or not);
* *fulfilled, implied* — only A retrieved;
* *possible, implied* — exactly one of A and B retrieved;
* *not occurring* — neither retrieved.

Within a judgment group (JG) with one judgment sub-group (JSG), every document
is preferred to every document of a lower ``rel_level`` (the "EC" form:
equivalence classes of equal level).  A JG with several JSGs is a partial
order: the direct preferences of every JSG plus their transitive closure (the
"PA" form, a preference array; a cycle is an error).  Documents with
``rel_level > 0`` are relevant, ``== 0`` non-relevant, per JG.

Besides the per-JG counts, :class:`PreferenceCounts` keeps what the measures
need beyond them: ``prefs_pair*``'s per-document-pair ratios (summed in
trec_eval's loop order, so sums are bit-identical) and, for JGs with more
non-relevant than relevant documents, the recounts of
``m_prefs_avgjg_Rnonrel.c`` / ``m_prefs_avgjg_Rnonrel_ret.c`` (their
``recalculate``), reproduced quirk for quirk.

References
----------
C. Buckley, trec_eval 9.0/10.0 (NIST): ``form_prefs_counts.c`` (the
counting scheme and its five areas), ``get_prefs.c`` (the JG/JSG model).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from yardstick.common.errors import FormatError
from yardstick.common.options import EvalOptions
from yardstick.evaluation.measures.prefs_groups import JG_FIELDS, GroupContext, ec_group, pa_group
from yardstick.inputs.run import Run, to_bytes_array

if TYPE_CHECKING:  # pandas is imported where a frame is built, not at import time
    import pandas as pd

__all__ = ["JG_FIELDS", "PreferenceCounts", "build_preference_counts"]


@dataclass(frozen=True, eq=False)
class PreferenceCounts:
    """Preference counts of one run against preference judgments, all topics.

    Duck-types the parts of :class:`yardstick.judging.judged.JudgedRanking` the engine uses
    (``topics``, ``num_topics``, ``missing``, ``num_qrels_topics``, ``run``,
    ``options``), so measure kernels run through :mod:`yardstick.evaluation.engine`.

    Attributes
    ----------
    topics : ndarray of str, shape (T,)
    missing : ndarray of bool, shape (T,)
        Topics without run lines, evaluated on an empty ranking (``-c``).
    num_qrels_topics : int
        Topics in the judgment file (the ``-c`` divisor).
    num_judged, num_judged_ret : ndarray of int64, shape (T,)
    jg_topic : ndarray of int64, shape (G,)
        Topic index of each judgment group, groups in topic then JG-name order.
    jg_name : ndarray of str, shape (G,)
    jg_counts : dict of str -> ndarray of int64, shape (G,)
        :data:`JG_FIELDS`; ``poss_*`` include the fulfilled ones.
    pair_sum_ret, pair_sum_imp : ndarray of float64, shape (T,)
        Sum over document pairs of the fraction of their preferences that the
        ranking fulfils: pairs of two retrieved documents; then also pairs of
        one retrieved and one not (trec_eval's summation order).
    num_pairs_ret, num_pairs_imp, num_pairs : ndarray of int64, shape (T,)
        Preferred-between document pairs: both retrieved; at least one; all.
    """

    topics: np.ndarray
    missing: np.ndarray
    num_qrels_topics: int
    num_judged: np.ndarray
    num_judged_ret: np.ndarray
    jg_topic: np.ndarray
    jg_name: np.ndarray
    jg_counts: dict = field(repr=False)
    pair_sum_ret: np.ndarray = field(repr=False)
    pair_sum_imp: np.ndarray = field(repr=False)
    num_pairs_ret: np.ndarray = field(repr=False)
    num_pairs_imp: np.ndarray = field(repr=False)
    num_pairs: np.ndarray = field(repr=False)
    run: Run | None = field(default=None, repr=False)
    options: EvalOptions = field(default_factory=EvalOptions, repr=False)

    @property
    def num_topics(self) -> int:
        return len(self.topics)

    @property
    def num_jgs(self) -> np.ndarray:
        """Judgment groups per topic."""
        return np.bincount(self.jg_topic, minlength=self.num_topics)

    def jg(self, name: str) -> np.ndarray:
        """One per-JG count (see :data:`JG_FIELDS`)."""
        return self.jg_counts[name]

    def topic_sum(self, per_jg: np.ndarray) -> np.ndarray:
        """Per-topic sum of a per-JG value, added in JG order (as trec_eval's loops)."""
        return np.bincount(self.jg_topic, weights=np.asarray(per_jg, dtype=np.float64),
                           minlength=self.num_topics)

    def to_frame(self) -> pd.DataFrame:
        """One row per (topic, judgment group) with every count."""
        import pandas as pd

        f = pd.DataFrame({"topic": self.topics[self.jg_topic], "jg": self.jg_name})
        for k in JG_FIELDS:
            f[k] = self.jg_counts[k]
        return f


def build_preference_counts(run: Run, prefs, options: EvalOptions | None = None
                            ) -> PreferenceCounts:
    """Count, per topic and judgment group, the preferences ``run`` fulfils.

    Parameters
    ----------
    run : Run
    prefs : yardstick.inputs.io.prefs_file.PrefsJudgments
    options : EvalOptions
        ``-M`` (max_docs) truncates each ranking; ``-c`` evaluates topics the run
        lacks (on an empty ranking with ``compat=10``; with ``compat=9`` they
        are skipped but still count in the averages); ``compat=9`` compares
        scores and rel_levels as C ``float``.

    Raises
    ------
    FormatError
        Where trec_eval stops (or aborts): a document with two levels in a
        one-JSG group, 0 and non-0 levels in one group, a preference cycle, a
        document retrieved twice.
    """
    import pandas as pd

    options = options or EvalOptions()
    frame = prefs.frame
    where = getattr(prefs, "path", None) or getattr(prefs, "name", "prefs")
    p_topic = frame["topic"].to_numpy(dtype=object)
    p_topics = np.asarray(pd.unique(p_topic), dtype=object)
    bounds = np.append(np.searchsorted(p_topic, p_topics), len(frame)).astype(np.int64)
    run_pos = {t: i for i, t in enumerate(run.topics.tolist())}
    has_run = np.array([t in run_pos for t in p_topics.tolist()], dtype=bool)
    if options.complete and options.compat == 10:
        eval_q = np.arange(len(p_topics))
    else:
        eval_q = np.flatnonzero(has_run)

    # rankings: score descending, docno ascending (form_prefs_counts.c comp_sim_docno)
    score = run.score.astype(np.float32).astype(np.float64) if options.compat == 9 \
        else run.score
    order = np.lexsort((run.doc_code, -score, run.topic_code))
    run_start = np.searchsorted(run.topic_code[order], np.arange(len(run.topics) + 1))

    docno_b = to_bytes_array(frame["docno"].to_numpy(dtype=object))
    jg_code, jg_names = pd.factorize(frame["jg"], sort=True)
    jsg_code, _ = pd.factorize(frame["jsg"], sort=True)
    rel = frame["rel_level"].to_numpy(dtype=np.float64)
    if options.compat == 9:
        rel = rel.astype(np.float32).astype(np.float64)

    nj, njr = [], []
    jg_topic, jg_name, recs = [], [], []
    pair_stats = []
    for t, q in enumerate(eval_q.tolist()):
        topic = p_topics[q]
        rows = slice(bounds[q], bounds[q + 1])
        if has_run[q]:
            rc = run_pos[topic]
            lines = order[run_start[rc]:run_start[rc + 1]]
            if options.max_docs is not None:
                lines = lines[:options.max_docs]
            ret = run.docno_bytes[lines]
        else:
            ret = np.zeros(0, dtype="S1")
        ctx = GroupContext(where, topic)
        n_j, n_jr, docid, alld = _docid_ranks(ret, docno_b[rows], ctx)
        ctx.docnos = alld
        nj.append(n_j)
        njr.append(n_jr)
        g, s, r = jg_code[rows], jsg_code[rows], rel[rows]
        o = np.lexsort((docid, -r, s, g))
        g, s, r, d = g[o], s[o], r[o], docid[o]
        cuts = np.flatnonzero(np.diff(g)) + 1
        starts = np.concatenate([[0], cuts])
        ends = np.concatenate([cuts, [len(g)]])
        firsts, seconds = [], []
        for a, b in zip(starts.tolist(), ends.tolist()):
            ctx.jg = jg_names[g[a]]
            if len(np.unique(s[a:b])) > 1:
                rec, p1, p2 = pa_group(s[a:b], d[a:b], r[a:b], n_jr, ctx)
            else:
                rec, p1, p2 = ec_group(d[a:b], r[a:b], n_jr, ctx)
            recs.append(rec)
            jg_topic.append(t)
            jg_name.append(ctx.jg)
            firsts.append(p1)
            seconds.append(p2)
        pair_stats.append(_pair_stats(np.concatenate(firsts), np.concatenate(seconds),
                                      n_j, n_jr))

    T = len(eval_q)
    counts = {k: np.array([rec[k] for rec in recs], dtype=np.int64) for k in JG_FIELDS}
    ps = np.array(pair_stats, dtype=np.float64).reshape(T, 5)
    return PreferenceCounts(
        topics=p_topics[eval_q], missing=~has_run[eval_q], num_qrels_topics=len(p_topics),
        num_judged=np.array(nj, np.int64), num_judged_ret=np.array(njr, np.int64),
        jg_topic=np.array(jg_topic, np.int64), jg_name=np.array(jg_name, dtype=object),
        jg_counts=counts, pair_sum_ret=ps[:, 0], pair_sum_imp=ps[:, 1],
        num_pairs_ret=ps[:, 2].astype(np.int64), num_pairs_imp=ps[:, 3].astype(np.int64),
        num_pairs=ps[:, 4].astype(np.int64), run=run, options=options)


def _docid_ranks(ret: np.ndarray, docnos: np.ndarray, ctx: GroupContext):
    """form_prefs_and_ranks: docid rank of every judgment line of one topic."""
    if len(np.unique(ret)) != len(ret):
        raise FormatError(ctx.where, None, f"topic {ctx.topic!r}: the run retrieves a "
                          "document twice")
    judged = np.unique(docnos)
    jret = ret[np.isin(ret, judged)]
    unret = judged[~np.isin(judged, jret)]
    alld = np.concatenate([jret.astype(judged.dtype), unret])
    srt = np.argsort(alld, kind="stable")
    docid = srt[np.searchsorted(alld[srt], docnos)]
    return len(alld), len(jret), docid.astype(np.int64), alld


def _pair_stats(r1: np.ndarray, r2: np.ndarray, nj: int, njr: int) -> tuple:
    """prefs_pair sums: per document pair, the share of its preferences fulfilled.

    Returns (sum over retrieved pairs, sum over retrieved then one-retrieved
    pairs, number of each, number of all pairs), summed in m_prefs_pair.c's order.
    """
    if not len(r1):
        return 0.0, 0.0, 0, 0, 0
    lo, hi = np.minimum(r1, r2), np.maximum(r1, r2)
    key, inv = np.unique(lo * np.int64(nj) + hi, return_inverse=True)
    inv = inv.ravel()
    fwd = np.bincount(inv, weights=(r1 < r2).astype(np.float64), minlength=len(key))
    tot = np.bincount(inv, minlength=len(key)).astype(np.float64)
    lo_u, hi_u = key // nj, key % nj
    loop1 = hi_u < njr
    loop2 = (lo_u < njr) & ~loop1
    seq = np.concatenate([fwd[loop1] / tot[loop1], fwd[loop2] / tot[loop2]])
    cs = np.cumsum(seq)
    n1, n2 = int(loop1.sum()), int(loop2.sum())
    return (float(cs[n1 - 1]) if n1 else 0.0, float(cs[-1]) if len(cs) else 0.0,
            n1, n1 + n2, len(key))
