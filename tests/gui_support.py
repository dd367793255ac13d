"""Shared helpers for the pytest-qt tests of the window (not a test module)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "resources" / "sample_fallback"
DATA = ROOT.parent / "shared" / "data"
QRELS = SAMPLE / "robust03.qrels.gz"
TOPICS = SAMPLE / "robust03.topics.txt"
RUNS = [SAMPLE / f"{n}.run.gz" for n in ("aplrob03a", "UIUC03Rd1", "pircRBa1")]


def engine_or_skip():
    try:
        from yardstick.evaluation.engine import evaluate_run  # noqa: F401
    except ImportError as e:
        pytest.skip(f"evaluation engine not available yet: {e}")


def make_window(qtbot, tmp_path, monkeypatch):
    """A main window whose settings and last session live in ``tmp_path``."""
    monkeypatch.setenv("YARDSTICK_DATA_DIR", str(tmp_path / "appdata"))
    from yardstick.gui.main_window import MainWindow

    win = MainWindow(autosave=False)
    qtbot.addWidget(win)
    return win


def load(qtbot, win, items, timeout=60000):
    """Load ``[(path, kind)]`` and wait until the batch is applied; returns the LoadResult."""
    with qtbot.waitSignal(win.loaded, timeout=timeout) as blocker:
        win.open_items([(str(p), k) for p, k in items])
    return blocker.args[0]


def wait_evaluated(qtbot, win, names, timeout=60000):
    """Wait (on state.changed signals) until every named run has an evaluation."""
    names = set(names)

    def done():
        return names <= set(win.state.evaluations(visible_only=False))

    while not done():
        with qtbot.waitSignal(win.state.changed, timeout=timeout,
                              check_params_cb=lambda what: what == "evaluations"):
            pass
    return win.state.evaluations(visible_only=False)
