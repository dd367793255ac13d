"""Evaluate runs against qrels exactly as trec_eval does (public API).

>>> ev = evaluate_run(run, qrels, ["map", "P.5,10", "ndcg_cut.10"])
>>> ev.summary["map"], ev.per_topic.loc["301", "P_10"]

The per-(run, qrels) work — ordering the run trec_eval's way and looking up
every retrieved document's judgment — happens once in
:func:`yardstick.judging.judged.build_judged_ranking`; each measure is then a small
vectorised function of that :class:`~yardstick.judging.judged.JudgedRanking`
(``core/evaluation/measures/``), found by name in :mod:`yardstick.evaluation.measures.registry`.

Many runs are evaluated by the session's
:func:`yardstick.session.evaluating.evaluate_runs` (one function for every front end).
"""

from __future__ import annotations

from yardstick.common.options import EvalOptions
from yardstick.evaluation.engine import evaluate_run
from yardstick.evaluation.results import Evaluation, score_matrix

__all__ = ["EvalOptions", "Evaluation", "evaluate_run", "score_matrix"]
