"""Qrels and runs from any form a caller holds them in: paths, DataFrames, dicts, ranx and
ir_measures objects (what :func:`yardstick.api.read_qrels` and
:func:`yardstick.api.read_runs` accept).

DataFrame columns go by trec_eval's names (``topic, docno, rel`` / ``topic, docno, score``)
or ir_measures' and ranx's (``query_id, doc_id, relevance`` / ``query_id, doc_id, score``);
a ``run`` column splits one frame into several runs.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run

__all__ = ["qrels_from_any", "runs_from_any", "is_path"]

_TOPIC = ("topic", "query_id", "qid", "q_id")
_DOC = ("docno", "doc_id", "docid", "did")
_REL = ("rel", "relevance", "label", "judgment")


def _column(frame: pd.DataFrame, names: Sequence[str], what: str) -> str:
    for n in names:
        if n in frame.columns:
            return n
    raise ValueError(f"the {what} column is missing: expected one of {list(names)}, "
                     f"found {list(frame.columns)}")


def is_path(x: Any) -> bool:
    """Whether ``x`` names a file (a string or an ``os.PathLike``)."""
    return isinstance(x, (str, os.PathLike))


def qrels_from_any(source: Any, name: str | None = None) -> Qrels:
    """Judgments from a path, a DataFrame, a dict, ranx ``Qrels`` or ir_measures qrels."""
    if isinstance(source, Qrels):
        return source
    if is_path(source):
        from yardstick.inputs.io.qrels_file import read_qrels as read_file

        return read_file(source, name=name)
    if hasattr(source, "to_dict") and hasattr(source, "qrels"):  # ranx.Qrels
        source = source.to_dict()     # its to_dataframe() calls the grades 'score'
    if isinstance(source, Mapping):
        return Qrels.from_dict({str(q): {str(d): int(r) for d, r in docs.items()}
                                for q, docs in source.items()}, name=name or "qrels")
    if not isinstance(source, pd.DataFrame):  # ir_measures: namedtuples (query_id, doc_id, …)
        items = list(source)  # a generator is read once
        fields = getattr(items[0], "_fields", None) if items else None
        source = pd.DataFrame([tuple(x) for x in items],
                              columns=list(fields or ("query_id", "doc_id", "relevance")))
    f = pd.DataFrame({"topic": source[_column(source, _TOPIC, "topic")],
                      "docno": source[_column(source, _DOC, "docno")],
                      "rel": source[_column(source, _REL, "relevance")]})
    return Qrels.from_frame(f, name=name or "qrels")


def runs_from_any(source: Any, name: str | None = None) -> list[Run]:
    """Runs from paths, Run objects, DataFrames, dicts, ranx ``Run`` objects or ir_measures
    scored-document iterables, named as given (names are not made unique here)."""
    if isinstance(source, Run):
        return [source]
    if is_path(source):
        from yardstick.inputs.io.run_file import read_run

        return [read_run(source, name=name)]
    if isinstance(source, pd.DataFrame):
        if "run" in source.columns and name is None:
            return [_run_from_frame(part, str(r)) for r, part in source.groupby("run", sort=False)]
        return [_run_from_frame(source, name or "run")]
    if hasattr(source, "to_dict") and hasattr(source, "run") and hasattr(source, "name"):
        return [Run.from_dict(_plain(source.to_dict()), name=name or source.name or "run")]
    if isinstance(source, Mapping):
        if source and all(_is_run_like(v) for v in source.values()):
            # {name: run} (what to_ir_measures and to_ranx give back)
            return [r for n, v in source.items() for r in runs_from_any(v, name=str(n))]
        return [Run.from_dict(_plain(source), name=name or "run")]
    items = list(source)
    if items and all(is_path(x) or isinstance(x, (Run, pd.DataFrame)) or hasattr(x, "run")
                     for x in items):
        return [r for x in items for r in runs_from_any(x)]
    frame = pd.DataFrame([tuple(x) for x in items],
                         columns=list(getattr(items[0], "_fields", ("query_id", "doc_id", "score")))
                         if items else ["query_id", "doc_id", "score"])
    return [_run_from_frame(frame, name or "run")]


def _is_run_like(x: Any) -> bool:
    """A run in any accepted form other than a ``{docno: score}`` mapping."""
    return (is_path(x) or isinstance(x, (Run, pd.DataFrame))
            or (hasattr(x, "to_dict") and hasattr(x, "run") and hasattr(x, "name")))


def _plain(d: Mapping) -> dict:
    return {str(q): {str(k): float(v) for k, v in docs.items()} for q, docs in d.items()}


def _run_from_frame(frame: pd.DataFrame, name: str) -> Run:
    f = pd.DataFrame({"topic": frame[_column(frame, _TOPIC, "topic")].astype(str),
                      "docno": frame[_column(frame, _DOC, "docno")].astype(str),
                      "score": frame[_column(frame, ("score", "sim"), "score")]})
    if "rank" in frame.columns:
        f["rank"] = frame["rank"]
    tag = str(frame["tag"].iloc[-1]) if "tag" in frame.columns and len(frame) else None
    return Run.from_frame(f, name=name, tag=tag)

