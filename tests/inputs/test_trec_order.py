"""trec_order against trec_eval's comparator, on random runs of every shape.

``form_res_rels.c`` sorts a topic's documents with ``comp_sim_docno``: score
descending, ties by ``strcmp`` on the docno, larger first (trec_eval 9.0.8
compares scores as C ``float``).  The reference here is that comparator written
with Python's ``sorted``; :func:`yardstick.inputs.ranking.trec_order` takes shortcuts (topic
blocks already sorted by score are only put in order; tie groups sorted by one
packed key), and every shortcut must give the same order.
"""

from __future__ import annotations

import numpy as np
import pytest

from yardstick.inputs.ranking import trec_order


def _comparator_order(tc, score, docs, compat):
    if compat == 9:
        with np.errstate(over="ignore"):
            score = score.astype(np.float32).astype(np.float64)
    # docno descending in strcmp order: negate the bytes, a shorter prefix sorts after
    return sorted(range(len(score)),
                  key=lambda i: (int(tc[i]), -float(score[i]), [-b for b in docs[i]] + [1]))


@pytest.mark.parametrize("compat", [10, 9])
@pytest.mark.parametrize("shape", ["sorted blocks in order", "sorted blocks shuffled",
                                   "unsorted", "topics interleaved", "unsorted, ulp apart"])
def test_trec_order_is_trec_evals_comparator(shape, compat):
    rng = np.random.default_rng(abs(hash((shape, compat))) % 2**32)
    for _ in range(300):
        n, topics = int(rng.integers(1, 60)), int(rng.integers(1, 6))
        tc = rng.integers(0, topics, n).astype(np.int32)
        scale = rng.choice([1.0, 1e-9, 1e40])   # 1e-9: float ties; 1e40: inf as float
        score = rng.integers(0, 5, n).astype(np.float64) * scale + rng.choice([0, 1e-12])
        if shape.endswith("ulp apart"):
            # scores one or two ulps apart, signs mixed and -0.0: the packed sort keeps
            # only a score's high bits, and must still order these exactly
            score = np.nextafter(score * rng.choice([-1.0, 1.0], n),
                                 np.inf * rng.choice([-1, 1], n)) * rng.integers(0, 2, n)
            score[rng.random(n) < 0.2] = -0.0
        if shape.startswith("sorted"):
            tc = np.sort(tc)
            if shape.endswith("shuffled"):
                tc = rng.permutation(topics)[tc].astype(np.int32)
            for t in np.unique(tc):
                m = np.flatnonzero(tc == t)
                score[m] = np.sort(score[m])[::-1]
        docs = [bytes(rng.choice(list(b"abcz"), int(rng.integers(1, 12)))) + str(i).encode()
                for i in range(n)]
        expected = _comparator_order(tc, score, docs, compat)
        assert trec_order(tc, score, np.array(docs), compat).tolist() == expected
        codes = np.argsort(np.argsort(np.array(docs), kind="stable"))  # byte-ordered codes
        assert trec_order(tc, score, codes, compat).tolist() == expected


def _long_topics(rng, topics, sizes, interleaved: bool):
    """A run of a few topics of hundreds of lines each (topic codes, scores, docnos):
    ties, scores one ulp apart, both signs and -0.0; its lines shuffled within each
    topic's block, or entirely (``interleaved``)."""
    sizes = rng.integers(*sizes, int(rng.integers(*topics)))
    tc = np.repeat(rng.permutation(len(sizes)), sizes).astype(np.int32)
    n = len(tc)
    score = rng.integers(0, 40, n).astype(np.float64) * rng.choice([1.0, 1e-9])
    score = np.nextafter(score * rng.choice([-1.0, 1.0], n), np.inf * rng.choice([-1, 1], n))
    score[rng.random(n) < 0.05] = -0.0
    p = rng.permutation(n) if interleaved else np.concatenate(
        [a + rng.permutation(k) for a, k in zip(np.cumsum(sizes) - sizes, sizes)])
    docs = [bytes(rng.choice(list(b"abcz"), int(rng.integers(1, 12)))) + str(i).encode()
            for i in range(n)]
    return tc[p], score[p], docs


def _on_threads(monkeypatch, chunk_keys: int | None = None) -> None:
    """Split every job over 3 threads as a large run's would be (yardstick.common.threads), in
    chunks of ``chunk_keys`` keys for the block sorts."""
    import yardstick.common.threads as threads
    import yardstick.inputs.topic_blocks as topic_blocks

    monkeypatch.setattr(threads, "PARALLEL_LINES", 1)
    monkeypatch.setattr(threads, "cores", lambda: 3)
    if chunk_keys:
        monkeypatch.setattr(topic_blocks, "_CHUNK", chunk_keys)


@pytest.mark.parametrize("threads", [1, 3])
@pytest.mark.parametrize("compat", [10, 9])
@pytest.mark.parametrize("shape", ["blocks shuffled inside", "topics interleaved",
                                   "topics interleaved, grouped by a 64-bit sort"])
def test_long_topics_sorted_one_by_one_keep_the_comparators_order(shape, compat, threads,
                                                                  monkeypatch):
    """Topics of hundreds of lines take the per-topic sorts (topic_blocks.sort_in_blocks:
    each topic block sorted on its own, or the lines grouped by topic first, by a radix
    sort of 16-bit codes or, past 65,536 topics, a sort of packed 64-bit keys); ties,
    scores one ulp apart, signs and -0.0 must still come out in the comparator's order,
    also with the chunks of blocks and the tie groups spread over threads."""
    import yardstick.inputs.ranking as ranking

    if threads > 1:
        _on_threads(monkeypatch, chunk_keys=900)
    if shape.endswith("64-bit sort"):
        monkeypatch.setattr(ranking, "_RADIX_TOPICS", 0)
    rng = np.random.default_rng(1900 + compat + len(shape))
    for _ in range(4):
        tc, score, docs = _long_topics(rng, (2, 6), (300, 700),
                                       shape.startswith("topics interleaved"))
        expected = _comparator_order(tc, score, docs, compat)
        assert trec_order(tc, score, np.array(docs), compat).tolist() == expected


def test_join_index_sorted_topic_by_topic_equals_one_sort():
    """Run.key_sorted sorts each topic block of a run on its own
    (topic_blocks.sort_by_topic_blocks):
    the same array as one sort, whatever order the topic blocks come in."""
    from yardstick.inputs.topic_blocks import sort_by_topic_blocks

    rng = np.random.default_rng(7)
    sizes = rng.integers(256, 900, 9)
    tc = np.repeat(rng.permutation(9), sizes).astype(np.int32)
    keys = (tc.astype(np.uint64) << np.uint64(60)) | rng.integers(0, 2**60, len(tc),
                                                                  dtype=np.uint64)
    got = keys.copy()
    sort_by_topic_blocks(got, tc, topic_major=True)
    assert (got == np.sort(keys)).all()
    interleaved = rng.permutation(len(tc))
    got = keys[interleaved].copy()
    sort_by_topic_blocks(got, tc[interleaved], topic_major=True)
    assert (got == np.sort(keys)).all()


@pytest.mark.parametrize("compat", [10, 9])
@pytest.mark.parametrize("how", ["padded rows", "blocks one by one", "grouping given"])
def test_blocks_of_unequal_length_keep_the_comparators_order(how, compat, monkeypatch):
    """topic_blocks.sort_in_blocks writes a chunk's topics as the rows of a padded matrix
    (blocks of unequal length padded with keys that sort last), or sorts them one by one
    where padding would more than double the chunk; an interleaved run may hand over the
    grouping its join index made already (Run.lines_by_topic: the line in the low bits
    of sorted 64-bit keys).  Each way must give the comparator's order."""
    import yardstick.inputs.topic_blocks as topic_blocks
    from yardstick.inputs.run import Run

    if how == "blocks one by one":
        monkeypatch.setattr(topic_blocks, "_MAX_PADDING", 0)
    monkeypatch.setattr(topic_blocks, "_CHUNK", 1500)  # several chunks, some blocks alone
    rng = np.random.default_rng(2600 + compat + len(how))
    for _ in range(3):
        tc, score, docs = _long_topics(rng, (3, 8), (256, 1300), how == "grouping given")
        expected = _comparator_order(tc, score, docs, compat)
        grouped = None
        if how == "grouping given":
            run = Run.from_arrays([str(t) for t in tc], [d.decode() for d in docs], score,
                                  name="r")
            assert run.first_duplicate() is None      # (builds the join index)
            tc = run.topic_code                       # (codes in byte order of the names)
            expected = _comparator_order(tc, score, docs, compat)
            grouped = run.lines_by_topic
            assert grouped() is not None
        assert trec_order(tc, score, np.array(docs), compat, grouped=grouped).tolist() == \
            expected


@pytest.mark.parametrize("threads", [1, 3])
@pytest.mark.parametrize("shape", ["sorted blocks shuffled", "unsorted", "topics interleaved"])
def test_tie_groups_longer_than_a_slice(shape, threads, monkeypatch):
    """Tie groups are sorted a slice of positions at a time (ranking._group_slices), a
    slice never cutting a group: with slices of 5 positions, groups of up to hundreds of
    tied lines (a run of constant scores) must still come out in the comparator's order,
    also with the slices sorted on three threads at once."""
    import yardstick.inputs.ranking as ranking

    monkeypatch.setattr(ranking, "_TIE_SLICE", 5)
    if threads > 1:
        _on_threads(monkeypatch)
    rng = np.random.default_rng(2611 + len(shape))
    for _ in range(20):
        topics = int(rng.integers(1, 5))
        sizes = rng.integers(1, 400, topics)
        tc = np.repeat(rng.permutation(topics), sizes).astype(np.int32)
        n = len(tc)
        score = rng.choice([1.0, 2.0, 0.5], n, p=[0.8, 0.1, 0.1])  # long runs of ties
        if shape == "sorted blocks shuffled":     # each topic in score order, blocks shuffled
            o = np.lexsort((-score, tc))
            tc, score = tc[o], score[o]
        else:
            p = rng.permutation(n) if shape == "topics interleaved" else np.concatenate(
                [a + rng.permutation(k) for a, k in zip(np.cumsum(sizes) - sizes, sizes)])
            tc, score = tc[p], score[p]
        docs = [bytes(rng.choice(list(b"abz"), int(rng.integers(1, 12)))) + str(i).encode()
                for i in range(n)]
        assert trec_order(tc, score, np.array(docs)).tolist() == \
            _comparator_order(tc, score, docs, 10)


@pytest.mark.parametrize("slice_lines", [7, 1 << 16])
def test_grouping_a_slice_at_a_time_is_the_stable_sort_by_topic(slice_lines, monkeypatch):
    """topic_blocks.group_in_slices radix-sorts the topic codes a slice of lines at a
    time and places each slice after the earlier ones in its topics' ranges: the lines
    must come out as numpy's stable argsort of the codes puts them."""
    import yardstick.inputs.topic_blocks as topic_blocks

    monkeypatch.setattr(topic_blocks, "_GROUP_SLICE", slice_lines)
    rng = np.random.default_rng(77)
    tc = rng.integers(0, 300, 5000).astype(np.int32)
    tc[rng.random(5000) < 0.3] = 7                   # one topic far more common
    np.testing.assert_array_equal(topic_blocks.group_in_slices(tc, np.int64),
                                  np.argsort(tc, kind="stable"))
