"""Agreement between system rankings: Kendall's tau, tau_AP and ranking strings.

* A *system ranking* orders runs by decreasing mean score of a measure
  (Voorhees, TREC 2003 robust track overview, §2): from two topic
  groups (old vs new topics, Table 3), two measures (Figure 3) or two qrels.
* Kendall's tau counts pairwise swaps between two rankings
  (``scipy.stats.kendalltau``).
* tau_AP (Yilmaz, Aslam and Robertson, "A new rank correlation coefficient for
  information retrieval", SIGIR 2008, eq. 2) weighs disagreements near the top
  more heavily::

      tau_AP = 2/(n−1) · Σ_{i=2..n} C(i)/(i−1) − 1

  where ``C(i)`` is the number of items above rank ``i`` in the estimated
  ranking that are also above the item at rank ``i`` in the true ranking.  It
  is not symmetric; :func:`tau_ap_symmetric` averages both directions.
* Ranking strings (robust overview Table 3) write a ranking with one
  character per run; runs tied on a measure are ordered by a tie-break score
  (MAP on that topic set there), then by name.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from yardstick.analysis.stability.comparable import comparable

__all__ = ["system_ranking", "kendall_tau", "tau_ap", "tau_ap_symmetric", "RankCorrelation",
           "compare_rankings", "correlation_matrix", "RankingStrings", "ranking_strings",
           "SYMBOLS", "symbol_codes"]

#: Characters given to runs in ranking strings, in order.
SYMBOLS = string.ascii_uppercase + string.ascii_lowercase + string.digits + "!#$%&*+<=>?@^~"


def system_ranking(means: pd.Series, tie_break: pd.Series | None = None,
                   lower_is_better: bool = False) -> list[str]:
    """Run names best first: the one system ranking in Yardstick.

    The tie rule: two means equal to :data:`~yardstick.analysis.stability.comparable.DIGITS`
    significant digits (:func:`~yardstick.analysis.stability.comparable.comparable`) are
    tied, whatever order their topics were summed in; tied runs are ordered by
    ``tie_break`` (higher first) when given (MAP in the robust track's ranking strings,
    Voorhees 2003, Table 3), then by run name; runs without a mean (NaN) come last, by
    name.  Stability (rank correlations, ranking strings), the pool simulation and the
    system-ranking chart (:func:`yardstick.presentation.charts.system_ranking.ranked_means`)
    all order runs here.

    Parameters
    ----------
    means : pandas.Series
        Run name -> mean score.
    tie_break : pandas.Series, optional
        Run name -> secondary score (e.g. MAP), always higher-is-better.
    lower_is_better : bool
        For measures such as %no-rel@10.
    """
    # scores equal as fractions are ties, whatever order they were summed in
    key = comparable(means.to_numpy(float))
    frame = pd.DataFrame({"run": [str(r) for r in means.index],
                          "key": -key if not lower_is_better else key})
    frame["tb"] = 0.0 if tie_break is None else \
        -comparable(tie_break.reindex(means.index).to_numpy(float))
    return list(frame.sort_values(["key", "tb", "run"], kind="mergesort")["run"])


def _positions(ranking: Sequence[str], other: Sequence[str]) -> np.ndarray:
    where = {r: k for k, r in enumerate(ranking)}
    if set(where) != set(other) or len(where) != len(other):
        raise ValueError("the two rankings must hold the same runs")
    return np.array([where[r] for r in other], dtype=np.int64)


def kendall_tau(ranking_a: Sequence[str], ranking_b: Sequence[str]) -> tuple[float, float]:
    """Kendall's tau and its p-value between two rankings (lists of run names, best first)."""
    pos_b_in_a = _positions(ranking_a, ranking_b)
    res = stats.kendalltau(np.arange(len(ranking_b)), pos_b_in_a)
    return float(res.statistic), float(res.pvalue)


def tau_ap(truth: Sequence[str], estimate: Sequence[str]) -> float:
    """tau_AP of ``estimate`` against ``truth`` (Yilmaz et al. 2008, eq. 2).

    Both are lists of run names, best first.  Vectorised: ``pos[i]`` is the
    true position of the run at estimated rank ``i``; ``C(i)`` counts ``j < i``
    with ``pos[j] < pos[i]`` (a strictly lower triangle of one comparison matrix).
    """
    n = len(truth)
    if n < 2:
        raise ValueError("tau_AP needs at least two runs")
    pos = _positions(truth, estimate)
    c = np.tril(pos[None, :] < pos[:, None], k=-1).sum(axis=1)[1:]
    return float(2.0 / (n - 1) * np.sum(c / np.arange(1, n)) - 1.0)


def tau_ap_symmetric(ranking_a: Sequence[str], ranking_b: Sequence[str]) -> float:
    """Mean of ``tau_ap(a, b)`` and ``tau_ap(b, a)`` (Yilmaz et al. 2008, §3)."""
    return 0.5 * (tau_ap(ranking_a, ranking_b) + tau_ap(ranking_b, ranking_a))


@dataclass(frozen=True, eq=False)
class RankCorrelation:
    """Agreement between two system rankings ``a`` (taken as truth for tau_AP) and ``b``."""

    label_a: str
    label_b: str
    ranking_a: tuple[str, ...]
    ranking_b: tuple[str, ...]
    tau: float
    p_value: float
    tau_ap: float
    tau_ap_reverse: float

    @property
    def tau_ap_symmetric(self) -> float:
        return 0.5 * (self.tau_ap + self.tau_ap_reverse)

    def to_frame(self) -> pd.DataFrame:
        """One row per run: its rank under ``a`` and under ``b`` (1 = best)."""
        rank_b = {r: k + 1 for k, r in enumerate(self.ranking_b)}
        return pd.DataFrame({"run": list(self.ranking_a),
                             f"rank_{self.label_a}": np.arange(1, len(self.ranking_a) + 1),
                             f"rank_{self.label_b}": [rank_b[r] for r in self.ranking_a]})

    def summary(self) -> pd.Series:
        return pd.Series({"a": self.label_a, "b": self.label_b, "runs": len(self.ranking_a),
                          "kendall_tau": self.tau, "p_value": self.p_value,
                          "tau_ap": self.tau_ap, "tau_ap_reverse": self.tau_ap_reverse,
                          "tau_ap_symmetric": self.tau_ap_symmetric})


def compare_rankings(means_a: pd.Series, means_b: pd.Series, label_a: str = "a",
                     label_b: str = "b", tie_break_a: pd.Series | None = None,
                     tie_break_b: pd.Series | None = None, lower_is_better_a: bool = False,
                     lower_is_better_b: bool = False) -> RankCorrelation:
    """Rank the runs by each score vector and correlate the rankings.

    Works for two topic groups, two measures or two qrels alike: pass the two
    run -> mean Series (the same runs).  Ties within a Series are broken by the
    matching ``tie_break`` Series, then by run name (as trectools does).
    """
    if set(means_a.index) != set(means_b.index):
        raise ValueError("the two score vectors must cover the same runs")
    ra = system_ranking(means_a, tie_break_a, lower_is_better_a)
    rb = system_ranking(means_b, tie_break_b, lower_is_better_b)
    tau, p = kendall_tau(ra, rb)
    return RankCorrelation(label_a, label_b, tuple(ra), tuple(rb), tau, p,
                           tau_ap(ra, rb), tau_ap(rb, ra))


def correlation_matrix(means: pd.DataFrame, method: str = "kendall",
                       tie_break: pd.Series | None = None,
                       lower_is_better: Sequence[str] = ()) -> pd.DataFrame:
    """Agreement of the rankings given by every pair of columns (robust overview Figure 3).

    Parameters
    ----------
    means : pandas.DataFrame
        Runs × measures (or × topic groups / qrels) of mean scores.
    method : {"kendall", "tau_ap", "tau_ap_symmetric"}
        For ``tau_ap`` the row label is the truth, the column the estimate.
    tie_break : pandas.Series, optional
        Run -> tie-break score for every column (e.g. MAP).
    lower_is_better : sequence of str
        Columns where lower scores are better.
    """
    funcs = {"kendall": lambda a, b: kendall_tau(a, b)[0], "tau_ap": tau_ap,
             "tau_ap_symmetric": tau_ap_symmetric}
    if method not in funcs:
        raise ValueError(f"method must be one of {sorted(funcs)}, not {method!r}")
    rankings = {c: system_ranking(means[c], tie_break, c in set(lower_is_better))
                for c in means.columns}
    labels = list(means.columns)
    out = pd.DataFrame(np.eye(len(labels)), index=labels, columns=labels)
    for a in labels:
        for b in labels:
            if a != b:
                out.loc[a, b] = funcs[method](rankings[a], rankings[b])
    return out


@dataclass(frozen=True, eq=False)
class RankingStrings:
    """Rankings written one character per run (robust overview Table 3).

    Attributes
    ----------
    symbols : dict of str to str
        Run -> character.
    rankings : dict of str to tuple of str
        Label -> run names best first.
    """

    symbols: dict[str, str]
    rankings: dict[str, tuple[str, ...]]

    def string(self, label: str) -> str:
        """The ranking as symbols, best first: one character per run, or, with more runs
        than :data:`SYMBOLS`, fixed-width codes separated by spaces."""
        width = max((len(s) for s in self.symbols.values()), default=1)
        return ("" if width == 1 else " ").join(self.symbols[r] for r in self.rankings[label])

    def to_frame(self) -> pd.DataFrame:
        """One row per label: the ranking string and Kendall's tau with the first label."""
        labels = list(self.rankings)
        ref = self.rankings[labels[0]]
        return pd.DataFrame({"label": labels, "ranking": [self.string(lb) for lb in labels],
                             "tau_vs_" + labels[0]: [kendall_tau(ref, self.rankings[lb])[0]
                                                     for lb in labels]})

    def legend(self) -> pd.DataFrame:
        """Character -> run."""
        return pd.DataFrame({"symbol": list(self.symbols.values()), "run": list(self.symbols)})


def ranking_strings(means: Mapping[str, pd.Series],
                    tie_break: Mapping[str, pd.Series] | pd.Series | None = None,
                    symbol_order: Sequence[str] | None = None,
                    lower_is_better: Sequence[str] = ()) -> RankingStrings:
    """One-character-per-run ranking strings for several labelled score vectors.

    Parameters
    ----------
    means : mapping of str to pandas.Series
        Label (e.g. ``"P_10 old"``) -> run -> mean score.
    tie_break : Series or mapping of label to Series, optional
        Tie-break scores (MAP on the same topic set in Table 3).
    symbol_order : sequence of str, optional
        Runs in the order they receive ``A, B, C, ...``; default the first ranking.
    lower_is_better : sequence of str
        Labels where lower scores are better.
    """
    rankings: dict[str, tuple[str, ...]] = {}
    for label, s in means.items():
        tb = tie_break.get(label) if isinstance(tie_break, Mapping) else tie_break
        rankings[label] = tuple(system_ranking(s, tb, label in set(lower_is_better)))
    first = next(iter(rankings.values()))
    order = list(symbol_order) if symbol_order is not None else list(first)
    return RankingStrings(dict(zip(order, symbol_codes(len(order)))), rankings)


def symbol_codes(n: int) -> list[str]:
    """``n`` distinct codes: single :data:`SYMBOLS` characters while they last (Table 3 of
    the robust overview has 78 runs), else codes of the fewest characters that suffice
    (two characters: 5,776 runs), so any number of runs gets a ranking string.

    >>> symbol_codes(3), symbol_codes(77)[-2:]
    (['A', 'B', 'C'], ['A~', 'BA'])
    """
    base = len(SYMBOLS)
    if n <= base:
        return list(SYMBOLS[:n])
    width = 1
    while base ** width < n:
        width += 1
    out = []
    for k in range(n):
        digits = []
        for _ in range(width):
            k, r = divmod(k, base)
            digits.append(SYMBOLS[r])
        out.append("".join(reversed(digits)))
    return out
