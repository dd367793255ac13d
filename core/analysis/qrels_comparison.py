"""What a second (third …) set of judgments does to the evaluation.

Every run is scored on one measure under each qrels, over the topics every set judged
(topics judged in some sets only are listed in :attr:`QrelsComparison.topics_one_set`
and left out of every mean, never averaged silently).  Then, per pair of sets:

* Kendall's tau-b between the run scores (``scipy.stats.kendalltau``: tied scores count
  as ties, as identical runs on a real track are), and tau_AP (Yilmaz, Aslam and
  Robertson, "A new rank correlation coefficient for information retrieval", SIGIR 2008,
  eq. 2; :func:`yardstick.analysis.stability.rank_correlation.tau_ap`, ties broken by run
  name) with the first set as the truth, and the reverse;
* the run pairs that swap (ordered one way under ``a`` and strictly the other way under
  ``b``) and by how much, the largest rank change and its run;
* per topic, the runs whose score moves most.

Voorhees ("Variations in relevance judgments and the measurement of retrieval
effectiveness", IP&M 36(5), 2000, §3-4) found the system rankings stable (tau about
0.9) although the relevant sets of two assessors overlap by well under one half;
:meth:`QrelsComparison.correlations` puts the overlap and kappa of
:mod:`yardstick.analysis.judgment_agreement` beside tau so the finding reads off one row.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats

from yardstick.analysis.judgment_agreement import (
    agreement_table,
    aligned_judgments,
    confusion_table,
    missing_judgments,
)
from yardstick.analysis.stability.comparable import comparable
from yardstick.analysis.stability.rank_correlation import system_ranking, tau_ap
from yardstick.common.options import EvalOptions
from yardstick.common.progress import Progress, run_sync
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run

__all__ = ["QrelsComparison", "compare_qrels", "compare_qrels_job", "qrels_names",
           "common_topics", "agreement_tables"]


def qrels_names(qrels: Sequence[Qrels]) -> list[str]:
    """Distinct display names: each set's name, ``name#2`` for a repeated one."""
    out: list[str] = []
    for q in qrels:
        base = q.name or "qrels"
        name, k = base, 2
        while name in out:
            name, k = f"{base}#{k}", k + 1
        out.append(name)
    return out


def common_topics(qrels: Sequence[Qrels]) -> tuple[list[str], pd.DataFrame]:
    """Topics judged in every set, and a table of the others: ``topic`` and one boolean
    column per set saying whether it judged the topic."""
    names = qrels_names(qrels)
    sets = [set(q.frame.loc[q.frame["rel"] >= 0, "topic"]) for q in qrels]
    every = set.union(*sets) if sets else set()
    common = sorted(set.intersection(*sets)) if sets else []
    partial = sorted(every - set(common))
    table = pd.DataFrame({"topic": partial, **{n: [t in s for t in partial]
                                               for n, s in zip(names, sets)}})
    return common, table


@dataclass(frozen=True, eq=False)
class QrelsComparison:
    """Scores of the runs under several qrels and what changed between them.

    Attributes
    ----------
    names : tuple of str
        The sets, first = reference.
    measure : str
        The trec_eval column compared.
    per_topic : dict of str to DataFrame
        Set name -> topics x runs scores (common topics only).
    agreement, confusion, missing : DataFrame
        :mod:`~yardstick.analysis.judgment_agreement` tables for every pair of sets.
    topics_one_set : DataFrame
        Topics some sets did not judge (left out of every mean).
    """

    names: tuple[str, ...]
    measure: str
    per_topic: dict[str, pd.DataFrame]
    agreement: pd.DataFrame
    confusion: pd.DataFrame
    missing: pd.DataFrame
    topics_one_set: pd.DataFrame
    level: int = 1
    paths: dict[str, str | None] = field(default_factory=dict)

    @property
    def runs(self) -> list[str]:
        return list(self.per_topic[self.names[0]].columns)

    @property
    def topics(self) -> list[str]:
        return list(self.per_topic[self.names[0]].index)

    def means(self) -> pd.DataFrame:
        """Runs x sets: the mean score over the common topics."""
        return pd.DataFrame({n: self.per_topic[n].mean(axis=0) for n in self.names})

    def scores_table(self) -> pd.DataFrame:
        """Tidy: ``run, qrels, measure, score, rank`` (rank 1 = best, ties share the best
        rank)."""
        m = self.means()
        frames = []
        for n in self.names:
            s = pd.Series(comparable(m[n].to_numpy()), index=m.index)
            frames.append(pd.DataFrame({"run": m.index, "qrels": n, "measure": self.measure,
                                        "score": m[n].to_numpy(),
                                        "rank": s.rank(ascending=False, method="min")
                                        .astype(int).to_numpy()}))
        return pd.concat(frames, ignore_index=True)

    def pairs(self) -> list[tuple[str, str]]:
        return list(combinations(self.names, 2))

    def swaps(self, a: str, b: str) -> pd.DataFrame:
        """Run pairs ordered one way under ``a`` and strictly the other under ``b``:
        ``run_1, run_2, diff_a, diff_b`` (run_1 ahead under ``a``), largest |diff_a| first."""
        m = self.means()
        runs = np.array(m.index, dtype=object)
        xa, xb = comparable(m[a].to_numpy()), comparable(m[b].to_numpy())
        i, j = np.triu_indices(len(runs), k=1)
        da, db = xa[i] - xa[j], xb[i] - xb[j]
        swap = da * db < 0
        i, j, da, db = i[swap], j[swap], da[swap], db[swap]
        flip = da < 0
        first = np.where(flip, j, i)
        second = np.where(flip, i, j)
        out = pd.DataFrame({"a": a, "b": b, "run_1": runs[first], "run_2": runs[second],
                            "diff_a": np.abs(da), "diff_b": np.where(flip, -db, db)})
        return out.sort_values("diff_a", ascending=False, kind="stable").reset_index(drop=True)

    def correlations(self) -> pd.DataFrame:
        """One row per pair of sets: ``a, b, measure, n_runs, n_topics, tau, p_value, tau_ap,
        tau_ap_reverse, n_pairs, swaps, swap_rate, mean_swap_diff, max_swap_diff,
        max_rank_change, max_rank_change_run, overlap, kappa`` (Voorhees 2000's table:
        ranking agreement beside judgment agreement)."""
        m = self.means()
        rows = []
        overall = self.agreement[self.agreement["topic"] == "all"].set_index(["a", "b"])
        for a, b in self.pairs():
            xa, xb = comparable(m[a].to_numpy()), comparable(m[b].to_numpy())
            n = len(xa)
            if n >= 2 and np.ptp(xa) > 0 and np.ptp(xb) > 0:
                res = stats.kendalltau(xa, xb)
                tau, p = float(res.statistic), float(res.pvalue)
            else:
                tau = p = float("nan")
            ra, rb = system_ranking(m[a]), system_ranking(m[b])
            tap = tau_ap(ra, rb) if n >= 2 else float("nan")
            tap_r = tau_ap(rb, ra) if n >= 2 else float("nan")
            sw = self.swaps(a, b)
            rank_a = pd.Series(comparable(m[a].to_numpy()), index=m.index).rank(
                ascending=False, method="min")
            rank_b = pd.Series(comparable(m[b].to_numpy()), index=m.index).rank(
                ascending=False, method="min")
            change = (rank_b - rank_a).abs()
            who = str(change.idxmax()) if n and change.max() > 0 else ""
            ov = overall.loc[(a, b)] if (a, b) in overall.index else None
            npairs = n * (n - 1) // 2
            rows.append({"a": a, "b": b, "measure": self.measure, "n_runs": n,
                         "n_topics": len(self.topics), "tau": tau, "p_value": p, "tau_ap": tap,
                         "tau_ap_reverse": tap_r, "n_pairs": npairs, "swaps": len(sw),
                         "swap_rate": len(sw) / npairs if npairs else float("nan"),
                         "mean_swap_diff": float(sw["diff_a"].mean()) if len(sw) else 0.0,
                         "max_swap_diff": float(sw["diff_a"].max()) if len(sw) else 0.0,
                         "max_rank_change": int(change.max()) if n else 0,
                         "max_rank_change_run": who,
                         "overlap": float(ov["overlap"]) if ov is not None else float("nan"),
                         "kappa": float(ov["kappa"]) if ov is not None else float("nan")})
        return pd.DataFrame(rows)

    def rank_changes(self, a: str, b: str) -> pd.DataFrame:
        """Per run: ``run, score_a, score_b, rank_a, rank_b, rank_change`` (b − a; negative
        = moves up), largest |change| first."""
        m = self.means()
        ra = pd.Series(comparable(m[a].to_numpy()), index=m.index).rank(ascending=False,
                                                                        method="min")
        rb = pd.Series(comparable(m[b].to_numpy()), index=m.index).rank(ascending=False,
                                                                        method="min")
        out = pd.DataFrame({"run": m.index, "score_a": m[a].to_numpy(),
                            "score_b": m[b].to_numpy(), "rank_a": ra.astype(int).to_numpy(),
                            "rank_b": rb.astype(int).to_numpy()})
        out["rank_change"] = out["rank_b"] - out["rank_a"]
        order = np.argsort(-np.abs(out["rank_change"].to_numpy()), kind="stable")
        return out.iloc[order].reset_index(drop=True)

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every table, tidy, by name (what ``qrels-compare --out`` writes): ``correlations``,
        ``agreement``, ``scores``, ``rank_changes``, ``swaps``, ``topic_movers``,
        ``confusion``, ``missing_judgments``, ``topics_one_set``."""
        pairs = self.pairs()
        return {"correlations": self.correlations(), "agreement": self.agreement,
                "scores": self.scores_table(),
                "rank_changes": pd.concat([self.rank_changes(a, b).assign(a=a, b=b)
                                           for a, b in pairs], ignore_index=True),
                "swaps": pd.concat([self.swaps(a, b) for a, b in pairs], ignore_index=True),
                "topic_movers": pd.concat([self.topic_movers(a, b) for a, b in pairs],
                                          ignore_index=True),
                "confusion": self.confusion, "missing_judgments": self.missing,
                "topics_one_set": self.topics_one_set}

    def topic_movers(self, a: str, b: str, top: int = 3) -> pd.DataFrame:
        """Per topic the ``top`` runs whose score changes most from ``a`` to ``b``:
        ``topic, run, score_a, score_b, change``."""
        pa, pb = self.per_topic[a], self.per_topic[b]
        d = (pb - pa)
        long = pd.DataFrame({"topic": np.repeat(d.index.to_numpy(dtype=object), d.shape[1]),
                             "run": np.tile(d.columns.to_numpy(dtype=object), d.shape[0]),
                             "score_a": pa.to_numpy().ravel(), "score_b": pb.to_numpy().ravel(),
                             "change": d.to_numpy().ravel()})
        long["size"] = long["change"].abs()
        long = long.sort_values(["topic", "size"], ascending=[True, False], kind="stable")
        out = long.groupby("topic", sort=False).head(top).drop(columns="size")
        out.insert(0, "b", b)
        out.insert(0, "a", a)
        return out.reset_index(drop=True)


def _column(ev, measure: str) -> str:
    cols = [c for c in ev.per_topic.columns if c != "relstring"]
    if len(cols) != 1:
        raise ValueError(f"{measure!r} gives {len(cols)} columns; name one (e.g. P.10)")
    return cols[0]


def compare_qrels_job(qrels: Sequence[Qrels], runs: Sequence[Run], measure: str = "map",
                      level: int = 1, options: EvalOptions | None = None,
                      known: Mapping[str, pd.DataFrame] | None = None
                      ) -> Generator[Progress, None, QrelsComparison]:
    """:func:`compare_qrels`, yielding progress (for a GUI job).

    ``known``: set name -> topics x runs scores of ``measure`` already computed with the
    same options (the window's evaluations under the loaded qrels): that set is not
    evaluated again.  A topic's score depends on that topic's judgments alone, so the
    matrix is only cut to the common topics.
    """
    from yardstick.evaluation.engine import evaluate_run
    from yardstick.evaluation.measures.spec import parse_measure

    if len(qrels) < 2:
        raise ValueError("compare at least two qrels")
    names = qrels_names(qrels)
    common, partial = common_topics(qrels)
    opts = options or EvalOptions(relevance_level=level)
    spec = parse_measure(measure)
    total = len(qrels) * len(runs) + 1
    done = 0
    per_topic: dict[str, pd.DataFrame] = {}
    col = measure
    for name, q in zip(names, qrels):
        given = (known or {}).get(name)
        if given is not None and all(r.name in given.columns for r in runs):
            mat = given[[r.name for r in runs]].reindex(pd.Index(common, dtype=object))
            per_topic[name] = mat.fillna(0.0).rename_axis(index="topic", columns="run")
            done += len(runs)
            continue
        f = q.frame
        restricted = q if len(partial) == 0 else q.with_frame(f[f["topic"].isin(common)])
        cols = {}
        for r in runs:
            yield Progress(done, total, f"{r.name} under {name}")
            ev = evaluate_run(r, restricted, [spec], opts)
            col = _column(ev, measure)
            cols[r.name] = ev.per_topic[col].astype(float)
            done += 1
        mat = pd.DataFrame(cols).reindex(pd.Index(common, dtype=object))
        # a run that retrieved nothing for a judged topic scores 0 there (trec_eval -c)
        per_topic[name] = mat.fillna(0.0).rename_axis(index="topic", columns="run")
    yield Progress(done, total, "agreement")
    named = [Qrels(q.frame, name=n, path=q.path) for n, q in zip(names, qrels)]
    agree = agreement_tables(named, level)
    yield Progress(total, total, "done")
    return QrelsComparison(tuple(names), col, per_topic, agree["agreement"], agree["confusion"],
                           agree["missing_judgments"], partial, level,
                           {n: q.path for n, q in zip(names, qrels)})


def agreement_tables(qrels: Sequence[Qrels], level: int = 1) -> dict[str, pd.DataFrame]:
    """The judgment tables alone (no runs): ``agreement``, ``confusion``,
    ``missing_judgments`` for every pair of sets, and ``topics_one_set``."""
    names = qrels_names(qrels)
    agree, conf, miss = [], [], []
    for (na, qa), (nb, qb) in combinations(list(zip(names, qrels)), 2):
        al = aligned_judgments(qa, qb)
        agree.append(agreement_table(qa, qb, level, na, nb, aligned=al))
        conf.append(confusion_table(qa, qb, na, nb, aligned=al))
        miss.append(missing_judgments(qa, qb, na, nb, aligned=al))
    return {"agreement": pd.concat(agree, ignore_index=True),
            "confusion": pd.concat(conf, ignore_index=True),
            "missing_judgments": pd.concat(miss, ignore_index=True),
            "topics_one_set": common_topics(qrels)[1]}


def compare_qrels(qrels: Sequence[Qrels], runs: Sequence[Run], measure: str = "map",
                  level: int = 1, options: EvalOptions | None = None) -> QrelsComparison:
    """Score ``runs`` under every set of ``qrels`` and compare (see the module docstring).

    ``level``: the relevance level of binary kappa, the overlap and the evaluation
    (trec_eval ``-l``).  A run without a ranking for a common topic scores 0 there, so
    every set averages over the same topics.
    """
    return run_sync(compare_qrels_job(qrels, runs, measure, level, options))
