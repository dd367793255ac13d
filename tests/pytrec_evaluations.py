"""Evaluations made with pytrec_eval (trec_eval's own C code), for testing charts and
reports independently of Yardstick's engine."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytrec_eval

from yardstick.evaluation.evaluation_service import Evaluation
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
from tests.shared_data import REAL_ROBUST03, robust03_dir  # noqa: E402,F401

ROBUST03 = robust03_dir()   # the real runs, or the generated track with their layout
REPORT_MEASURES = {"map", "iprec_at_recall", "P", "Rprec", "num_ret", "num_rel",
                   "num_rel_ret", "recip_rank"}


def run_to_dict(run: Run) -> dict[str, dict[str, float]]:
    order = np.argsort(run.topic_code, kind="stable")
    codes = run.topic_code[order]
    docs = np.asarray(run.docnos, dtype=object)[run.doc_code[order]].tolist()
    scores = run.score[order].tolist()
    cuts = np.flatnonzero(np.diff(codes)) + 1
    bounds = zip(np.concatenate([[0], cuts]).tolist(),
                 np.concatenate([cuts, [len(codes)]]).tolist())
    return {str(run.topics[codes[a]]): dict(zip(docs[a:b], scores[a:b])) for a, b in bounds}


def pytrec_evaluation(run: Run, qrels: Qrels, measures=REPORT_MEASURES,
                      evaluator=None) -> Evaluation:
    ev = evaluator or pytrec_eval.RelevanceEvaluator(qrels.to_dict(), set(measures))
    res = ev.evaluate(run_to_dict(run))
    per_topic = pd.DataFrame.from_dict(res, orient="index").sort_index()
    per_topic.index = per_topic.index.astype(str)
    per_topic.index.name = "topic"
    summary = per_topic.mean()
    for c in per_topic.columns:
        if c.startswith("num_"):
            summary[c] = per_topic[c].sum()
    return Evaluation(run.name, run.tag, per_topic, summary)


def pytrec_evaluations(runs, qrels, measures=REPORT_MEASURES, **options) -> dict[str, Evaluation]:
    """``options``: pytrec_eval's (``relevance_level=2`` is trec_eval's ``-l 2``)."""
    ev = pytrec_eval.RelevanceEvaluator(qrels.to_dict(), set(measures), **options)
    return {r.name: pytrec_evaluation(r, qrels, measures, ev) for r in runs}


def evaluation_from_scores(name: str, per_topic: dict[str, dict[str, float]]) -> Evaluation:
    """A hand-made Evaluation: {measure: {topic: value}}."""
    pt = pd.DataFrame(per_topic).astype(float)
    pt.index = pt.index.astype(str)
    pt.index.name = "topic"
    return Evaluation(name, name, pt, pt.mean())
