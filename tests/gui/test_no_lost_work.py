"""No lost work: writes are atomic, interrupted writes keep the old file, inputs are never written.

Every file Yardstick writes goes through :mod:`yardstick.inputs.io.atomic` (a temporary
file in the same folder, then ``os.replace``).  Here each writer is stopped
half-way — by an exception (disk full) or by ``kill -9`` — and the file it was
replacing must be byte-for-byte what it was, with no temporary file left
behind after an exception.  And a whole load → evaluate → what-if → export →
save-session cycle must leave every input file's bytes and modification time
unchanged.
"""

from __future__ import annotations

import errno
import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from tests.gui_support import QRELS, ROOT, RUNS, TOPICS, engine_or_skip
from yardstick.inputs.io import atomic

TABLE = pd.DataFrame({"map": [0.25, 0.5], "P_10": [0.3, 0.6]},
                     index=pd.Index(["301", "302"], name="topic"))


class _HalfWriter:
    """A file whose write stores the first half of the data, then fails (disk full)."""

    def __init__(self, f):
        self.f = f

    def write(self, data):
        self.f.write(data[: len(data) // 2])
        self.f.flush()
        raise OSError(errno.ENOSPC, "No space left on device")

    def __getattr__(self, name):
        return getattr(self.f, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()


def _write_all(folder: Path) -> dict[str, Path]:
    """Write one file of each kind Yardstick writes; returns {kind: path}."""
    paths = {k: folder / k for k in ("table.csv", "table.tex", "table.md", "table.html",
                                     "table.xlsx", "run", "qrels", "topics", "session.json")}
    for k, p in paths.items():
        _write(k, p, first=True)
    return paths


def _write(kind: str, path: Path, first: bool = False) -> None:
    """Write ``path`` (``first``: the original content, else different content)."""
    from yardstick.inputs.io import read_qrels, read_run, write_qrels, write_run
    from yardstick.inputs.io.topics_file import read_topics, write_topics
    from yardstick.presentation.export.tables import write_table
    from yardstick.session.session_file import write_session

    if kind.startswith("table"):
        write_table(TABLE if first else TABLE * 2, path)
    elif kind == "run":
        write_run(read_run(RUNS[0 if first else 1]), path)
    elif kind == "qrels":
        q = read_qrels(QRELS)
        write_qrels(q if first else q.with_frame(q.frame.head(10)), path)
    elif kind == "topics":
        t = read_topics(TOPICS)
        write_topics(t if first else t.head(3), path)
    else:
        write_session(path, {"format": "yardstick-session", "version": 1,
                             "notes": "first" if first else "second"})


def test_interrupted_writes_keep_the_previous_file(tmp_path, monkeypatch):
    paths = _write_all(tmp_path)
    before = {k: p.read_bytes() for k, p in paths.items()}
    monkeypatch.setattr(atomic, "open", lambda p, mode="r", *a, **k: _HalfWriter(
        open(p, mode, *a, **k)), raising=False)  # noqa: SIM115 - closed by _HalfWriter

    def half_xlsx(frame, tmp, *a):  # openpyxl writes its zip itself: stop it half-way too
        Path(tmp).write_bytes(before["table.xlsx"][: len(before["table.xlsx"]) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    import yardstick.presentation.export.xlsx_table as xl

    monkeypatch.setattr(xl, "write_xlsx", half_xlsx)
    for k in paths:
        with pytest.raises(OSError) as e:
            _write(k, paths[k])
        assert e.value.errno == errno.ENOSPC
    assert {k: p.read_bytes() for k, p in paths.items()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in paths.values())


def test_kill_9_in_the_middle_of_a_write_keeps_the_previous_file(tmp_path):
    """A real crash: the writer has written half of the new file when the process is killed."""
    target = tmp_path / "per_topic.csv"
    target.write_text("topic,map\n301,0.2500\n")
    before = target.read_bytes()
    script = (
        "import sys, time\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from yardstick.inputs.io.atomic import atomic_write\n"
        "def writer(tmp):\n"
        "    with open(tmp, 'w') as f:\n"
        "        f.write('topic,map\\n' + '302,0.5000\\n' * 50000)\n"
        "        f.flush()\n"
        "        print('HALF', flush=True)\n"
        "        time.sleep(120)\n"
        "        f.write('303,0.7500\\n')\n"
        f"atomic_write({str(target)!r}, writer)\n")
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "HALF"
    finally:
        proc.kill()
        proc.wait(30)
    assert target.read_bytes() == before
    leftovers = [p for p in tmp_path.iterdir() if p != target]
    assert len(leftovers) == 1 and leftovers[0].name.startswith(".per_topic.csv.")
    assert leftovers[0].stat().st_size == len("topic,map\n") + 50000 * len("302,0.5000\n")


def _fingerprint(paths):
    return {p: (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns) for p in paths}


def test_load_evaluate_what_if_export_cycle_never_writes_an_input(tmp_path):
    engine_or_skip()
    from yardstick.analysis.explain.what_if import WhatIfSession
    from yardstick.common.options import EvalOptions
    from yardstick.common.progress import run_sync
    from yardstick.evaluation.engine import evaluate_run
    from yardstick.presentation.export.tables import write_table
    from yardstick.session.loading import load_files
    from yardstick.session.session_file import write_session
    from yardstick.session.workspace import Workspace

    inputs = [Path(shutil.copy(p, tmp_path)) for p in [QRELS, TOPICS, *RUNS]]
    before = _fingerprint(inputs)
    res = run_sync(load_files([(str(p), None) for p in inputs]))
    assert res.errors == () and len(res.runs) == 3 and res.topics is not None
    frame_before = res.qrels.frame.copy()
    ws = Workspace(qrels=res.qrels, topics=res.topics, topics_path=res.topics_path)
    for r in res.runs:
        ws.add_run(r)
    evals = {e.name: evaluate_run(e.run, ws.qrels, ["official"], EvalOptions())
             for e in ws.runs.values()}
    for name, ev in evals.items():                     # exports next to the inputs
        write_table(ev.per_topic, tmp_path / f"{name}.csv")
        write_table(ev.per_topic, tmp_path / f"{name}.xlsx")
    s = WhatIfSession(ws.qrels, ws.all_runs(), ["map"])
    s.mark("303", "LA011990-0173", 2)
    s.mark_unjudged("303", "FT921-7107")
    s.evaluations()
    s.export(tmp_path / "edited.qrels")
    write_session(tmp_path / "session.json", ws.to_session())
    assert _fingerprint(inputs) == before
    pd.testing.assert_frame_equal(ws.qrels.frame, frame_before)   # the original object too
    assert s.original is ws.qrels
    from yardstick.inputs.io import read_qrels

    edited = read_qrels(tmp_path / "edited.qrels").to_dict()
    original = read_qrels(inputs[0]).to_dict()
    assert edited["303"]["LA011990-0173"] == 2 and "FT921-7107" not in edited["303"]
    assert original["303"]["FT921-7107"] == 1 and original["303"]["LA011990-0173"] == 0
    assert {t: d for t, d in edited.items() if t != "303"} == {
        t: d for t, d in original.items() if t != "303"}
