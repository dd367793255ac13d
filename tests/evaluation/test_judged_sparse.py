"""The judged ranking's sparse views equal its dense per-rank definitions.

Measures read only the ranked documents found in the qrels
(:attr:`JudgedRanking.qrels_docs`, :attr:`~JudgedRanking.relevant`), which are
a few percent of a deep run.  The dense arrays (one entry per ranked document:
``cum_rel``, ``nonrel_before``, ``unjudged_before``, ``cumcount``) are the plain
statement of trec_eval's loops (``m_map.c``, ``m_bpref.c``, ``m_infap.c``);
the sparse views must give the same numbers, on every adversarial case and
under ``-l``, ``-J``, ``-M`` and ``-c``.  The dense definitions live here,
as the reference; the engine no longer computes them.
"""

from __future__ import annotations

import numpy as np
import pytest
from adversarial import all_cases

from yardstick.common.options import EvalOptions
from yardstick.evaluation.measures.gain import DcgParts, gain_vector, scored_docs
from yardstick.inputs.io import read_qrels, read_run
from yardstick.judging.judged import NONPOOL, build_judged_ranking


def cumcount(jr, mask):
    """Inclusive running count of ``mask`` within each topic, one entry per rank."""
    c = np.cumsum(mask, dtype=np.int64)
    base = np.concatenate([np.zeros(1, np.int64), c])[jr.start[:-1]]
    return c - np.repeat(base, jr.num_ret)


def count_in_top(jr, mask, k):
    """Documents satisfying ``mask`` among the first ``k`` of each topic (k: (T, C))."""
    cum = cumcount(jr, mask)
    kk = np.minimum(k, jr.num_ret[:, None])
    idx = jr.start[:-1, None] + kk - 1
    return np.where(kk > 0, cum[np.clip(idx, 0, max(len(cum) - 1, 0))] if len(cum) else 0, 0)


OPTIONS = [EvalOptions(), EvalOptions(relevance_level=2), EvalOptions(judged_only=True),
           EvalOptions(max_docs=7), EvalOptions(complete=True)]


@pytest.fixture(scope="module", params=all_cases(), ids=lambda c: c.name)
def case(request, tmp_path_factory):
    c = request.param
    d = tmp_path_factory.mktemp(c.name)
    (d / "q").write_text(c.qrels_text)
    (d / "r").write_text(c.run_text)
    return read_run(d / "r"), read_qrels(d / "q")


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: repr(o)[11:60])
def test_sparse_views_equal_dense_definitions(case, options):
    jr = build_judged_ranking(*case, options)
    q = jr.qrels_docs
    assert (q.idx == np.flatnonzero(jr.rel != NONPOOL)).all()
    assert (q.tix == jr.tix[q.idx]).all() and (q.pos == jr.pos[q.idx]).all()
    r = jr.relevant
    is_rel = jr.is_rel
    is_nonrel = (jr.rel >= 0) & ~is_rel
    unjudged = jr.rel == -2
    assert (r.idx == np.flatnonzero(is_rel)).all()
    assert (r.cum == cumcount(jr, is_rel)[is_rel]).all()
    assert (r.nonrel_before == (cumcount(jr, is_nonrel) - is_nonrel)[is_rel]).all()
    assert (r.unjudged_before == (cumcount(jr, unjudged) - unjudged)[is_rel]).all()
    assert (jr.num_rel_ret == jr.count(jr.is_rel)).all()
    assert (jr.num_nonpool == jr.count(jr.rel == NONPOOL)).all()
    k = np.tile(np.array([0, 1, 3, 10, 1000, 5000]), (jr.num_topics, 1))
    assert (jr.rel_in_top(k) == count_in_top(jr, is_rel, k)).all()
    assert (jr.judged_in_top(k) == count_in_top(jr, jr.rel >= 0, k)).all()


@pytest.mark.parametrize("pairs", [(), (("1", "3"), ("2", "9")), (("-1", "0.5"),),
                                   (("0", "-1"), ("-2", "2"))])
def test_gain_docs_sparse_or_dense_give_the_same_dcg(case, pairs):
    """A gain for level -1 (not in the qrels) needs every ranked document; otherwise
    the documents in the qrels carry every non-zero gain."""
    jr = build_judged_ranking(*case, EvalOptions())
    d, g, _ = scored_docs(jr, pairs)
    dense_gain = np.zeros(len(jr.rel))
    dense_gain[d.idx] = g
    vec, lo, _ = gain_vector(jr, pairs)
    expected = vec[jr.rel - lo]                  # the gain of every ranked document
    assert (dense_gain == expected).all()
    parts = DcgParts(jr, pairs)
    nz = np.flatnonzero(expected != 0)
    assert (parts.t == jr.tix[nz]).all() and (parts.g == expected[nz]).all()
