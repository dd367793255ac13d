"""Systems of runs: each system is several runs (random seeds, folds, query variants,
one team's runs), and a system is compared with another over both topics and runs.

A systems map (``run -> system``) comes from a systems file (``run<TAB>system``, the
groups file's format: :func:`yardstick.inputs.io.groups_file.read_groups`) or from a
regular expression over the run names (:func:`systems_from_pattern`).  Runs in no
system are listed, never dropped silently.

Per system: the mean over its runs and the spread between them (run-to-run standard
deviation, min, max), per topic and overall, with the topic-based 95% t interval of the
system mean (the per-topic mean over its runs, then a t interval over topics).

Between systems, beside the linear mixed model of
:mod:`yardstick.analysis.systems_mixed_model`, the two common shortcuts:

* **average the runs, then a paired t-test over topics** — assumes the runs of a system
  are interchangeable and their spread is no part of the question: a difference made by
  one lucky seed counts as a system difference (it ignores run-to-run variance, so its
  p-values are too small when that variance is large);
* **pool all runs** — every (run, topic) score an independent observation and a Welch
  t-test between the two systems' pools: it ignores the pairing by topic (too large
  p-values when topics vary much) and treats a system's runs on one topic as independent
  (too small when runs agree), so both sources of variation are misplaced.

References: Voorhees, "Variations in relevance judgments and the measurement of retrieval
effectiveness", IP&M 36(5), 2000 (why sources of variation matter); Ferro and Silvello,
"A general linear mixed models approach to study system component effects", SIGIR 2016;
Carterette, "Bayesian inference for information retrieval evaluation", ICTIR 2015.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats

from yardstick.analysis.significance import correct_pvalues

__all__ = ["systems_from_pattern", "systems_for_runs", "split_runs", "system_summary",
           "system_topic_table", "shortcut_tests", "long_scores", "SHORTCUTS"]

#: the shortcut tests of :func:`shortcut_tests` and the sentence saying what each assumes
SHORTCUTS = {
    "averaged": "average each system's runs per topic, then a paired t-test over topics: "
                "assumes the runs are interchangeable and ignores their spread",
    "pooled": "pool every run's per-topic scores and compare the pools (Welch t): ignores "
              "the pairing by topic and counts a system's runs on a topic as independent",
    "mixed": "linear mixed model score ~ system + (1|topic) + (1|run): topics and runs "
             "both random, the system contrast judged against both",
}


def systems_from_pattern(runs: Sequence[str], pattern: str) -> dict[str, str]:
    """``{run: system}`` from a regular expression searched in each run name: the named
    group ``system``, else the first group, else the whole match names the system.

    >>> systems_from_pattern(["bm25_s1", "bm25_s2", "dense_s1", "x"], r"(.+)_s\\d+")
    {'bm25_s1': 'bm25', 'bm25_s2': 'bm25', 'dense_s1': 'dense'}
    """
    rx = re.compile(pattern)
    out = {}
    for r in runs:
        m = rx.search(r)
        if m is None:
            continue
        if "system" in rx.groupindex:
            name = m.group("system")
        elif rx.groups:
            name = m.group(1)
        else:
            name = m.group(0)
        if name:
            out[r] = name
    return out


def systems_for_runs(runs: Sequence, systems: Mapping[str, str] | str | os.PathLike | None = None,
                     pattern: str | None = None) -> dict[str, str]:
    """``{run name: system}`` for ``runs`` (:class:`~yardstick.inputs.run.Run` objects) from
    ``pattern`` (:func:`systems_from_pattern`), a ``{run: system}`` mapping, or a systems
    file whose keys are run names, file names or run tags (the first that matches)."""
    if pattern is not None:
        return systems_from_pattern([r.name for r in runs], pattern)
    if isinstance(systems, Mapping):
        return {str(k): str(v) for k, v in systems.items()}
    if systems is None:
        raise ValueError("name the systems: a mapping, a systems file or a pattern")
    from yardstick.inputs.io.groups_file import read_groups

    listed = read_groups(systems)
    mapping = {}
    for r in runs:
        for key in (r.name, os.path.basename(r.path or ""), r.tag):
            if key and key in listed:
                mapping[r.name] = listed[key]
                break
    return mapping


def split_runs(runs: Sequence[str], systems: Mapping[str, str]) -> tuple[dict[str, list[str]],
                                                                         list[str]]:
    """``({system: [runs]}, runs in no system)``, systems in order of first appearance."""
    by: dict[str, list[str]] = {}
    unassigned = []
    for r in runs:
        s = systems.get(r)
        if s is None:
            unassigned.append(r)
        else:
            by.setdefault(s, []).append(r)
    return by, unassigned


def long_scores(scores: pd.DataFrame, systems: Mapping[str, str]) -> pd.DataFrame:
    """Tidy ``system, run, topic, score`` from a topics x runs matrix (runs in no system
    and missing scores left out)."""
    cols = [r for r in scores.columns if r in systems]
    m = scores[cols]
    out = pd.DataFrame({"system": np.tile([systems[r] for r in cols], m.shape[0]),
                        "run": np.tile(np.asarray(cols, dtype=object), m.shape[0]),
                        "topic": np.repeat(m.index.to_numpy(dtype=object), m.shape[1]),
                        "score": m.to_numpy(dtype=float).ravel()})
    return out[np.isfinite(out["score"])].reset_index(drop=True)


def _system_topic_means(scores: pd.DataFrame, by: Mapping[str, list[str]]) -> pd.DataFrame:
    return pd.DataFrame({s: scores[rs].mean(axis=1) for s, rs in by.items()})


def system_summary(scores: pd.DataFrame, systems: Mapping[str, str],
                   alpha: float = 0.05) -> pd.DataFrame:
    """One row per system: ``system, n_runs, n_topics, mean, run_sd, run_min, run_max,
    topic_sd, ci_low, ci_high``.

    ``mean`` is the mean over runs of each run's mean over topics; ``run_sd`` the standard
    deviation (ddof 1) of the run means (run-to-run spread); ``ci_low``/``ci_high`` the
    ``1 − alpha`` t interval over topics of the per-topic system mean (topic-based).
    """
    by, _ = split_runs(list(scores.columns), systems)
    per_topic = _system_topic_means(scores, by)
    rows = []
    for s, rs in by.items():
        per_run_mean = scores[rs].mean(axis=0).to_numpy(float)
        x = per_topic[s].dropna().to_numpy(float)
        n = len(x)
        half = (stats.t.ppf(1 - alpha / 2, n - 1) * x.std(ddof=1) / np.sqrt(n)) if n > 1 \
            else float("nan")
        mean = float(per_run_mean.mean())
        rows.append({"system": s, "n_runs": len(rs), "n_topics": n, "mean": mean,
                     "run_sd": float(per_run_mean.std(ddof=1)) if len(rs) > 1 else float("nan"),
                     "run_min": float(per_run_mean.min()), "run_max": float(per_run_mean.max()),
                     "topic_sd": float(x.std(ddof=1)) if n > 1 else float("nan"),
                     "ci_low": float(x.mean() - half), "ci_high": float(x.mean() + half)})
    return pd.DataFrame(rows)


def system_topic_table(scores: pd.DataFrame, systems: Mapping[str, str]) -> pd.DataFrame:
    """Tidy per topic and system: ``topic, system, n_runs, mean, run_sd, run_min, run_max``."""
    by, _ = split_runs(list(scores.columns), systems)
    frames = []
    for s, rs in by.items():
        m = scores[rs]
        frames.append(pd.DataFrame({"topic": m.index, "system": s, "n_runs": m.notna().sum(axis=1),
                                    "mean": m.mean(axis=1), "run_sd": m.std(axis=1, ddof=1),
                                    "run_min": m.min(axis=1), "run_max": m.max(axis=1)}))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def shortcut_tests(scores: pd.DataFrame, systems: Mapping[str, str],
                   correction: str = "holm") -> pd.DataFrame:
    """One row per system pair: ``system_a, system_b, mean_difference, p_value_averaged,
    p_value_pooled`` and the corrected ``p_value_averaged_corrected``,
    ``p_value_pooled_corrected`` (``correction`` from
    :data:`yardstick.analysis.significance.CORRECTIONS`); ``mean_difference`` = mean of b
    − mean of a.
    """
    by, _ = split_runs(list(scores.columns), systems)
    names = list(by)
    per_topic = _system_topic_means(scores, by).to_numpy(float)     # topics x systems
    per_run_mean = scores.mean(axis=0)
    means = np.array([per_run_mean[by[s]].mean() for s in names])
    pooled = [scores[by[s]].to_numpy(float).ravel() for s in names]
    pooled = [x[np.isfinite(x)] for x in pooled]
    p_mean = np.array([x.mean() if len(x) else np.nan for x in pooled])
    p_var = np.array([x.var(ddof=1) if len(x) > 1 else np.nan for x in pooled])
    p_n = np.array([len(x) for x in pooled], dtype=float)
    ia, ib = (np.array(v, dtype=np.int64).reshape(-1) for v in
              zip(*combinations(range(len(names)), 2))) if len(names) > 1 else \
        (np.zeros(0, np.int64), np.zeros(0, np.int64))
    # averaged: paired t over the topics both systems have (scipy.stats.ttest_rel's formula)
    d = per_topic[:, ib] - per_topic[:, ia]
    ok = np.isfinite(d)
    n = ok.sum(axis=0)
    dz = np.where(ok, d, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_d = dz.sum(axis=0) / n
        sd = np.sqrt(np.where(ok, (dz - mean_d) ** 2, 0.0).sum(axis=0) / (n - 1))
        t = mean_d / (sd / np.sqrt(n))
        p_avg = np.where((n > 1) & (sd > 0), 2 * stats.t.sf(np.abs(t), n - 1), np.nan)
        # pooled: Welch's t between the two systems' pools (scipy.stats.ttest_ind)
        va, vb = p_var[ia] / p_n[ia], p_var[ib] / p_n[ib]
        tw = (p_mean[ib] - p_mean[ia]) / np.sqrt(va + vb)
        dfw = (va + vb) ** 2 / (va ** 2 / (p_n[ia] - 1) + vb ** 2 / (p_n[ib] - 1))
        p_pool = 2 * stats.t.sf(np.abs(tw), dfw)
    out = pd.DataFrame({"system_a": [names[i] for i in ia], "system_b": [names[j] for j in ib],
                        "mean_difference": means[ib] - means[ia], "p_value_averaged": p_avg,
                        "p_value_pooled": p_pool})
    for c in ("p_value_averaged", "p_value_pooled"):
        out[c + "_corrected"] = correct_pvalues(out[c].to_numpy(float), correction)
    return out
