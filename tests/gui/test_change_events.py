"""The state announces changes with typed events, never free strings (issue #17)."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from yardstick.gui.app_state import WHATS, AppState, Change  # noqa: E402
from yardstick.inputs.run import Run  # noqa: E402


def test_every_change_is_a_change_member(qtbot):
    state = AppState()
    seen = []
    state.changed.connect(seen.append)
    state.add_runs([Run.from_arrays(["1"], ["d"], [1.0], name="r")])
    state.set_measures(["map"])
    state.set_notes("n")
    state.set_topic_group("g", ["1"])
    state.set_extra("panels", {})
    state.apply_groups({"r": "team"})
    assert seen and all(type(w) is Change for w in seen)
    assert seen == [Change.RUNS, Change.MEASURES, Change.NOTES, Change.TOPIC_GROUPS,
                    Change.EXTRAS, Change.RUNS]
    assert state.workspace.runs["r"].group == "team"
    # listeners written against the names keep working, and the set is closed
    assert Change.RUNS == "runs" and set(WHATS) == set(Change)
    with pytest.raises(ValueError):
        Change("run")
