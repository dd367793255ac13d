"""Counting one judgment group's preferences (``form_prefs_counts.c``, per JG).

A group with one judgment sub-group is held as equivalence classes of equal
``rel_level`` (``form_jg_ec``, ``add_ec_pref_to_jg``); a group with several
as a preference array closed under transitivity (``form_jg_pa``,
``add_transitives``, ``add_pa_pref_to_jg``).  Both return the group's counts
(:data:`JG_FIELDS`) and its preferences as pairs of docid ranks (preferred,
other).  The ``rn_*``/``rnr_*`` counts are the ``recalculate`` functions of
``m_prefs_avgjg_Rnonrel.c`` and ``m_prefs_avgjg_Rnonrel_ret.c``.
"""

from __future__ import annotations

import numpy as np

from yardstick.common.errors import FormatError

#: per-JG integer counts
JG_FIELDS = ("ful_ret", "poss_ret", "ful_imp", "poss_imp", "notoccur",
             "num_rel", "num_rel_ret", "num_nonrel", "num_nonrel_ret",
             # m_prefs_avgjg_Rnonrel.c recount (only where num_nonrel > num_rel)
             "rn_ful", "rn_poss",
             # m_prefs_avgjg_Rnonrel_ret.c recount (only where num_nonrel_ret > num_rel_ret)
             "rnr_ful", "rnr_poss")


class GroupContext:
    """Where we are, for error messages."""

    def __init__(self, where, topic):
        self.where, self.topic, self.jg, self.docnos = where, topic, "", None

    def fail(self, reason: str, docid: int | None = None) -> FormatError:
        doc = ""
        if docid is not None and self.docnos is not None:
            doc = f"document {self.docnos[docid].decode('utf-8', 'replace')!r}: "
        return FormatError(self.where, None, f"topic {self.topic!r}, judgment group "
                           f"{self.jg!r}: {doc}{reason}")


def _zero_rec() -> dict:
    return dict.fromkeys(JG_FIELDS, 0)


def _classify(r1: np.ndarray, r2: np.ndarray, njr: int) -> dict:
    """Counts of preferences r1 over r2 by area (form_prefs_counts.c, areas A1..A5)."""
    ret1, ret2 = r1 < njr, r2 < njr
    ful_ret = int(np.count_nonzero(ret1 & ret2 & (r1 < r2)))
    unf_ret = int(np.count_nonzero(ret1 & ret2 & (r1 > r2)))
    ful_imp = int(np.count_nonzero(ret1 & ~ret2))
    unf_imp = int(np.count_nonzero(~ret1 & ret2))
    return {"ful_ret": ful_ret, "poss_ret": ful_ret + unf_ret, "ful_imp": ful_imp,
            "poss_imp": ful_imp + unf_imp,
            "notoccur": int(np.count_nonzero(~ret1 & ~ret2))}


def ec_group(docid: np.ndarray, rel: np.ndarray, njr: int, ctx: GroupContext):
    """One-JSG group: equivalence classes by rel_level (form_jg_ec, add_ec_pref_to_jg).

    Entries come sorted by rel_level descending, then docid rank.
    """
    rec = _zero_rec()
    new = np.ones(len(rel), bool)
    new[1:] = rel[1:] != rel[:-1]
    ec = np.cumsum(new) - 1
    if len(rel) and rel[0] == -3.0:
        # form_prefs_counts.c counts classes from the sentinel level -3.0, so a group
        # whose top level is -3.0 loses its last class
        keep = ec < ec[-1]
        docid, rel, ec = docid[keep], rel[keep], ec[keep]
    n = len(docid)
    empty = np.zeros(0, np.int64)
    if n == 0:
        return rec, empty, empty
    ret, relm = docid < njr, rel > 0.0
    rec["num_rel"] = int(relm.sum())
    rec["num_rel_ret"] = int((relm & ret).sum())
    rec["num_nonrel"] = int((~relm).sum())
    rec["num_nonrel_ret"] = int((~relm & ret).sum())
    # every (entry a, entry b) with class(a) above class(b)
    ec_end = np.searchsorted(ec, ec, side="right")
    cnt = n - ec_end
    a = np.repeat(np.arange(n), cnt)
    b = ec_end[a] + (np.arange(cnt.sum()) - np.repeat(np.cumsum(cnt) - cnt, cnt))
    r1, r2 = docid[a], docid[b]
    same = np.flatnonzero(r1 == r2)
    if len(same):
        raise ctx.fail("has two different rel_levels in one judgment sub-group",
                       int(r1[same[0]]))
    rec.update(_classify(r1, r2, njr))
    last = ec[-1]
    if rec["num_nonrel"] > rec["num_rel"]:
        rec["rn_ful"], rec["rn_poss"] = _ec_recount(docid, ec, last, rec["num_rel"], njr,
                                                    retrieved_only=False)
    if rec["num_nonrel_ret"] > rec["num_rel_ret"]:
        rec["rnr_ful"], rec["rnr_poss"] = _ec_recount(docid, ec, last, rec["num_rel_ret"],
                                                      njr, retrieved_only=True)
    return rec, r1, r2


def _pairs_above(a: np.ndarray, b_sorted: np.ndarray) -> int:
    """Number of (x in a, y in b) with x < y."""
    return int((len(b_sorted) - np.searchsorted(b_sorted, a, side="right")).sum())


def _ec_recount(docid, ec, last, keep_nonrel, njr, retrieved_only):
    """``recalculate`` of m_prefs_avgjg_Rnonrel(_ret).c for an EC group.

    The last class (lowest level, taken as the non-relevant one) is cut to its
    first ``keep_nonrel`` documents; preferences among the other classes and of
    *every* class (the last one included, as trec_eval loops) over that cut
    class are recounted.  Returns (fulfilled, possible).  Where trec_eval would
    read past the end of the class (more to keep than it holds) the class is
    used whole.
    """
    sel = docid < njr if retrieved_only else np.ones(len(docid), bool)
    new = docid[ec == last][:keep_nonrel]
    if retrieved_only:
        new = new[new < njr]
    ful = total = 0
    for e2 in range(1, last):
        a = docid[(ec < e2) & sel]
        b = docid[(ec == e2) & sel]
        total += len(a) * len(b)
        ful += _pairs_above(a if retrieved_only else a[a < njr], b)
    a = docid[sel]
    total += len(a) * len(new)
    ful += _pairs_above(a if retrieved_only else a[a < njr], new)
    return ful, total


def _closure(direct: np.ndarray) -> np.ndarray:
    """Reflexive-transitive closure of a boolean relation (add_transitives)."""
    r = direct.copy()
    np.fill_diagonal(r, True)
    while True:
        f = r.astype(np.float32)
        r2 = (f @ f) > 0
        if np.array_equal(r2, r):
            return r
        r = r2


def pa_group(jsg, docid, rel, njr: int, ctx: GroupContext):
    """Several-JSG group: preference array with transitive closure (form_jg_pa).

    Entries come sorted by JSG, rel_level descending, docid rank.  Only the
    group's own documents are kept in the array (the others have no
    preferences).
    """
    rec = _zero_rec()
    o = np.argsort(docid, kind="stable")
    d_o, r_o = docid[o], rel[o]
    first = np.ones(len(o), bool)
    first[1:] = d_o[1:] != d_o[:-1]
    prev = np.empty(len(o))
    prev[first] = -1.0
    prev[~first] = r_o[np.flatnonzero(~first) - 1]
    bad = np.flatnonzero(((prev > 0.0) & (r_o == 0.0)) | ((prev == 0.0) & (r_o > 0.0)))
    if len(bad):
        raise ctx.fail("has both 0 and non-0 rel_level", int(d_o[bad[0]]))
    last = np.ones(len(o), bool)
    last[:-1] = d_o[1:] != d_o[:-1]
    u, rel_u = d_o[last], r_o[last]          # the group's documents, by docid rank
    li = np.searchsorted(u, docid)
    m = len(u)
    direct = np.zeros((m, m), bool)
    ii, jj = np.nonzero((jsg[:, None] == jsg[None, :]) & (rel[:, None] > rel[None, :]))
    direct[li[ii], li[jj]] = True
    pa = _closure(direct)
    np.fill_diagonal(pa, False)
    cyc = np.argwhere(pa & pa.T)
    if len(cyc):
        raise ctx.fail(f"preferences form a cycle with document "
                       f"{ctx.docnos[u[cyc[0][1]]].decode('utf-8', 'replace')!r}",
                       int(u[cyc[0][0]]))
    ret_u = u < njr
    rec["num_rel"] = int((rel_u > 0.0).sum())
    rec["num_rel_ret"] = int(((rel_u > 0.0) & ret_u).sum())
    rec["num_nonrel"] = int((rel_u == 0.0).sum())
    rec["num_nonrel_ret"] = int(((rel_u == 0.0) & ret_u).sum())
    i, j = np.nonzero(pa)
    r1, r2 = u[i], u[j]
    rec.update(_classify(r1, r2, njr))
    nonrel = np.flatnonzero(rel_u == 0.0)
    if rec["num_nonrel"] > rec["num_rel"]:
        keep = np.ones(m, bool)
        keep[nonrel[rec["num_rel"]:]] = False
        k = keep[i] & keep[j]
        c = _classify(r1[k], r2[k], njr)
        rec["rn_ful"] = c["ful_ret"] + c["ful_imp"]
        rec["rn_poss"] = int(k.sum())
    if rec["num_nonrel_ret"] > rec["num_rel_ret"]:
        keep = np.ones(m, bool)
        nonrel_ret = nonrel[ret_u[nonrel]]
        keep[nonrel_ret[rec["num_rel"]:]] = False   # sic: num_rel, not num_rel_ret
        k = keep[i] & keep[j] & ret_u[i] & ret_u[j]
        rec["rnr_ful"] = int(np.count_nonzero(r1[k] < r2[k]))
        rec["rnr_poss"] = int(k.sum())
    return rec, r1, r2
