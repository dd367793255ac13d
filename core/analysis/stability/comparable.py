"""Scores that are equal as fractions compare equal, whatever the summation order.

A mean of per-topic values (P@10 = 175/300, a difference of exactly 5 %) is a
fraction with a small denominator, but its float depends on the order the
values were summed in: two runs with the same mean can differ by an ulp, and
``0.35 − 0.3325 < 0.05 · 0.35`` holds in floating point although the two sides
are equal.  Comparisons that decide an outcome (which run ranks first, whether
two runs tie within the fuzziness of Buckley & Voorhees, "Evaluating evaluation
measure stability", SIGIR 2000, §3: "less than 5 %") are made on values rounded
to :data:`DIGITS` significant digits, far above float noise (about 16 digits)
and far below any real difference between scores.
"""

from __future__ import annotations

import numpy as np

#: significant digits kept when comparing scores
DIGITS = 12


def comparable(x) -> np.ndarray:
    """``x`` rounded to :data:`DIGITS` significant digits (inf, nan and 0 unchanged)."""
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        exponent = np.floor(np.log10(np.abs(x)))
        exponent = np.where(np.isfinite(exponent), exponent, 0.0)
        scale = 10.0 ** (DIGITS - 1 - exponent)
        out = np.round(x * scale) / scale
    return np.where(np.isfinite(out), out, x)
