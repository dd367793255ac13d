"""titlestat: how much a set of documents is dominated by the topics' title words.

Buckley, Dimmick, Soboroff & Voorhees 2007 (“Bias and the limits of pooling for large collections”,
Information Retrieval 2007), §3.2: for a topic
T with title words t and a document set C,

    titlestat_T = (1 / t_T) * sum_{t in T} |C_t| / min(|C|, df_t)

where t_T is the number of title words, |C_t| the number of documents of C
containing t and df_t the number of documents of the whole collection
containing t; per-topic values are averaged over topics.  Variants:

* ``titlestat_rel``: C = the relevant documents of each topic (Table 1);
* titlestat of a run's retrieved set, and of a group's unique relevant
  documents (§4, the sab05ror1 analysis);
* ``titlestat_rank`` (§4, Figure 1): C^k = the documents retrieved at rank k by
  every run, *keeping* a document once per run that retrieved it there; plotted
  with the probability of relevance by rank and the pool depth (Figure 3);
* two judgment sets for the same topics compared topic by topic, with a paired
  t-test and the difference against the number of relevant documents (Figure 4).

Choices the paper leaves open, made here: words come from
:class:`~yardstick.analysis.pool.text.TextOptions`; a title word that occurs in no document
(df_t = 0, the formula's 0/0) is left out of its topic's average; a topic
without title words, or with an empty C, has no value (NaN) and is left out
of the mean; documents of C that the loaded collection lacks are skipped and
counted (``missing_docs``).
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from yardstick.analysis.paired_tests import paired_t_test
from yardstick.analysis.pool.text import TextOptions
from yardstick.common.progress import Progress, run_sync


@dataclass(frozen=True, eq=False)
class TitleIndex:
    """The collection reduced to what titlestat needs: which documents contain
    which title words.

    Attributes
    ----------
    options : TextOptions
    topics : numpy.ndarray of str
    terms : numpy.ndarray of str
        Every topic's distinct title words (the vocabulary).
    topic_terms : tuple of numpy.ndarray
        Per topic, indices into ``terms``.
    docnos : pandas.Index
        Collection documents (row order).
    incidence : numpy.ndarray of int64
        Sorted ``doc_row * n_terms + term`` for every (document, title word) it contains.
    df : numpy.ndarray
        Per term, documents containing it.
    """

    options: TextOptions
    topics: np.ndarray
    terms: np.ndarray
    topic_terms: tuple
    docnos: pd.Index
    incidence: np.ndarray
    df: np.ndarray

    @property
    def n_terms(self) -> int:
        return len(self.terms)

    def title_words(self, topic: str) -> list[str]:
        i = int(np.flatnonzero(self.topics == str(topic))[0])
        return [str(t) for t in self.terms[self.topic_terms[i]]]

    def rows(self, docnos: Iterable[str]) -> np.ndarray:
        """Row of each docno in the collection, -1 when the collection lacks it."""
        docnos = list(docnos)
        if not docnos:
            return np.zeros(0, np.int64)
        return self.docnos.get_indexer(np.asarray(docnos, dtype=object)).astype(np.int64)


def iter_build_title_index(documents: Mapping[str, str], topics: pd.DataFrame,
                           options: TextOptions | None = None, field: str = "title"
                           ) -> Generator[Progress, None, TitleIndex]:
    """Tokenise every document once, keeping only the topics' title words."""
    options = options or TextOptions()
    if field not in topics.columns or "topic" not in topics.columns:
        raise ValueError(f"topics need columns 'topic' and {field!r}")
    tids = topics["topic"].astype(str).to_numpy(dtype=object)
    words = [options.distinct_words(str(x) if pd.notna(x) else "") for x in topics[field]]
    vocab = {w: i for i, w in enumerate(dict.fromkeys(w for ws in words for w in ws))}
    topic_terms = tuple(np.array([vocab[w] for w in ws], np.int64) for ws in words)
    docnos = list(documents.keys())
    n = len(docnos)
    V = max(len(vocab), 1)
    keys: list[np.ndarray] = []
    step = max(1, n // 50)
    for i, d in enumerate(docnos):
        if i % step == 0:
            yield Progress(i, n, "reading documents for title words")
        found = {vocab[w] for w in options.words(documents[d]) if w in vocab}
        if found:
            keys.append(i * V + np.fromiter(found, np.int64, len(found)))
    inc = np.sort(np.concatenate(keys)) if keys else np.zeros(0, np.int64)
    df = np.bincount(inc % V, minlength=len(vocab))[:len(vocab)]
    yield Progress(n, n, "done")
    return TitleIndex(options=options, topics=tids,
                      terms=np.array(list(vocab), dtype=object), topic_terms=topic_terms,
                      docnos=pd.Index(np.asarray(docnos, dtype=object)), incidence=inc, df=df)


def build_title_index(documents: Mapping[str, str], topics: pd.DataFrame,
                      options: TextOptions | None = None, field: str = "title") -> TitleIndex:
    """See :func:`iter_build_title_index`. ``documents`` maps docno -> text;
    ``topics`` has columns ``topic`` and ``field``."""
    return run_sync(iter_build_title_index(documents, topics, options, field))


@dataclass(frozen=True, eq=False)
class TitlestatResult:
    """Per-topic titlestat of some document sets and their mean.

    Attributes
    ----------
    per_topic : pandas.DataFrame
        Index topic (and a leading ``set`` level when several sets were
        measured); columns titlestat, docs (|C|, documents found in the
        collection), title_words (t_T counted), missing_docs.
    mean : float or pandas.Series
        Mean over topics with a value (per set when several).
    """

    per_topic: pd.DataFrame
    mean: float | pd.Series

    def to_frame(self) -> pd.DataFrame:
        return self.per_topic.reset_index()


def titlestat_of_pairs(index: TitleIndex, topic: np.ndarray, doc_row: np.ndarray,
                       group: np.ndarray | None = None, n_groups: int = 1) -> pd.DataFrame:
    """titlestat per (group, topic) of documents given as (topic index, doc row) pairs.

    Pairs may repeat (multiplicity counts, as in titlestat_rank); rows < 0
    (documents not in the collection) are skipped and counted.
    """
    T = len(index.topics)
    topic = np.asarray(topic, np.int64)
    doc_row = np.asarray(doc_row, np.int64)
    group = np.zeros(len(topic), np.int64) if group is None else np.asarray(group, np.int64)
    missing = np.bincount(group[doc_row < 0] * T + topic[doc_row < 0], minlength=n_groups * T)
    ok = doc_row >= 0
    topic, doc_row, group = topic[ok], doc_row[ok], group[ok]
    cell = group * T + topic
    size = np.bincount(cell, minlength=n_groups * T).astype(np.float64)
    # expand each pair by its topic's title words
    n_terms = np.array([len(x) for x in index.topic_terms], np.int64)
    t_start = np.concatenate([[0], np.cumsum(n_terms)])
    flat_terms = np.concatenate(index.topic_terms) if T else np.zeros(0, np.int64)
    reps = n_terms[topic]
    pair = np.repeat(np.arange(len(topic)), reps)
    offs = np.arange(len(pair)) - np.repeat(np.cumsum(reps) - reps, reps)
    slot = t_start[topic[pair]] + offs  # position in flat_terms
    term = flat_terms[slot]
    V = max(index.n_terms, 1)
    key = doc_row[pair] * V + term
    pos = np.minimum(np.searchsorted(index.incidence, key), max(len(index.incidence) - 1, 0))
    has = (index.incidence[pos] == key) if len(index.incidence) else np.zeros(len(key), bool)
    c_t = np.bincount(group[pair[has]] * len(flat_terms) + slot[has],
                      minlength=n_groups * len(flat_terms)).reshape(n_groups, len(flat_terms))
    df = index.df[flat_terms].astype(np.float64) if len(flat_terms) else np.zeros(0)
    size_gt = size.reshape(n_groups, T)
    slot_topic = np.repeat(np.arange(T), n_terms)
    denom = np.minimum(size_gt[:, slot_topic], df[None, :])
    ratio = np.divide(c_t, denom, out=np.zeros(c_t.shape), where=denom > 0)
    usable = np.broadcast_to(df[None, :] > 0, ratio.shape)
    # sum the usable ratios of each topic's words: (groups x slots) @ (slots x topics)
    member = np.zeros((len(flat_terms), T))
    member[np.arange(len(flat_terms)), slot_topic] = 1.0
    num = np.where(usable, ratio, 0.0) @ member
    cnt = usable.astype(np.float64) @ member
    value = np.divide(num, cnt, out=np.full(num.shape, np.nan), where=(cnt > 0) & (size_gt > 0))
    return pd.DataFrame({
        "group": np.repeat(np.arange(n_groups), T),
        "topic": np.tile(index.topics, n_groups),
        "titlestat": value.ravel(),
        "docs": size.astype(np.int64),
        "title_words": np.tile(cnt[0] if n_groups else np.zeros(T), n_groups).astype(np.int64),
        "missing_docs": missing,
    })


def titlestat(index: TitleIndex, doc_sets: Mapping[str, Iterable[str]],
              multiplicity: bool = False) -> TitlestatResult:
    """titlestat of one document set per topic: ``{topic: docnos}``.

    Topics absent from ``doc_sets`` or from the index get no value.
    Duplicated docnos count once unless ``multiplicity``.
    """
    tpos = {t: i for i, t in enumerate(index.topics)}
    tt, dd = [], []
    for t, docs in doc_sets.items():
        if str(t) not in tpos:
            continue
        docs = list(docs) if multiplicity else list(dict.fromkeys(docs))
        tt.append(np.full(len(docs), tpos[str(t)], np.int64))
        dd.append(index.rows(docs))
    topic = np.concatenate(tt) if tt else np.zeros(0, np.int64)
    rows = np.concatenate(dd) if dd else np.zeros(0, np.int64)
    frame = titlestat_of_pairs(index, topic, rows)
    present = frame["topic"].isin([str(t) for t in doc_sets])
    frame = frame[present].drop(columns="group").set_index("topic")
    return TitlestatResult(per_topic=frame, mean=float(frame["titlestat"].mean()))


def relevant_sets(qrels_frame: pd.DataFrame, relevance_level: int = 1) -> dict[str, list[str]]:
    rel = qrels_frame[qrels_frame["rel"] >= relevance_level]
    return {str(t): g["docno"].tolist() for t, g in rel.groupby("topic", sort=False)}


def titlestat_rel(index: TitleIndex, qrels, relevance_level: int = 1) -> TitlestatResult:
    """titlestat_rel: C = each topic's relevant documents (Buckley et al. 2007, §3.2)."""
    return titlestat(index, relevant_sets(qrels.frame, relevance_level))


@dataclass(frozen=True, eq=False)
class JudgmentComparison:
    """titlestat_rel of two judgment sets on the same topics (Buckley et al. Fig. 4).

    Attributes
    ----------
    per_topic : pandas.DataFrame
        Index topic; columns a, b (titlestat_rel), diff (a - b), num_rel_a, num_rel_b.
    t_statistic, p_value : float
        Paired t-test over the topics both sets can measure
        (:func:`yardstick.analysis.paired_tests.paired_t_test`).
    a_higher : int
        Topics where a > b.
    names : tuple of str
    """

    per_topic: pd.DataFrame
    t_statistic: float
    p_value: float
    a_higher: int
    names: tuple[str, str]

    def to_frame(self) -> pd.DataFrame:
        return self.per_topic.reset_index()

    @property
    def topics(self) -> int:
        return len(self.per_topic)


def compare_judgment_sets(index_a: TitleIndex, qrels_a, qrels_b,
                          index_b: TitleIndex | None = None, relevance_level: int = 1
                          ) -> JudgmentComparison:
    """Compare titlestat_rel of two judgment sets topic by topic.

    ``index_b`` is the second collection when the judgments are on another
    document set (AQUAINT vs Disks 4&5 in the paper); default: the same.
    """
    index_b = index_a if index_b is None else index_b
    a = titlestat_rel(index_a, qrels_a, relevance_level).per_topic
    b = titlestat_rel(index_b, qrels_b, relevance_level).per_topic
    both = a.index.intersection(b.index)
    frame = pd.DataFrame({"a": a.loc[both, "titlestat"], "b": b.loc[both, "titlestat"]})
    frame = frame.dropna()
    frame["diff"] = frame["a"] - frame["b"]
    na = qrels_a.frame[qrels_a.frame["rel"] >= relevance_level].groupby("topic").size()
    nb = qrels_b.frame[qrels_b.frame["rel"] >= relevance_level].groupby("topic").size()
    frame["num_rel_a"] = na.reindex(frame.index).fillna(0).astype(int)
    frame["num_rel_b"] = nb.reindex(frame.index).fillna(0).astype(int)
    frame.index.name = "topic"
    if len(frame) >= 2:
        t = paired_t_test(frame["a"].to_numpy(float), frame["b"].to_numpy(float))
        t_stat, p = float(t.statistic), float(t.pvalue)
    else:
        t_stat, p = float("nan"), float("nan")
    return JudgmentComparison(per_topic=frame, t_statistic=t_stat, p_value=p,
                              a_higher=int((frame["diff"] > 0).sum()),
                              names=(getattr(qrels_a, "name", "a"), getattr(qrels_b, "name", "b")))
