"""``yardstick [--qrels Q] [--topics T] [--docs D] [--groups G] [RUN ...]``: open the window.

With no files, the last session is restored (if there is one), otherwise the
bundled sample collection opens.  ``--screenshot DIR`` starts offscreen, waits
for loading and evaluation, renders every panel (and every chart a panel
lists) to ``DIR/<panel>.png`` and exits 0.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys


def build_parser() -> argparse.ArgumentParser:
    from yardstick.cli import SUBCOMMANDS

    p = argparse.ArgumentParser(
        prog="yardstick",
        description="Information-retrieval evaluation workbench. Subcommands "
                    f"({', '.join(SUBCOMMANDS)}) run headless; see 'yardstick eval --help'.")
    p.add_argument("--qrels", help="relevance judgments (topic iter docno rel)")
    p.add_argument("--topics", help="topics file (TREC SGML/XML or id<TAB>text)")
    p.add_argument("--docs", help="documents file")
    p.add_argument("--groups", help="run<TAB>group file")
    p.add_argument("--session", help="open a saved session (.json)")
    p.add_argument("--sample", action="store_true", help="open the bundled sample collection")
    p.add_argument("--no-restore", action="store_true",
                   help="do not restore the last session when no files are given "
                        "(and, after a crash, do not restore the autosaved work)")
    p.add_argument("--restore", action="store_true",
                   help="after a crash, restore the autosaved work without asking")
    p.add_argument("--panel", metavar="NAME",
                   help="bring this panel to the front at start (collection, measures, compare, "
                        "topic, charts, stability, pool, judgments, topic_explorer)")
    p.add_argument("--screenshot", metavar="DIR",
                   help="render every panel to DIR/<panel>.png offscreen and exit")
    p.add_argument("files", nargs="*", metavar="RUN",
                   help="run files (other files and folders are classified by content)")
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser().parse_args(argv)
    if args.screenshot:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    logging.basicConfig(level=os.environ.get("YARDSTICK_LOG", "WARNING"),
                        format="%(levelname)s %(name)s: %(message)s")
    win = start(args)
    if args.screenshot:
        from yardstick.gui.screenshots import render_all

        win.fit_to_screen()
        win.show()
        written = render_all(win, args.screenshot)
        for path in written:
            print(path)
        win.close()
        return 0
    win.show()
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    if args.panel:
        win.raise_panel(args.panel)  # its dock is there at once; the panel is built first
    QTimer.singleShot(0, win.build_panels_in_turns)
    rc = QApplication.instance().exec()
    from yardstick.gui import recovery

    recovery.end()  # a normal exit: the next start offers no restore
    return rc


def start(args: argparse.Namespace):
    """Create the window and start loading what ``args`` asks for (or restoring); returns it."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "yardstick"])
    app.setOrganizationName("Yardstick")
    app.setApplicationName("Yardstick")

    from yardstick.gui.error_dialog import install_excepthook
    from yardstick.gui.main_window import MainWindow

    screenshot = bool(args.screenshot)
    win = MainWindow(autosave=not screenshot, deferred_panels=not screenshot)
    install_excepthook(win)
    items: list[tuple[str, str | None]] = []
    for kind, path in (("qrels", args.qrels), ("topics", args.topics),
                       ("documents", args.docs), ("groups", args.groups)):
        if path:
            items.append((path, kind))
    items += [(f, None) for f in args.files]
    restoring = False
    if not screenshot:
        from yardstick.gui import recovery

        crashed = recovery.begin()  # marks this process as running
        if crashed is not None and not args.session:
            answer = recovery.answer_from(args.restore, args.no_restore)
            if answer is None:
                # ask over the painted window (the question alone stood on a black screen)
                win.show()
                app.processEvents()
            restoring = recovery.offer(win, crashed, answer, then=items)
    if args.session:
        win.open_session(args.session)
    if items and not restoring:
        win.open_items(items)
    elif not args.session and not restoring:
        if args.sample or screenshot or args.no_restore or not win.restore_last_session():
            win.open_sample()
    return win


if __name__ == "__main__":
    sys.exit(main())
