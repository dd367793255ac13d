"""The runs the run maker makes: one :class:`RunSpec` per run, grouped like TREC sites.

TREC runs differ in their ranking function and its parameters, their text
processing, how much of the topic they use, whether they expand the query,
whether they fuse systems, and -- rarely, but decisively for pool bias --
whether they use relevance information (Buckley et al. 2007, “Bias and the limits of pooling for
large collections”, Information Retrieval 2007,
section 3.2, the routing run sab05ror1).  :data:`DEFAULT_SPECS` covers each of
these with 17 runs from five "groups" (as TREC groups submit several runs
each, so a group's runs resemble each other more than other groups' runs).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class RunSpec:
    """A run's recipe.

    Attributes
    ----------
    tag, group, description : str
        The run tag (also its file name), its group, and a line saying what it does.
    stemmer, stopwords : str
        See :class:`yardstick.inputs.runmaker.analysis.Analyzer`.
    method, k1, b, delta : str, float, float, float
        BM25 variant as bm25s names it (``lucene``, ``robertson``, ``atire``,
        ``bm25l``, ``bm25+``) and its parameters.
    query : str
        ``"full"`` (title and description), ``"title"``, or ``"short<N>"``: the
        first N content words of the title, a title-like query made from a
        request sentence (see :func:`yardstick.inputs.runmaker.analysis.content_words`).
    feedback : str
        ``""`` or ``"rm3"`` (with ``fb_docs``, ``fb_terms``, ``fb_weight``).
    fuse : tuple of str
        Tags of earlier runs to fuse with ``fusion`` (``"rrf"`` or ``"combsum"``).
    routing : bool
        Build queries from relevant documents of the other half of the
        collection (needs qrels; see :func:`yardstick.inputs.runmaker.feedback.routing_queries`)
        from ``routing_terms`` terms, the topic's own words weighing
        ``routing_weight``.  On Cranfield, weight 0.2 puts fewer topic words in
        the top 20 documents than any other full-query run (0.37 of them against
        about 0.40), as sab05ror1's retrieved set had fewer title words than the
        other AQUAINT runs (0.388 against 0.600; Buckley et al. 2007, section 4).
    """

    tag: str
    group: str
    description: str
    stemmer: str = "porter2"
    stopwords: str = "lucene"
    method: str = "lucene"
    k1: float = 1.2
    b: float = 0.75
    delta: float = 0.5
    query: str = "full"
    feedback: str = ""
    fb_docs: int = 10
    fb_terms: int = 20
    fb_weight: float = 0.5
    fuse: tuple[str, ...] = ()
    fusion: str = "rrf"
    routing: bool = False
    routing_terms: int = 250
    routing_weight: float = 0.2

    def to_dict(self) -> dict:
        d = asdict(self)
        d["fuse"] = ",".join(self.fuse)
        return d


DEFAULT_SPECS: tuple[RunSpec, ...] = (
    # --- okapi: one pipeline, different BM25 variants and parameters
    RunSpec("okBM25", "okapi", "BM25 (Lucene), k1=1.2 b=0.75, Porter2, Lucene stop words"),
    RunSpec("okBM25a", "okapi", "BM25 (Lucene), k1=0.9 b=0.4 (Anserini's defaults)", k1=0.9, b=0.4),
    RunSpec("okBM25L", "okapi", "BM25L (Lv and Zhai 2011), delta=0.5", method="bm25l"),
    RunSpec("okBM25P", "okapi", "BM25+ (Lv and Zhai 2011), delta=1.0", method="bm25+", delta=1.0),
    RunSpec("okRobert", "okapi", "Robertson's original BM25 idf, k1=2.0 b=0.75",
            method="robertson", k1=2.0),
    RunSpec("okCombo", "okapi", "CombSUM of okBM25a and okRobert (min-max normalised)",
            fuse=("okBM25a", "okRobert"), fusion="combsum"),
    # --- lexical: same BM25, different text processing
    RunSpec("lxNoStem", "lexical", "BM25, no stemming, Lucene stop words", stemmer="none"),
    RunSpec("lxNoStop", "lexical", "BM25, Porter2, no stop words", stopwords="none"),
    RunSpec("lxPorter", "lexical", "BM25, Porter (1980) stemmer, long stop list",
            stemmer="porter", stopwords="long"),
    RunSpec("lxSStem", "lexical", "BM25, S-stemmer (Harman 1991), long stop list",
            stemmer="s", stopwords="long"),
    # --- short: title-like queries cut from the request
    RunSpec("shT3", "short", "BM25 on the first 3 content words of the query", query="short3"),
    RunSpec("shT5", "short", "BM25 on the first 5 content words of the query", query="short5"),
    RunSpec("shT8", "short", "BM25L on the first 8 content words of the query", query="short8",
            method="bm25l"),
    # --- feedback: pseudo-relevance feedback and fusion
    RunSpec("fbRM3", "feedback", "BM25 + RM3 (10 docs, 20 terms, weight 0.5)", feedback="rm3"),
    RunSpec("fbRM3sh", "feedback", "BM25 + RM3 on 5-word queries", feedback="rm3",
            query="short5"),
    RunSpec("fbRRF", "feedback", "reciprocal rank fusion (k=60) of fbRM3 and fbRM3sh",
            fuse=("fbRM3", "fbRM3sh"), fusion="rrf"),
    # --- routing: queries from relevant documents (like sab05ror1)
    RunSpec("rtRoute", "routing", "routing: 0.2 x topic + 0.8 x 250 terms of the relevant "
            "documents of the other half of the collection", routing=True),
)
