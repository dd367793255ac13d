"""Direct, loop-by-loop rank correlations for checking the vectorised ones (a helper).

``tau_ap_direct`` follows the definition of Yilmaz, Aslam & Robertson, "A new rank
correlation coefficient for information retrieval", SIGIR 2008, §3 (eq. 2): with
the estimated ranking's items at ranks 1..N, C(i) is the number of items above
rank i that the true ranking also puts above the item at rank i, and
tau_AP = 2/(N-1) * sum_{i=2..N} C(i)/(i-1) - 1.  Kendall's tau comes from
:func:`scipy.stats.kendalltau`.
"""

from __future__ import annotations

from collections.abc import Mapping


def ranking(scores: Mapping[str, float]) -> list[str]:
    """Run names best first (scores must not tie)."""
    return sorted(scores, key=lambda r: -scores[r])


def tau_ap_direct(truth: list[str], estimate: list[str]) -> float:
    """tau_AP of ``estimate`` against ``truth`` (both best first), from the definition."""
    true_pos = {r: i for i, r in enumerate(truth)}
    n = len(estimate)
    total = 0.0
    for i in range(1, n):                      # 0-based rank i is the paper's rank i + 1
        item = estimate[i]
        correct = sum(1 for above in estimate[:i] if true_pos[above] < true_pos[item])
        total += correct / i
    return 2.0 / (n - 1) * total - 1.0
