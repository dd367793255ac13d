"""Agreement between two sets of judgments (qrels) of one collection.

Two assessors (primary and secondary, two rounds, people and a language model, a
crowd) judge the same topics.  Per topic and overall this module gives

* the documents judged by both sets and by one only (a judgment ``rel < 0`` is
  trec_eval's "pooled but not judged" and counts as not judged);
* the grade confusion matrix over the documents both judged;
* Cohen's kappa, ``κ = (p_o − p_e) / (1 − p_e)`` (Cohen, "A coefficient of agreement
  for nominal scales", Educational and Psychological Measurement 20(1), 1960, eq. 1),
  binary at a relevance level (grade ``>= level`` is relevant), and weighted over the
  grades, ``κ_w = 1 − Σ w_ij o_ij / Σ w_ij e_ij`` with disagreement weights
  ``|i − j| / (k − 1)`` (linear) or ``(i − j)² / (k − 1)²`` (quadratic) over the ``k``
  grades from the lowest to the highest seen (Cohen, "Weighted kappa", Psychological
  Bulletin 70(4), 1968);
* the overlap of the relevant sets, ``|R_a ∩ R_b| / |R_a ∪ R_b|`` (Voorhees, "Variations
  in relevance judgments and the measurement of retrieval effectiveness", IP&M 36(5),
  2000, §2.1 and Table 1), per topic and as the mean over topics, as she reports it.

Topics judged in one set only are listed (``in_a`` / ``in_b``) and never enter the
overall row, whose kappa is computed on every document pair both sets judged and whose
``overlap`` is Voorhees's mean of the per-topic overlaps (``overlap_pooled``: one
intersection over one union across topics).  kappa is NaN where it is undefined (every
judgment in one category: ``p_e = 1``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from yardstick.inputs.qrels import Qrels

__all__ = ["aligned_judgments", "cohen_kappa", "weighted_kappa", "confusion_matrix",
           "agreement_table", "confusion_table", "missing_judgments", "WEIGHTS"]

#: weighted-kappa weightings accepted by :func:`weighted_kappa`
WEIGHTS = ("linear", "quadratic")


def aligned_judgments(a: Qrels, b: Qrels) -> pd.DataFrame:
    """Every (topic, docno) judged in ``a`` or ``b``: columns ``topic, docno, rel_a, rel_b``.

    A grade is NaN where that set has no judgment (or a negative, "not judged", one).
    """
    fa = a.frame[["topic", "docno", "rel"]]
    fb = b.frame[["topic", "docno", "rel"]]
    fa = fa[fa["rel"] >= 0].rename(columns={"rel": "rel_a"})
    fb = fb[fb["rel"] >= 0].rename(columns={"rel": "rel_b"})
    out = fa.merge(fb, on=["topic", "docno"], how="outer", sort=True)
    out["rel_a"] = out["rel_a"].astype(float)
    out["rel_b"] = out["rel_b"].astype(float)
    return out.reset_index(drop=True)


def confusion_matrix(grades_a: Sequence[int], grades_b: Sequence[int],
                     categories: Sequence[int] | None = None) -> pd.DataFrame:
    """Counts of (grade under a, grade under b): rows a, columns b, over ``categories``
    (default: every grade either gives, ascending)."""
    ga = np.asarray(grades_a, dtype=np.int64)
    gb = np.asarray(grades_b, dtype=np.int64)
    cats = np.array(sorted(set(ga.tolist()) | set(gb.tolist())) if categories is None
                    else list(categories), dtype=np.int64)
    ia = np.searchsorted(cats, ga)
    ib = np.searchsorted(cats, gb)
    counts = np.zeros((len(cats), len(cats)), dtype=np.int64)
    np.add.at(counts, (ia, ib), 1)
    return pd.DataFrame(counts, index=pd.Index(cats, name="grade_a"),
                        columns=pd.Index(cats, name="grade_b"))


def _kappa_from_counts(counts: np.ndarray, weights: np.ndarray) -> float:
    n = counts.sum()
    if n == 0:
        return float("nan")
    o = counts / n
    e = np.outer(o.sum(axis=1), o.sum(axis=0))
    denom = float((weights * e).sum())
    if denom <= 1e-15:
        return float("nan")
    return 1.0 - float((weights * o).sum()) / denom


def cohen_kappa(labels_a: Sequence, labels_b: Sequence) -> float:
    """Cohen's (1960) kappa of two raters' nominal labels of the same items.

    >>> round(cohen_kappa([1, 1, 0, 0], [1, 0, 0, 0]), 4)
    0.5
    """
    ga, gb = np.asarray(labels_a), np.asarray(labels_b)
    cats = sorted(set(ga.tolist()) | set(gb.tolist()))
    counts = confusion_matrix(np.searchsorted(cats, ga), np.searchsorted(cats, gb),
                              range(len(cats))).to_numpy()
    return _kappa_from_counts(counts, 1.0 - np.eye(len(cats)))


def weighted_kappa(grades_a: Sequence[int], grades_b: Sequence[int],
                   weights: str = "linear") -> float:
    """Cohen's (1968) weighted kappa over ordinal grades (``linear`` or ``quadratic``).

    The ``k`` categories are every integer from the lowest grade seen to the highest,
    so that a grade nobody gave still spaces the others (0 and 2 are two steps apart).
    """
    if weights not in WEIGHTS:
        raise ValueError(f"weights must be one of {WEIGHTS}, not {weights!r}")
    ga = np.asarray(grades_a, dtype=np.int64)
    gb = np.asarray(grades_b, dtype=np.int64)
    if len(ga) == 0:
        return float("nan")
    lo, hi = int(min(ga.min(), gb.min())), int(max(ga.max(), gb.max()))
    cats = np.arange(lo, hi + 1)
    k = len(cats)
    if k == 1:
        return float("nan")
    d = np.abs(cats[:, None] - cats[None, :]) / (k - 1)
    w = d if weights == "linear" else d ** 2
    return _kappa_from_counts(confusion_matrix(ga, gb, cats).to_numpy(), w)


def _row(part: pd.DataFrame, level: int) -> dict:
    ja, jb = part["rel_a"].notna().to_numpy(), part["rel_b"].notna().to_numpy()
    both = ja & jb
    ga = part["rel_a"].to_numpy()[both].astype(np.int64)
    gb = part["rel_b"].to_numpy()[both].astype(np.int64)
    ra = (part["rel_a"] >= level).to_numpy()
    rb = (part["rel_b"] >= level).to_numpy()
    inter, union = int((ra & rb).sum()), int((ra | rb).sum())
    return {"judged_a": int(ja.sum()), "judged_b": int(jb.sum()), "judged_both": int(both.sum()),
            "only_a": int((ja & ~jb).sum()), "only_b": int((jb & ~ja).sum()),
            "relevant_a": int(ra.sum()), "relevant_b": int(rb.sum()), "relevant_both": inter,
            "relevant_union": union,
            "overlap": inter / union if union else float("nan"),
            "agreement": float(np.mean((ga >= level) == (gb >= level))) if len(ga) else
            float("nan"),
            "kappa": cohen_kappa(ga >= level, gb >= level) if len(ga) else float("nan"),
            "kappa_linear": weighted_kappa(ga, gb, "linear"),
            "kappa_quadratic": weighted_kappa(ga, gb, "quadratic")}


def agreement_table(a: Qrels, b: Qrels, level: int = 1, name_a: str | None = None,
                    name_b: str | None = None,
                    aligned: pd.DataFrame | None = None) -> pd.DataFrame:
    """Agreement per topic and overall (last row, topic ``all``), one tidy frame.

    Columns: ``a, b, topic, overlap, kappa, kappa_linear, kappa_quadratic, agreement,
    judged_both, only_a, only_b, relevant_both, relevant_union, relevant_a, relevant_b,
    judged_a, judged_b, overlap_pooled, in_a, in_b, n_topics``.  ``kappa`` is binary at
    ``level``; ``n_topics`` counts the topics in the ``all`` row (those judged in both sets).
    ``aligned``: :func:`aligned_judgments` of ``a`` and ``b`` when already made.
    """
    na, nb = name_a or a.name, name_b or b.name
    al = aligned_judgments(a, b) if aligned is None else aligned
    ta, tb = set(a.frame.loc[a.frame["rel"] >= 0, "topic"]), \
        set(b.frame.loc[b.frame["rel"] >= 0, "topic"])
    rows = []
    for topic, part in al.groupby("topic", sort=True):
        r = {"topic": topic, "in_a": topic in ta, "in_b": topic in tb, **_row(part, level)}
        r["overlap_pooled"] = r["overlap"]
        r["n_topics"] = 1
        rows.append(r)
    common = sorted(ta & tb)
    allrow = {"topic": "all", "in_a": True, "in_b": True,
              **_row(al[al["topic"].isin(common)], level)}
    per = pd.DataFrame(rows)
    inboth = per[per["in_a"] & per["in_b"]] if len(per) else per
    allrow["overlap_pooled"] = allrow["overlap"]
    allrow["overlap"] = float(inboth["overlap"].mean()) if len(inboth) else float("nan")
    allrow["n_topics"] = len(common)
    out = pd.concat([per, pd.DataFrame([allrow])], ignore_index=True)
    out.insert(0, "b", nb)
    out.insert(0, "a", na)
    # answers first (overlap, kappa), then the counts they come from
    cols = ["a", "b", "topic", "overlap", "kappa", "kappa_linear", "kappa_quadratic",
            "agreement", "judged_both", "only_a", "only_b", "relevant_both", "relevant_union",
            "relevant_a", "relevant_b", "judged_a", "judged_b", "overlap_pooled", "in_a", "in_b",
            "n_topics"]
    return out[cols]


def confusion_table(a: Qrels, b: Qrels, name_a: str | None = None,
                    name_b: str | None = None, per_topic: bool = False,
                    aligned: pd.DataFrame | None = None) -> pd.DataFrame:
    """The grade confusion matrix, tidy: ``a, b, topic, grade_a, grade_b, count``.

    Grades are strings; ``unjudged`` marks a document the other set judged and this one
    did not (so the judged-by-one-only documents are in the same table).  ``topic`` is
    ``all`` (topics judged in both sets) unless ``per_topic``.
    """
    al = aligned_judgments(a, b) if aligned is None else aligned
    ta, tb = set(a.frame.loc[a.frame["rel"] >= 0, "topic"]), \
        set(b.frame.loc[b.frame["rel"] >= 0, "topic"])
    al = al[al["topic"].isin(ta & tb)]
    ga, gb = _grade_labels(al["rel_a"].to_numpy()), _grade_labels(al["rel_b"].to_numpy())
    frame = pd.DataFrame({"topic": al["topic"] if per_topic else "all",
                          "grade_a": ga, "grade_b": gb})
    out = frame.groupby(["topic", "grade_a", "grade_b"], sort=True).size().reset_index(
        name="count")
    out.insert(0, "b", name_b or b.name)
    out.insert(0, "a", name_a or a.name)
    return out


def _grade_labels(rel: np.ndarray) -> np.ndarray:
    """Grades as strings, ``unjudged`` where NaN (vectorised: 100,000 judgments)."""
    out = np.full(len(rel), "unjudged", dtype=object)
    ok = ~np.isnan(rel)
    out[ok] = rel[ok].astype(np.int64).astype(str)
    return out


def missing_judgments(a: Qrels, b: Qrels, name_a: str | None = None,
                      name_b: str | None = None,
                      aligned: pd.DataFrame | None = None) -> pd.DataFrame:
    """Documents judged in one set and not the other: ``topic, docno, judged_in,
    missing_in, rel`` (the grade where it was judged)."""
    na, nb = name_a or a.name, name_b or b.name
    al = aligned_judgments(a, b) if aligned is None else aligned
    only_a = al[al["rel_b"].isna()]
    only_b = al[al["rel_a"].isna()]
    parts = [pd.DataFrame({"topic": only_a["topic"], "docno": only_a["docno"], "judged_in": na,
                           "missing_in": nb, "rel": only_a["rel_a"].astype(np.int64)}),
             pd.DataFrame({"topic": only_b["topic"], "docno": only_b["docno"], "judged_in": nb,
                           "missing_in": na, "rel": only_b["rel_b"].astype(np.int64)})]
    return pd.concat(parts, ignore_index=True)
