"""Which pool a pool analysis uses, and what it says about it: given, inferred or assumed.

One decision for the CLI, the API and the window: a pooled-runs list or a depth the
user gives wins (and the result says it was given); otherwise the pool inferred from
the judged depths (:func:`~yardstick.analysis.pool.inferred_pool.infer_pool`) is used
(said as inferred, with its evidence); where the data cannot tell, every run to depth
:data:`ASSUMED_DEPTH` is *assumed* and the result says so, with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from yardstick.analysis.assumptions import Assumptions, groups_statement
from yardstick.analysis.pool.inferred_pool import InferredPool, infer_pool
from yardstick.judging.judged_runs import JudgedRuns

__all__ = ["PoolChoice", "choose_pool", "ASSUMED_DEPTH"]

#: the depth assumed when neither the user nor the data tells one
ASSUMED_DEPTH = 100


@dataclass(frozen=True, eq=False)
class PoolChoice:
    """The index with its pooled flags set, the depth to use, and how both were decided.

    Attributes
    ----------
    index : JudgedRuns
    depth : int or {topic: depth}
    default_depth : int or None
        Depth of topics a mapping leaves out.
    pooled_source, depth_source : {"given", "inferred", "assumed"}
    inferred : InferredPool or None
    assumptions : Assumptions
    """

    index: JudgedRuns
    depth: int | Mapping[str, int]
    default_depth: int | None
    pooled_source: str
    depth_source: str
    inferred: InferredPool | None
    assumptions: Assumptions


def choose_pool(index: JudgedRuns, pooled: Sequence[bool] | None = None,
                depth: int | Mapping[str, int] | None = None, default_depth: int | None = None,
                pooled_how: str = "", depth_how: str = "", groups_source: str = "none",
                group_of: Mapping[str, str] | None = None, infer: bool = True,
                assumptions: Assumptions | None = None) -> PoolChoice:
    """Decide the pooled runs and the depth (see the module docstring).

    ``pooled`` / ``depth``: what the user gave (None: not given); ``pooled_how`` and
    ``depth_how`` say how (``--pooled runs.txt``).  ``groups_source`` is ``file NAME``,
    ``guess`` or ``none``; ``group_of`` maps run to group.  ``infer=False`` skips the
    inference (every run assumed pooled when none are given).
    """
    inferred = infer_pool(index) if infer and (pooled is None or depth is None) else None
    known = inferred is not None and inferred.known
    if pooled is not None:
        flags, p_src = np.asarray(pooled, bool), "given"
        p_text = f"given{f' ({pooled_how})' if pooled_how else ''}: {int(flags.sum())} runs"
    elif known:
        flags, p_src = inferred.pooled(), "inferred"
        c = inferred.counts()
        p_text = (f"inferred from the judged depths: {c['yes'] + c['likely']} runs "
                  f"({c['yes']} yes, {c['likely']} likely; evidence: inferred_pool_runs)")
    else:
        flags, p_src = np.ones(index.n_runs, bool), "assumed"
        why = inferred.reason if inferred is not None else "not inferred"
        p_text = (f"assumed: all {index.n_runs} runs (the data cannot tell: {why}); "
                  f"give the pooled runs to replace this")
    if depth is not None:
        d, dd, d_src = depth, default_depth, "given"
        shown = depth if isinstance(depth, int) else f"per topic ({len(depth)} topics)"
        d_text = f"given{f' ({depth_how})' if depth_how else ''}: {shown}"
    elif known:
        tell = inferred.depth > 0
        med = int(np.median(inferred.depth[tell]))
        d = {str(t): int(x) for t, x in zip(index.topics, inferred.depth) if x > 0}
        dd, d_src = med, "inferred"
        untold = int((index.in_qrels & ~tell).sum())
        d_text = (f"inferred per topic: {inferred.depth_text()}"
                  + (f"; {untold} topics cannot tell and take the median {med}" if untold
                     else ""))
    else:
        d, dd, d_src = ASSUMED_DEPTH, None, "assumed"
        d_text = f"assumed: {ASSUMED_DEPTH} (the data cannot tell; give a depth)"
    if inferred is not None and known:
        second = inferred.runs[inferred.runs["level"] == 2]
        if len(second):
            d_text += (f"; a second pool of {len(second)} runs to depth "
                       f"{int(second['depth'].median())} is shown in the evidence but "
                       f"analysed at the main depth")
    base = assumptions or Assumptions()
    a = base.updated(pooled=p_text, depth=d_text,
                     groups=groups_statement(group_of or dict(zip(
                         index.run_names, (index.group_names[g] for g in index.run_group))),
                         groups_source))
    return PoolChoice(replace(index, pooled=flags), d, dd, p_src, d_src, inferred, a)
