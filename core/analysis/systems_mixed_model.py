"""Systems compared with a linear mixed model: topics and runs both random.

``score ~ system + (1 | topic) + (1 | run within system)``: a fixed mean per system,
a random effect per topic (topics are a sample of the topics one could have asked) and
per run (runs are a sample of the seeds, folds or variants the system could have
produced), fitted by REML with statsmodels' ``MixedLM``.  A system contrast is then
judged against both sources of variation, where the shortcuts of
:mod:`yardstick.analysis.systems` each misplace one (Ferro and Silvello, "A general
linear mixed models approach to study system component effects", SIGIR 2016, §3;
Carterette, "Bayesian inference for information retrieval evaluation", ICTIR 2015, who
models topic and system effects jointly; Voorhees, IP&M 36(5), 2000, on how judgment
variation is a further source).

Three fits, one model:

* ``complete`` (every run scored on every topic, the usual case): REML in closed form
  (:func:`_fit_complete`), instant for any number of runs, equal to statsmodels' fit
  (``tests/analysis/test_systems_mixed_model.py`` holds them together);
* ``crossed``: topic and run as crossed variance components of one group
  (statsmodels' documented way for crossed effects: ``groups`` one constant,
  ``vc_formula={"topic": "0 + C(topic)", "run": "0 + C(run)"}``), the covariance an
  ``N × N`` matrix — used up to :data:`CROSSED_MAX_OBS` scores;
* ``topic_fixed``: the run as the grouping factor and the topics as fixed effects —
  on a complete design (every run scored on every topic) the system contrasts, their
  standard errors and the run variance are those of the crossed fit (the topic
  effects cancel within every contrast), at a cost linear in ``N``; the topic variance
  is then the method-of-moments estimate from the topic means, and a system's own
  interval is conditional on the topics asked (narrower than the crossed one, which
  also counts the topic sample).

Contrasts use the Wald z statistic and normal interval statsmodels reports for
``MixedLM``; p-values of all pairs are corrected as in
:mod:`yardstick.analysis.significance`.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats

from yardstick.analysis.significance import correct_pvalues
from yardstick.analysis.systems import long_scores

__all__ = ["MixedModelResult", "fit_systems_model", "CROSSED_MAX_OBS", "METHODS"]

#: largest number of scores fitted with the crossed (N x N covariance) formulation
CROSSED_MAX_OBS = 1500
METHODS = ("auto", "complete", "crossed", "topic_fixed")


@dataclass(frozen=True, eq=False)
class MixedModelResult:
    """A fitted systems model.

    Attributes
    ----------
    method : str
        ``crossed`` or ``topic_fixed`` (see the module docstring).
    systems : DataFrame
        ``system, estimate, se, ci_low, ci_high`` (the system's mean score).
    pairs : DataFrame
        ``system_a, system_b, mean_difference, se, z, p_value_mixed, ci_low, ci_high,
        p_value_mixed_corrected``
        (``mean_difference`` = b − a).
    var_topic, var_run, var_residual : float
        Variance components.
    n_obs : int
    converged : bool
    notes : tuple of str
        Warnings from the fit (e.g. a variance on the boundary, 0).
    """

    method: str
    systems: pd.DataFrame
    pairs: pd.DataFrame
    var_topic: float
    var_run: float
    var_residual: float
    n_obs: int
    converged: bool
    notes: tuple[str, ...] = ()

    def variances(self) -> pd.DataFrame:
        """``component, variance, share`` for topic, run and residual."""
        v = np.array([self.var_topic, self.var_run, self.var_residual])
        return pd.DataFrame({"component": ["topic", "run", "residual"], "variance": v,
                             "share": v / v.sum() if v.sum() > 0 else np.nan})


def _design(long: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    systems = list(dict.fromkeys(long["system"]))
    d = long.copy()
    d["system"] = pd.Categorical(d["system"], categories=systems)
    d["one"] = 1
    return d, systems


def fit_systems_model(scores: pd.DataFrame, systems: Mapping[str, str], method: str = "auto",
                      correction: str = "holm", alpha: float = 0.05) -> MixedModelResult:
    """Fit ``score ~ system + (1|topic) + (1|run)`` to a topics x runs matrix.

    Parameters
    ----------
    scores : DataFrame
        Topics x runs per-topic scores of one measure.
    systems : mapping of str to str
        Run -> system; runs in no system are left out.
    method : {"auto", "complete", "crossed", "topic_fixed"}
        ``auto``: ``complete`` when every run has a score on every topic, else crossed up
        to :data:`CROSSED_MAX_OBS` scores, else topic_fixed.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, not {method!r}")
    long = long_scores(scores, systems)
    d, names = _design(long)
    if len(names) < 2:
        raise ValueError("the mixed model needs at least two systems")
    used = scores[[r for r in scores.columns if r in systems]]
    if method == "auto":
        method = "complete" if used.notna().all().all() else \
            "crossed" if len(d) <= CROSSED_MAX_OBS else "topic_fixed"
    if method == "complete":
        if used.isna().any().any():
            raise ValueError("the complete fit needs a score for every run on every topic")
        est, cov, var_topic, var_run, resid, notes = _fit_complete(used, systems, names)
        converged = True
    else:
        est, cov, var_topic, var_run, resid, notes, converged = _fit_statsmodels(d, names,
                                                                                 method)
    z = stats.norm.ppf(1 - alpha / 2)
    se = np.sqrt(np.diag(cov))
    rows = pd.DataFrame({"system": names, "estimate": est, "se": se, "ci_low": est - z * se,
                         "ci_high": est + z * se})
    pairs = []
    for i, j in combinations(range(len(names)), 2):
        diff = float(est[j] - est[i])
        sd = float(np.sqrt(max(cov[i, i] + cov[j, j] - 2 * cov[i, j], 0.0)))
        zz = diff / sd if sd > 0 else float("nan")
        pairs.append({"system_a": names[i], "system_b": names[j], "mean_difference": diff,
                      "se": sd, "z": zz, "p_value_mixed": float(2 * stats.norm.sf(abs(zz))),
                      "ci_low": diff - z * sd, "ci_high": diff + z * sd})
    pair_frame = pd.DataFrame(pairs)
    pair_frame["p_value_mixed_corrected"] = correct_pvalues(
        pair_frame["p_value_mixed"].to_numpy(float), correction)
    return MixedModelResult(method, rows, pair_frame, var_topic, var_run, resid, len(d),
                            converged, notes)


def _fit_complete(x: pd.DataFrame, systems: Mapping[str, str], names: list[str]):
    """REML in closed form for a complete design (every run on every topic).

    The likelihood splits into independent parts (Searle, Casella and McCulloch,
    *Variance Components*, 1992, §4.4 and §6.2, for crossed and nested classifications):
    the topic x run interaction ``y_rt − ȳ_r. − ȳ_.t + ȳ_..`` gives
    ``σ_e² = SS / ((R−1)(T−1))``; the run means ``ȳ_r.`` (variance ``τ² = σ_run² + σ_e²/T``,
    the topic effects cancel) give the system means by least squares and ``τ²`` as the
    pooled within-system variance of run means (``R − S`` degrees of freedom); the topic
    means give ``σ_topic² = var(ȳ_.t) − σ_e²/R``.  A variance estimated below 0 is set to
    0, as REML's boundary does.  Thousands of runs take milliseconds, where MixedLM's
    iterations took 35 s for 150 runs x 50 topics.
    """
    y = x.to_numpy(float)
    t_n, r_n = y.shape
    run_means = y.mean(axis=0)
    topic_means = y.mean(axis=1)
    inter = y - run_means[None, :] - topic_means[:, None] + y.mean()
    resid = float((inter ** 2).sum() / max((r_n - 1) * (t_n - 1), 1))
    sys_of = np.array([names.index(systems[r]) for r in x.columns])
    counts = np.bincount(sys_of, minlength=len(names)).astype(float)
    est = np.bincount(sys_of, weights=run_means, minlength=len(names)) / counts
    df_run = r_n - len(names)
    notes: list[str] = []
    if df_run > 0:
        tau2 = float(((run_means - est[sys_of]) ** 2).sum() / df_run)
    else:
        tau2 = resid / t_n
        notes.append("one run per system: no run-to-run variance can be estimated")
    var_run = tau2 - resid / t_n
    if var_run < 0:
        notes.append("The run variance is estimated at 0 (on the boundary).")
        var_run, tau2 = 0.0, resid / t_n
    var_topic = float(topic_means.var(ddof=1) - resid / r_n) if t_n > 1 else 0.0
    var_topic = max(var_topic, 0.0)
    # system means: run part (independent between systems) + the shared topic sample
    cov = np.full((len(names), len(names)), var_topic / t_n) + np.diag(tau2 / counts)
    return est, cov, var_topic, float(var_run), resid, tuple(notes)


def _fit_statsmodels(d: pd.DataFrame, names: list[str], method: str):
    import statsmodels.formula.api as smf

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if method == "crossed":
            model = smf.mixedlm("score ~ 0 + system", d, groups="one", re_formula="0",
                                vc_formula={"topic": "0 + C(topic)", "run": "0 + C(run)"})
        else:
            model = smf.mixedlm("score ~ 0 + system + C(topic)", d, groups="run")
        fit = model.fit(reml=True)
    notes = tuple(dict.fromkeys(str(w.message).splitlines()[0] for w in caught
                                if "Retrying" not in str(w.message)))
    fe = fit.fe_params
    cov_all = fit.cov_params().loc[fe.index, fe.index].to_numpy()
    index = list(fe.index)
    sys_cols = [index.index(f"system[{s}]") for s in names]
    topic_cols = [k for k, c in enumerate(index) if c.startswith("C(topic)")]
    # each system's mean: its coefficient (+ the mean topic effect when topics are fixed)
    lmat = np.zeros((len(names), len(index)))
    for k, col in enumerate(sys_cols):
        lmat[k, col] = 1.0
        if method == "topic_fixed":
            lmat[k, topic_cols] = 1.0 / (len(topic_cols) + 1)
    est = lmat @ fe.to_numpy()
    cov = lmat @ cov_all @ lmat.T
    resid = float(fit.scale)
    if method == "crossed":
        vc = dict(zip(model.exog_vc.names, np.asarray(fit.vcomp, dtype=float)))
        var_topic, var_run = float(vc.get("topic", np.nan)), float(vc.get("run", np.nan))
    else:
        var_run = float(np.asarray(fit.cov_re)[0, 0])
        # method of moments: topic means of the scores less their system means
        centred = d["score"] - d.groupby("system", observed=True)["score"].transform("mean")
        tm = centred.groupby(d["topic"]).agg(["mean", "size"])
        var_topic = max(0.0, float(tm["mean"].var(ddof=1)) - resid / float(tm["size"].mean()))
    return est, cov, var_topic, var_run, resid, notes, bool(fit.converged)
