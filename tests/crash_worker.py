"""A Yardstick that works, autosaves and waits to be killed (run by tests/test_crash_recovery.py).

    QT_QPA_PLATFORM=offscreen YARDSTICK_DATA_DIR=DIR python tests/crash_worker.py \\
        --qrels Q --topics T RUN1 RUN2 RUN3

Starts the window exactly as ``yardstick`` does (:func:`yardstick.gui.app.start`), then,
once the files are loaded: renames, regroups and recolours the first run, hides
the second, unpools the third, makes a topic group, writes a note and marks one
document relevant in the topic explorer (a what-if edit).  When the autosave
(``DIR/last_session.json``) holds all of it, prints one line ``AUTOSAVED
{json}`` (the what-if edit made) and keeps running until it is killed.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QEventLoop
from PySide6.QtWidgets import QApplication

NOTE = "looked at topic 303 — the what-if edit is on APL ✓"


def wait_until(cond, timeout: float = 120.0) -> None:
    app = QApplication.instance()
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise TimeoutError("the worker waited too long")
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        time.sleep(0.01)


def main(argv: list[str]) -> int:
    from yardstick.gui import settings as st
    from yardstick.gui.app import build_parser, start

    win = start(build_parser().parse_args(argv))
    s = win.state
    wait_until(lambda: len(s.workspace.runs) == 3 and s.workspace.qrels is not None
               and s.workspace.topics is not None)
    first, second, third = list(s.workspace.runs)
    s.update_run(first, name="APL", group="JHU/APL", color="#aa0000")
    s.update_run(second, visible=False)
    s.update_run(third, pooled=False)
    s.set_topic_group("hard", ["303", "344"])
    s.set_notes(NOTE)
    win.build_remaining_panels()
    panel = win.panels["topic_explorer"]
    wait_until(lambda: panel.session is not None and "APL" in panel.session.runs)
    panel.run.setCurrentText("APL")
    panel.topic.setCurrentText("303")
    panel.show_lesson()
    ranked = panel.lesson.ranked
    docno = str(ranked.loc[~ranked["relevant"], "docno"].iloc[0])  # best non-relevant document
    panel.mark(docno, "relevant")
    edit = ["303", docno, panel.session.judgment("303", docno)]
    last = st.last_session_path()

    def saved() -> bool:
        try:
            data = json.loads(last.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        return (data.get("notes") == NOTE
                and data.get("extras", {}).get("what_if", {}).get("edits") == [edit]
                and len(data.get("runs", [])) == 3)

    wait_until(saved)
    print("AUTOSAVED " + json.dumps({"edit": edit}), flush=True)
    return QApplication.instance().exec()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
