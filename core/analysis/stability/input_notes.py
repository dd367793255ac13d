"""Notes a stability report says about its input before any result: scores that make
results empty or trivial (:func:`input_warnings`), and notes that say the same for every
measure said once (:func:`once_for_every_measure`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from yardstick.analysis.stability.comparable import comparable

__all__ = ["input_warnings", "once_for_every_measure"]


def input_warnings(matrices: Mapping[str, pd.DataFrame], sets: Mapping[str, Sequence[str]]
                   ) -> list[str]:
    """What about the scores makes some results empty or trivial, said before any analysis.

    Runs with identical per-topic scores differ by 0 in every sample (a minimum
    difference of 0 then only says they tie); a run scoring 0 everywhere, or
    every run doing so, gives nothing to tell apart; a topic set too small for
    halves of two topics makes the disjoint-halves swap rates (Voorhees & Buckley
    2002) and the fitted minimum differences empty (NaN).
    """
    out = []
    for m, mat in matrices.items():
        values = mat.to_numpy(float)
        cols = [str(c) for c in mat.columns]
        if values.size and not np.any(values):
            out.append(f"{m}: every run scores 0 on every topic: nothing tells the runs apart "
                       "(is the relevance level or the qrels right?)")
            continue
        zero = [c for j, c in enumerate(cols) if not np.any(values[:, j])]
        if zero:
            out.append(f"{m}: {len(zero)} run(s) score 0 on every topic: "
                       f"{', '.join(zero[:10])}{' ...' if len(zero) > 10 else ''}")
        same = _identical_columns(values, cols)
        if same:
            out.append(f"{m}: runs with identical per-topic scores (their difference is 0 in "
                       "every sample, so they always tie): "
                       + "; ".join(" = ".join(g[:5]) + (" ..." if len(g) > 5 else "")
                                   for g in same[:10]))
    for g, topics in sets.items():
        if len(topics) < 4:
            out.append(f"{g}: only {len(topics)} topic(s): the swap-rate analyses compare "
                       "disjoint halves of at least 2 topics each, so their rates and minimum "
                       "differences are empty (NaN); other results rest on very few topics")
    return out


def _identical_columns(values: np.ndarray, cols: list[str]) -> list[list[str]]:
    """Groups (two or more) of runs whose per-topic scores are equal on every topic."""
    groups: dict[bytes, list[str]] = {}
    for j, c in enumerate(cols):
        groups.setdefault(comparable(values[:, j]).tobytes(), []).append(c)
    return [g for g in groups.values() if len(g) > 1]


def once_for_every_measure(notes: Sequence[str], measures: Sequence[str]) -> list[str]:
    """Notes that say the same for every measure (the measure's name aside) said once, with
    "every measure" in the place of the name, where the first of them stood; other notes
    unchanged, repeats dropped."""
    import re

    if len(measures) < 2:
        return list(dict.fromkeys(notes))

    def template(note: str, m: str) -> str | None:
        pat = rf"(?<![\w.]){re.escape(m)}(?![\w.])"
        return re.sub(pat, "\0", note) if re.search(pat, note) else None

    seen: dict[str, set[str]] = {}
    for n in notes:
        for m in measures:
            t = template(n, m)
            if t is not None:
                seen.setdefault(t, set()).add(m)
    common = {t for t, ms in seen.items() if len(ms) == len(measures)}
    out = []
    for n in notes:
        t = next((t for m in measures if (t := template(n, m)) in common), None)
        out.append(n if t is None else t.replace("\0", "every measure"))
    return list(dict.fromkeys(out))
