"""Counting measures: num_ret, num_rel, num_rel_ret, num_nonrel_judged_ret, num_q, runid.

trec_eval ``m_num_ret.c``, ``m_num_rel.c``, ``m_num_rel_ret.c``,
``m_num_nonrel_judged_ret.c``, ``m_num_q.c``, ``m_runid.c``.  Summaries are
sums over topics, not means.
"""

from __future__ import annotations

import numpy as np

from yardstick.evaluation.measures.definition import LONG, NUM_Q, RUNID, measure

CITE = "trec_eval 10.0 (NIST), m_num_*.c"


@measure("runid", RUNID, "Run tag of the run file's last line.", average="none",
         per_topic=False, rel_format="any", cite="trec_eval m_runid.c", range="text")
def runid(jr, params):
    return np.zeros(jr.num_topics)


@measure("num_q", NUM_Q, "Number of topics averaged over (with -c: every qrels topic).",
         average="count", per_topic=False, cite=CITE, range="count", rel_format="any")
def num_q(jr, params):
    return np.ones(jr.num_topics)


@measure("num_ret", LONG, "Number of documents retrieved for the topic (after -M and -J).",
         average="sum", cite=CITE, range="count", aliases={"ir_measures": "NumRet"})
def num_ret(jr, params):
    return jr.num_ret.astype(float)


@measure("num_rel", LONG, "Number of relevant documents for the topic (rel >= -l level).",
         average="sum", cite=CITE, range="count", aliases={"ir_measures": "NumRel"})
def num_rel(jr, params):
    return jr.num_rel.astype(float)


@measure("num_rel_ret", LONG, "Number of relevant documents retrieved.", average="sum",
         cite=CITE, range="count", aliases={"ir_measures": "NumRelRet"})
def num_rel_ret(jr, params):
    return jr.num_rel_ret.astype(float)


@measure("num_nonrel_judged_ret", LONG,
         "Number of retrieved documents judged non-relevant.", average="sum", cite=CITE,
         range="count")
def num_nonrel_judged_ret(jr, params):
    return (jr.num_ret - jr.num_nonpool - jr.num_unjudged - jr.num_rel_ret).astype(float)
