"""Bootstrap swap rates (Sakai 2006), side by side with Voorhees–Buckley.

Sakai, "Evaluating evaluation metrics based on the bootstrap", SIGIR 2006, as
presented in Soboroff's "Measuring the measure" (TREC slides,
"Bootstrap method" and "Bootstrap delta, MAP, TREC 8"): instead of two
*disjoint* subsets of at most ``N/2`` topics, each draw is a pair of
independent bootstrap samples — ``n`` topics drawn **with replacement** — so
sizes go up to ``N`` directly and the minimum difference at ``N`` is read from
the rates observed at ``n = N``, with no extrapolation.  Binning, swap rule,
fits ("A1, A2, ResErr, 5%int" per bin) are those of :mod:`yardstick.analysis.stability.swap_rates`.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence

import numpy as np
import pandas as pd

from yardstick.analysis.stability.aggregates import Aggregate, aggregate_for
from yardstick.analysis.stability.resampling import as_score_array, bootstrap_indices, default_sizes
from yardstick.analysis.stability.swap_rates import SwapRateResult, analyse_swap_counts, count_swaps
from yardstick.common.progress import Progress
from yardstick.common.seeds import resolve_seed

__all__ = ["bootstrap_swap_rates", "compare_swap_methods"]


def bootstrap_swap_rates(scores: pd.DataFrame, sizes: Sequence[int] | None = None,
                         samples: int = 1000, bin_width: float = 0.01, seed: int | None = None,
                         confidence: float = 0.95, measure: str = "", min_count: int = 20,
                         aggregate: Aggregate | None = None,
                         ) -> Generator[Progress, None, SwapRateResult]:
    """Swap rates from pairs of bootstrap topic samples (progress generator).

    Parameters are those of :func:`yardstick.analysis.stability.swap_rates.swap_rates`,
    except that ``sizes`` defaults to every size ``1 .. N``.  When ``N`` is among
    the sizes, ``min_difference`` is the lower edge of the first bin whose
    *observed* swap rate at ``n = N`` is at most ``1 − confidence``; otherwise
    it is taken from the fits, as for the disjoint method.
    """
    sa = as_score_array(scores)
    n_topics = sa.n_topics
    sizes = default_sizes(n_topics) if sizes is None else sorted({int(s) for s in sizes})
    if not sizes:
        raise ValueError("no topic-set sizes to sample")
    agg = aggregate or aggregate_for(measure)
    seed = resolve_seed(seed)  # None: a fresh seed, recorded in the result
    rng = np.random.default_rng(seed)
    counts = []
    for k, n in enumerate(sizes):
        yield Progress(k, len(sizes), f"bootstrap swap rates: {n} topics")
        idx_a = bootstrap_indices(rng, n_topics, n, samples)
        idx_b = bootstrap_indices(rng, n_topics, n, samples)
        counts.append(count_swaps(sa.values, idx_a, idx_b, bin_width, agg))
    yield Progress(len(sizes), len(sizes), "fitting")
    top = float(agg.full(sa.values).max())
    return analyse_swap_counts("bootstrap", measure, sizes, bin_width, counts, n_topics,
                               sa.n_runs, samples, seed, 1.0 - confidence, top, min_count)


def compare_swap_methods(*results: SwapRateResult) -> pd.DataFrame:
    """Summaries of several swap analyses side by side (one column each).

    Columns are labelled ``"<measure> <method>"``; rows are those of
    :meth:`SwapRateResult.summary` (minimum difference, top score, % of top ...).
    """
    cols = {}
    for r in results:
        label = f"{r.measure} {r.method}".strip()
        cols[label] = r.summary()
    return pd.DataFrame(cols)
