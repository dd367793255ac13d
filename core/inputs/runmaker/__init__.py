"""Make real runs for collections that have none (``yardstick make-runs``).

The classic collections come without submitted runs, so Yardstick makes them
with real retrieval models: BM25 variants from bm25s (the optional extra
``runs``), different text processing, title-like short queries, RM3 feedback,
fusion, and a routing run built from relevance judgments -- a spread like a
TREC track's (see :mod:`yardstick.inputs.runmaker.recipes`).

>>> from yardstick.common.progress import run_sync
>>> runset = run_sync(make_runs(documents, topics, qrels, depth=1000))
>>> runset.write("runs/")
"""

from yardstick.inputs.runmaker.make import RunSet, make_runs, query_texts
from yardstick.inputs.runmaker.recipes import DEFAULT_SPECS, RunSpec

__all__ = ["DEFAULT_SPECS", "RunSet", "RunSpec", "make_runs", "query_texts"]
