"""Named qrels sets in the session: renaming keeps the order and the primary; the sets
other than the primary are recorded for the session file and found missing after a
session is opened without them."""

import pandas as pd

from yardstick.common.progress import run_sync
from yardstick.inputs.qrels import Qrels
from yardstick.session.model import Session
from yardstick.session.qrels_sets import EXTRA_KEY, missing_sets, read_sets, record_sets


def _qrels(name, path=None):
    q = Qrels.from_frame(pd.DataFrame({"topic": ["1", "1"], "docno": ["a", "b"],
                                       "rel": [1, 0]}), name=name, path=path)
    return q


def test_rename_keeps_order_and_primary(tmp_path):
    s = Session()
    s.add_qrels(_qrels("nist"), "nist")
    s.add_qrels(_qrels("llm"), "llm")
    s.add_qrels(_qrels("crowd"), "crowd")
    assert s.rename_qrels("llm", "umbrela") == "umbrela"
    assert list(s.qrels_sets) == ["nist", "umbrela", "crowd"]
    assert s.rename_qrels("nist", "crowd") == "crowd#2"      # made unique
    assert s.primary_qrels == "crowd#2"


def test_sets_recorded_and_read_back(tmp_path):
    path = tmp_path / "second.txt"
    path.write_text("1 0 a 0\n1 0 b 1\n")
    s = Session()
    s.add_qrels(_qrels("nist"), "nist")
    s.add_qrels(_qrels("second", str(path)), "second")
    s.add_qrels(_qrels("in-memory"), "memo")              # no file: cannot be kept
    assert record_sets(s) == [{"name": "second", "path": str(path)}]
    fresh = Session()
    fresh.add_qrels(_qrels("nist"), "nist")
    fresh.workspace.extras[EXTRA_KEY] = s.workspace.extras[EXTRA_KEY]
    todo = missing_sets(fresh)
    assert todo == [{"name": "second", "path": str(path)}]
    [(name, q, err)] = run_sync(read_sets(todo))
    assert name == "second" and err is None and q.to_dict() == {"1": {"a": 0, "b": 1}}
    fresh.add_qrels(q, name)
    assert missing_sets(fresh) == []


def test_exports_name_every_judgment_set(tmp_path):
    from yardstick.common.provenance import workspace_sources

    path = tmp_path / "second.txt"
    path.write_text("1 0 a 0\n")
    s = Session()
    s.add_qrels(_qrels("nist"), "nist")
    s.add_qrels(_qrels("second", str(path)), "umbrela")
    record_sets(s)
    assert workspace_sources(s.workspace)["extra"] == {"qrels umbrela": str(path)}
