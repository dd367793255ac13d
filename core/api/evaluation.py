"""The Python API's reading and evaluating: runs and qrels of any form in, tidy and wide
tables of trec_eval's numbers out (:func:`evaluate`, :func:`evaluations`, :func:`wide`)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import pandas as pd

from yardstick.common.options import EvalOptions
from yardstick.evaluation.results import Evaluation
from yardstick.inputs.qrels import Qrels
from yardstick.inputs.run import Run
from yardstick.presentation.export.table_sources import with_sources

PathLike = str | os.PathLike

__all__ = ["read_qrels", "read_runs", "evaluations", "evaluate", "wide", "sample_paths",
           "engine_requests", "PathLike"]


def read_qrels(source: Any, name: str | None = None) -> Qrels:
    """Judgments from a path, a DataFrame, a dict, ranx ``Qrels`` or ir_measures qrels.

    >>> q = read_qrels(pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"],
    ...                              "relevance": [1, 0]}))
    >>> len(q), q.topics.tolist()
    (2, ['1'])
    """
    from yardstick.inputs.from_any import qrels_from_any

    return qrels_from_any(source, name)


def read_runs(source: Any, name: str | None = None) -> list[Run]:
    """Runs from paths, Run objects, DataFrames (a ``run`` column splits them), dicts,
    ranx ``Run`` objects or ir_measures scored-document iterables.

    Two runs with one name (two files called ``run.txt`` in different folders) are told
    apart as the command line does (:func:`yardstick.inputs.run_names.unique_names`): the
    second becomes ``run.txt#2``, and a ``UserWarning`` says which file that is.
    """
    import warnings

    from yardstick.inputs.from_any import runs_from_any
    from yardstick.inputs.run_names import unique_names

    runs, notes = unique_names(runs_from_any(source, name))
    for note in notes:
        warnings.warn(note, UserWarning, stacklevel=2)
    return runs


def evaluations(qrels: Any, runs: Any, measures: Any = ("official",),
                options: EvalOptions | None = None, client: Any = None,
                **option_values) -> dict[str, Evaluation]:
    """``{run name: Evaluation}`` (per-topic table, summary, judged ranking) for every run.

    Options are an :class:`EvalOptions` or its fields as keywords
    (``relevance_level=2``, ``complete=True``, ``max_docs=100``, ``judged_only=True``).
    Every cutoff asked is computed: ``["P.5", "P.10"]`` gives ``P_5`` and ``P_10``
    (where trec_eval's ``-m P.5 -m P.10`` keeps the first; ``merge_cutoffs``).
    ``client``: a ``distributed.Client`` (or executor) to evaluate the runs on, in
    batches of runs (the qrels sent once); the evaluations come back without their
    judged rankings (``judged=None``).
    """
    from yardstick.api.client import executor_of
    from yardstick.common.progress import run_sync
    from yardstick.evaluation.measures.spec import merge_cutoffs
    from yardstick.session.evaluating import evaluate_runs

    opts = options or EvalOptions(**option_values)
    q = read_qrels(qrels)
    measures = merge_cutoffs(measures, every=True)
    with executor_of(client) as executor:
        return run_sync(evaluate_runs(read_runs(runs), q, measures, opts, executor))


def evaluate(qrels: Any, runs: Any, measures: Any = ("official",), per_topic: bool = True,
             names: str = "as_asked", options: EvalOptions | None = None, client: Any = None,
             **option_values) -> pd.DataFrame:
    """Evaluate runs exactly as trec_eval does; a tidy frame ``run, topic, measure, value``.

    Parameters
    ----------
    qrels, runs
        See the module docstring.
    measures : str or sequence of str
        trec_eval (``map``, ``P.5,10``, ``official``), ir_measures (``nDCG@10``,
        ``P(rel=2)@5``) or ranx (``ndcg@10``, ``mrr``) names.
    per_topic : bool
        True: one row per run, topic and measure; False: trec_eval's averages
        (topic ``"all"``).
    names : {"as_asked", "trec_eval", "ir_measures", "ranx"}
        Measure names in the result: ``as_asked`` keeps the name each value was
        asked by when it gives one column (``nDCG@10``), else trec_eval's
        (``P_5``, ``P_10`` for ``P.5,10``).
    client : distributed.Client or str, optional
        Evaluate the runs as tasks on a Dask cluster (the qrels sent once); same numbers.
        A string as ``--dask`` takes it (``"local"``, ``"local:N"``, ``"tcp://HOST:PORT"``):
        connected for this call and closed after (:func:`yardstick.api.client.executor_of`).
    """
    from yardstick.evaluation.measures.column_names import asked_names
    from yardstick.evaluation.measures.spec import output_label, parse_measures

    # a column's name (P_10, ndcg_cut_10) as the other API functions take it, not refused
    specs = parse_measures([engine_requests(m)[0] if isinstance(m, str) else m for m in
                            ([measures] if isinstance(measures, str) else measures)])
    q, run_list = read_qrels(qrels), read_runs(runs)
    opts = options or EvalOptions(**option_values)
    evs = evaluations(q, run_list, specs, opts, client=client)
    frames = [ev.to_frame(per_topic=per_topic, summary=not per_topic, numeric=True)
              for ev in evs.values()]
    out = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=["run", "topic", "measure", "value"])
    out["value"] = out["value"].astype(float)
    out = out[out["measure"] != "runid"].reset_index(drop=True)
    if names == "as_asked":
        asked = asked_names(specs)
        out["measure"] = out["measure"].map(lambda m: asked.get(m, m))
    elif names != "trec_eval":
        out["measure"] = out["measure"].map(lambda m: output_label(m, names))
    return with_sources(out, q, run_list, [s.text for s in specs], opts)


def wide(tidy: pd.DataFrame) -> pd.DataFrame:
    """The wide view of :func:`evaluate`'s frame: runs (× topics) by measures."""
    index = ["run"] if (tidy["topic"] == "all").all() else ["run", "topic"]
    out = tidy.pivot_table(index=index, columns="measure", values="value", sort=False)
    out.columns.name = "measure"
    return out


def sample_paths() -> dict[str, Any]:
    """Paths of the bundled sample collection: ``qrels``, ``topics``, ``runs`` (list)."""
    from yardstick.inputs.sample import sample_paths as paths

    p = paths()
    return {k: ([str(x) for x in v] if isinstance(v, (list, tuple)) else str(v) if v else v)
            for k, v in (p.items() if isinstance(p, Mapping) else vars(p).items())}


def engine_requests(measures: Any) -> list[str]:
    """Measure names as the engine takes them: trec_eval's, ir_measures', ranx's or a
    column's (``P_10``; :func:`yardstick.evaluation.measures.column_names.request_name`)."""
    from yardstick.evaluation.measures.column_names import request_name

    return [request_name(m) for m in ([measures] if isinstance(measures, str) else measures)]
