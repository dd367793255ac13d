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

Two fits, the same model:

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
METHODS = ("auto", "crossed", "topic_fixed")


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
    method : {"auto", "crossed", "topic_fixed"}
        ``auto``: crossed up to :data:`CROSSED_MAX_OBS` scores, else topic_fixed.
    """
    import statsmodels.formula.api as smf

    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, not {method!r}")
    long = long_scores(scores, systems)
    d, names = _design(long)
    if len(names) < 2:
        raise ValueError("the mixed model needs at least two systems")
    if method == "auto":
        method = "crossed" if len(d) <= CROSSED_MAX_OBS else "topic_fixed"
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
    cov = fit.cov_params().loc[fe.index, fe.index].to_numpy()
    index = list(fe.index)
    sys_cols = [index.index(f"system[{s}]") for s in names]
    topic_cols = [k for k, c in enumerate(index) if c.startswith("C(topic)")]
    n_topics = len(topic_cols) + 1
    z = stats.norm.ppf(1 - alpha / 2)
    rows = []
    for s, k in zip(names, sys_cols):
        lvec = np.zeros(len(index))
        lvec[k] = 1.0
        lvec[topic_cols] = 1.0 / n_topics if method == "topic_fixed" else 0.0
        est, se = float(lvec @ fe.to_numpy()), float(np.sqrt(lvec @ cov @ lvec))
        rows.append({"system": s, "estimate": est, "se": se, "ci_low": est - z * se,
                     "ci_high": est + z * se})
    pairs = []
    for (a, ka), (b, kb) in combinations(list(zip(names, sys_cols)), 2):
        lvec = np.zeros(len(index))
        lvec[kb], lvec[ka] = 1.0, -1.0
        diff, se = float(lvec @ fe.to_numpy()), float(np.sqrt(lvec @ cov @ lvec))
        zz = diff / se if se > 0 else float("nan")
        pairs.append({"system_a": a, "system_b": b, "mean_difference": diff, "se": se, "z": zz,
                      "p_value_mixed": float(2 * stats.norm.sf(abs(zz))), "ci_low": diff - z * se,
                      "ci_high": diff + z * se})
    pair_frame = pd.DataFrame(pairs)
    pair_frame["p_value_mixed_corrected"] = correct_pvalues(
        pair_frame["p_value_mixed"].to_numpy(float), correction)
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
    return MixedModelResult(method, pd.DataFrame(rows), pair_frame, var_topic, var_run, resid,
                            len(d), bool(fit.converged), notes)
