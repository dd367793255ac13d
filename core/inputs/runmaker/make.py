"""Make a set of runs for a collection: :func:`make_runs` (a progress generator).

Each :class:`~yardstick.inputs.runmaker.recipes.RunSpec` becomes a
:class:`~yardstick.inputs.run.Run`
over every topic, holding the top ``depth`` *matching* documents (those with a
query term; ``depth`` is cut to the collection size), scores rounded to 4
decimals so that the run in memory and the run written to a file are the same
run, ranked in trec_eval's order.  Everything is deterministic: no randomness
except the routing run's document halves, drawn from ``seed``.
"""

from __future__ import annotations

import os
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp

from yardstick.common.progress import Progress
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run
from yardstick.inputs.runmaker.analysis import Analyzer, content_words, require_runs_extra, tokenize
from yardstick.inputs.runmaker.feedback import document_halves, rm3, routing_queries
from yardstick.inputs.runmaker.fusion import FUSERS
from yardstick.inputs.runmaker.index import BM25Index, TermIndex
from yardstick.inputs.runmaker.recipes import DEFAULT_SPECS, RunSpec


@dataclass(frozen=True, eq=False)
class RunSet:
    """The runs made, their groups and their recipes (in making order)."""

    runs: dict[str, Run]
    groups: dict[str, str]
    specs: tuple[RunSpec, ...] = field(default_factory=tuple)
    depth: int = 0

    def to_frame(self) -> pd.DataFrame:
        """One row per run: tag, group, description, lines, topics."""
        return pd.DataFrame([{"run": s.tag, "group": s.group, "description": s.description,
                              "lines": len(self.runs[s.tag]),
                              "topics": self.runs[s.tag].num_topics} for s in self.specs])

    def write(self, out_dir: str | os.PathLike, compress: str = "") -> list[Path]:
        """Write each run as ``<tag>`` (``.gz``/``.xz`` with ``compress``) and ``groups.tsv``."""
        from yardstick.inputs.io.groups_file import write_groups
        from yardstick.inputs.io.run_file import write_run

        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        paths = []
        for tag, run in self.runs.items():
            path = out / (tag + (f".{compress}" if compress else ""))
            if compress:
                _write_compressed_run(run, path, compress)
            else:
                write_run(run, path)
            paths.append(path)
        write_groups(self.groups, out / "groups.tsv")
        return paths


def _write_compressed_run(run: Run, path: Path, compress: str) -> None:
    import gzip
    import lzma
    import tempfile

    from yardstick.inputs.io.atomic import atomic_write_bytes
    from yardstick.inputs.io.run_file import write_run

    with tempfile.TemporaryDirectory() as tmp:
        plain = Path(tmp) / "run"
        write_run(run, plain)
        data = plain.read_bytes()
    if compress == "gz":
        data = gzip.compress(data, compresslevel=9, mtime=0)
    elif compress == "xz":
        data = lzma.compress(data, preset=9 | lzma.PRESET_EXTREME)
    else:
        raise ValueError(f"unknown compression {compress!r}: expected gz or xz")
    atomic_write_bytes(path, data)


def query_texts(topics: pd.DataFrame, form: str) -> list[str]:
    """The query of every topic for a query form (``full``, ``title``, ``short<N>``)."""
    title = topics["title"].fillna("").astype(str).tolist()
    desc = (topics["desc"].fillna("").astype(str).tolist() if "desc" in topics
            else [""] * len(title))
    if form == "full":
        return [t if not d or d == t else f"{t} {d}" for t, d in zip(title, desc)]
    if form == "title":
        return title
    if form.startswith("short") and form[5:].isdigit():
        n = int(form[5:])
        return [" ".join(content_words(t, n)) for t in title]
    raise ValueError(f"unknown query form {form!r}: expected full, title or short<N>")


def make_runs(documents: Mapping[str, str], topics: pd.DataFrame, qrels: Qrels | None = None,
              specs: Sequence[RunSpec] = DEFAULT_SPECS, depth: int = 1000, seed: int = 0,
              ) -> Generator[Progress, None, RunSet]:
    """Index ``documents`` and make one run per spec (progress generator).

    Parameters
    ----------
    documents : Mapping docno -> text
    topics : pandas.DataFrame
        Columns ``topic``, ``title`` (``desc`` optional).
    qrels : Qrels, optional
        Needed only by routing specs.
    specs : sequence of RunSpec
        Fusion specs must come after the runs they fuse.
    depth : int
        Documents per topic, at most the collection size.
    seed : int
        For the routing run's document halves.

    Returns
    -------
    RunSet
    """
    require_runs_extra()
    specs = tuple(specs)
    _check_specs(specs, qrels)
    docnos = list(documents)
    texts = [documents[d] for d in docnos]
    depth = max(1, min(int(depth), len(docnos)))
    topic_ids = topics["topic"].astype(str).tolist()
    docno_bytes = _docno_bytes(docnos)
    raw_tokens: list[list[str]] | None = None
    term_indexes: dict[Analyzer, TermIndex] = {}
    bm25_indexes: dict[tuple, BM25Index] = {}
    lists: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    runs: dict[str, Run] = {}
    total = len(specs)
    for i, spec in enumerate(specs):
        yield Progress(i, total, f"run {spec.tag} ({i + 1} of {total})")
        if spec.fuse:
            scores, fused = FUSERS[spec.fusion]([lists[t] for t in spec.fuse])
            retrieved = _cut(scores, fused, depth)
        else:
            an = Analyzer(spec.stemmer, spec.stopwords)
            if an not in term_indexes:
                if raw_tokens is None:
                    raw_tokens = tokenize(texts)
                term_indexes[an] = TermIndex.build(docnos, texts, an, raw_tokens)
            ti = term_indexes[an]
            key = (an, spec.method, spec.k1, spec.b, spec.delta)
            if key not in bm25_indexes:
                bm25_indexes[key] = BM25Index.build(ti, spec.method, spec.k1, spec.b, spec.delta)
            index = bm25_indexes[key]
            query = ti.query_matrix(query_texts(topics, spec.query))
            scores, matched = index.score(query)
            if spec.feedback == "rm3":
                first = _cut(scores, matched, depth)
                query = rm3(query, scores, first, ti.tf, spec.fb_docs, spec.fb_terms,
                            spec.fb_weight)
                scores, matched = index.score(query)
            if spec.routing:
                scores, matched = _routing(index, query, topic_ids, qrels, spec, seed)
            retrieved = _cut(scores, matched, depth)
        scores = np.round(scores, 4)
        lists[spec.tag] = (scores, retrieved)
        runs[spec.tag] = _to_run(spec, topic_ids, docnos, scores, retrieved, docno_bytes)
    yield Progress(total, total, "runs made")
    return RunSet(runs=runs, groups={s.tag: s.group for s in specs}, specs=specs, depth=depth)


def _docno_bytes(docnos: list[str]) -> np.ndarray:
    from yardstick.inputs.run import to_bytes_array

    return to_bytes_array(docnos)


def _check_specs(specs: tuple[RunSpec, ...], qrels: Qrels | None) -> None:
    seen: set[str] = set()
    for s in specs:
        if s.tag in seen:
            raise ValueError(f"run tag {s.tag!r} is used twice")
        missing = [t for t in s.fuse if t not in seen]
        if missing:
            raise ValueError(f"run {s.tag} fuses {missing}, which must be made before it")
        if s.fuse and s.fusion not in FUSERS:
            raise ValueError(f"run {s.tag}: unknown fusion {s.fusion!r}")
        if s.routing and qrels is None:
            raise ValueError(f"run {s.tag} is a routing run and needs qrels")
        seen.add(s.tag)


def _cut(scores: np.ndarray, matched: np.ndarray, depth: int) -> np.ndarray:
    """Mask of the top ``depth`` matched documents per topic.

    Ties at the cut are broken by file order (earlier documents first), so the
    cut is deterministic; linear time (``numpy.partition``), not a full sort.
    """
    n_q, n_d = scores.shape
    masked = np.where(matched, scores, -np.inf)
    if depth >= n_d:
        return matched.copy()
    kth = -np.partition(-masked, depth - 1, axis=1)[:, depth - 1:depth]
    greater = masked > kth
    equal = masked == kth
    room = depth - greater.sum(axis=1, keepdims=True)
    keep = greater | (equal & (np.cumsum(equal, axis=1) <= room))
    return keep & matched


def _routing(index: BM25Index, query: sp.csr_matrix, topic_ids: list[str], qrels: Qrels,
             spec: RunSpec, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Score each half of the documents with queries trained on the other half."""
    ti = index.terms
    doc_pos = {d: j for j, d in enumerate(ti.docnos)}
    topic_pos = {t: i for i, t in enumerate(topic_ids)}
    f = qrels.frame
    f = f[(f["rel"] > 0) & f["topic"].isin(topic_pos) & f["docno"].isin(doc_pos)]
    rows = f["topic"].map(topic_pos).to_numpy()
    cols = f["docno"].map(doc_pos).to_numpy()
    relevant = sp.csr_matrix((np.ones(len(rows)), (rows, cols)),
                             shape=(len(topic_ids), ti.num_docs))
    half = document_halves(ti.num_docs, seed)
    scores = np.zeros((len(topic_ids), ti.num_docs))
    matched = np.zeros((len(topic_ids), ti.num_docs), dtype=bool)
    for side in (half, ~half):
        train = sp.diags((~side).astype(np.float64))
        q = routing_queries(query, relevant @ train, ti.tf, spec.routing_terms,
                            spec.routing_weight)
        s, m = index.score(q)
        scores[:, side], matched[:, side] = s[:, side], m[:, side]
    return scores, matched


def _to_run(spec: RunSpec, topic_ids: list[str], docnos: list[str], scores: np.ndarray,
            retrieved: np.ndarray, docno_bytes: np.ndarray | None = None) -> Run:
    """The run of a retrieved mask.

    With the current :class:`~yardstick.inputs.run.Run` layout the columns are built by
    indexing arrays made once per collection (a run has ~200,000 lines, and
    :meth:`Run.from_arrays` encodes each docno in Python); any other layout goes
    through :meth:`Run.from_arrays`.
    """
    qi, di = np.nonzero(retrieved)
    score = scores[qi, di].astype(np.float64)
    if docno_bytes is not None and _DIRECT_FIELDS <= {f.name for f in fields(Run)}:
        order = sorted(range(len(topic_ids)), key=lambda i: topic_ids[i].encode("utf-8"))
        code_of_row = np.empty(len(topic_ids), np.int32)
        code_of_row[order] = np.arange(len(order), dtype=np.int32)
        used = np.unique(code_of_row[qi]) if len(qi) else np.zeros(0, np.int32)
        remap = np.full(len(topic_ids), -1, np.int32)
        remap[used] = np.arange(len(used), dtype=np.int32)
        topics = np.asarray([topic_ids[order[c]] for c in used], dtype=object)
        try:
            return Run(name=spec.tag, tag=spec.tag, topics=topics,
                       topic_code=remap[code_of_row[qi]], docno_bytes=docno_bytes[di],
                       score=score, rank=np.zeros(len(score), np.int64), group=spec.group)
        except TypeError:  # Run's layout changed: take the slow, public way
            pass
    return Run.from_arrays(np.asarray(topic_ids, dtype=object)[qi],
                           np.asarray(docnos, dtype=object)[di], score,
                           name=spec.tag, tag=spec.tag, group=spec.group)


_DIRECT_FIELDS = {"name", "tag", "topics", "topic_code", "docno_bytes", "score", "rank", "group"}
