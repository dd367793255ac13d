"""Who a run is, readable in the Collection's runs table without scrolling (round five: at
1280x800 the tag and file columns came after the answer columns and needed scrolling).
The tag stands beside the name where it says more than the name and there is room for
both whole; the name's tooltip always gives the name, the tag and the file."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from yardstick.gui.runs_model import COLUMNS
from yardstick.inputs.io import read_run


@pytest.fixture
def make_panel(qtbot, tmp_path):
    from yardstick.gui.app_state import AppState
    from yardstick.gui.jobs import JobRunner
    from yardstick.gui.panels.collection_panel import CollectionPanel

    made = []

    def make(files: dict[str, str], width: int):
        """A shown panel ``width`` pixels wide with runs ``{file name: tag}``."""
        jobs = JobRunner()
        state = AppState()
        panel = CollectionPanel(state, jobs)
        qtbot.addWidget(panel)
        panel.resize(width, 700)
        panel.show()
        qtbot.waitExposed(panel)
        runs = []
        for name, tag in files.items():
            p = tmp_path / name
            p.write_text("".join(f"{t} Q0 d{d} {d} {9 - d} {tag}\n"
                                 for t in (1, 2) for d in range(1, 4)))
            runs.append(read_run(str(p)))
        state.add_runs(runs)
        made.append(jobs)
        return panel

    yield make
    for jobs in made:
        jobs.shutdown()


def _hidden(panel, col: str) -> bool:
    return panel.runs_view.isColumnHidden(COLUMNS.index(col))


def _whole(panel, col: str) -> bool:
    """Every cell of ``col`` as wide as its text (with the cell's margins): not elided."""
    view, model = panel.runs_view, panel.runs_model
    fm = view.fontMetrics()
    c = COLUMNS.index(col)
    return all(fm.horizontalAdvance(model.data(model.index(r, c))) + 8 <= view.columnWidth(c)
               for r in range(model.rowCount()))


TAGGED = {"run1.txt": "BM25-rm3", "run2.txt": "DPR-base", "run3.txt": "SPLADE"}


def test_a_tag_that_says_more_stands_beside_the_name_when_there_is_room(make_panel):
    panel = make_panel(TAGGED, 900)
    assert COLUMNS.index("tag") == COLUMNS.index("name") + 1
    assert not _hidden(panel, "tag")
    assert _whole(panel, "name") and _whole(panel, "tag")


def test_no_room_for_both_keeps_the_name_whole_and_the_tag_in_its_tooltip(make_panel):
    panel = make_panel({f"a-rather-long-run-file-{i}.txt": f"long-tag-of-run-{i}"
                        for i in range(3)}, 330)
    assert _hidden(panel, "tag")                         # elided to "l…2" it said nothing
    view, model = panel.runs_view, panel.runs_model
    for col in ("shown", "colour", "name", "group", "pooled", "topics", "lines"):
        c = COLUMNS.index(col)                           # the answers in view
        assert view.columnViewportPosition(c) + view.columnWidth(c) \
            <= view.viewport().width(), col
    tip = model.data(model.index(0, COLUMNS.index("name")), Qt.ItemDataRole.ToolTipRole)
    entry = panel.state.workspace.runs[model.names()[0]]
    assert tip == f"{entry.name}\nrun tag: long-tag-of-run-0\nfile: {entry.path}"


def test_names_that_hold_their_tags_need_no_tag_column(make_panel):
    panel = make_panel({"input.team01a": "team01a", "team02b": "team02b"}, 900)
    assert _hidden(panel, "tag")
    assert not panel.runs_model.tags_tell_more()
