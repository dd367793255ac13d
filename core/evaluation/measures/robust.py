"""The TREC 2003 robust-track measures (Voorhees, *Overview of the TREC 2003 Robust
Retrieval Track*, Voorhees 2003, §2):

* ``no_rel_10`` — per topic 1 if no relevant document is in the top 10; its mean
  is the fraction of topics with no relevant in the top 10 (the track's "%no").
* ``map_worst`` — MAP(X): the mean AP over the run's X worst topics
  (default X = N/4, the worst quarter).
* ``area`` — the area underneath the MAP(X) vs X curve for X = 1 .. N/4
  (12 for 50 topics, 25 for 100), taken as the mean of MAP(X) over those X
  (unit spacing, normalised by the range), which puts it on the scale the
  overview reports (a best area of 0.043 over random 50-topic sets).
"""

from __future__ import annotations

import numpy as np

from yardstick.evaluation.measures.average_precision import average_precision
from yardstick.evaluation.measures.definition import DOUBLE, P_DOUBLE, measure

OVERVIEW = "Voorhees, 'Overview of the TREC 2003 Robust Retrieval Track', TREC 2003, §2"


def map_at_worst(ap: np.ndarray, x: int) -> float:
    """MAP(X): mean AP of the X lowest-scoring topics."""
    ap = np.sort(np.asarray(ap, dtype=float))
    x = int(min(max(x, 0), len(ap)))
    return float(ap[:x].mean()) if x else 0.0


def map_worst_curve(ap: np.ndarray, x_max: int | None = None) -> np.ndarray:
    """MAP(X) for X = 1 .. x_max (default N/4): the robust overview's Figure 4."""
    ap = np.sort(np.asarray(ap, dtype=float))
    n = len(ap)
    x_max = n // 4 if x_max is None else min(int(x_max), n)
    return np.cumsum(ap)[:x_max] / np.arange(1, x_max + 1)


def area_under_map_worst(ap: np.ndarray, x_max: int | None = None) -> float:
    curve = map_worst_curve(ap, x_max)
    return float(curve.mean()) if len(curve) else 0.0


@measure("no_rel_10", DOUBLE, "1 if no relevant document is in the top 10, else 0; the mean "
         "is the robust track's %no (fraction of topics).", cite=OVERVIEW, trec_eval=False,
         range="{0, 1}")
def no_relevant_in_top10(jr, params):
    return (jr.rel_in_top(np.full(jr.num_topics, 10)) == 0).astype(float)


@measure("map_worst", P_DOUBLE, "MAP(X): mean AP over the run's X worst topics "
         "(default X = N/4; map_worst.10 for X = 10).", cite=OVERVIEW, trec_eval=False,
         per_topic=False, aggregate=lambda ap, p: map_at_worst(
             ap, int(p[0]) if p else len(ap) // 4))
def map_worst(jr, params):
    return average_precision(jr, ())


@measure("area", P_DOUBLE, "Area under the MAP(X) vs X curve for X = 1..N/4 (mean of "
         "MAP(X)); emphasises the worst topics.", cite=OVERVIEW, trec_eval=False,
         per_topic=False, aggregate=lambda ap, p: area_under_map_worst(
             ap, int(p[0]) if p else None))
def area(jr, params):
    return average_precision(jr, ())
