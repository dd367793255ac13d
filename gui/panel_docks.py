"""The window's panels in docks: built at once, or one per turn of the event loop after
the first paint (those in view first), each in a scroll area; a broken panel is left out
and reported, never stopping the window."""

from __future__ import annotations

import logging

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QLabel, QScrollArea, QWidget

from yardstick.gui import heap
from yardstick.gui.app_state import PanelState
from yardstick.gui.lazy import defer_while_hidden
from yardstick.gui.panels import (
    PANEL_TITLES,
    SKIPPED,
    load_panel_classes,
    panel_key,
    panel_module_names,
)

log = logging.getLogger(__name__)
#: Imported on a worker thread after the first paint, before the panels are built on the
#: GUI thread (together ~1 s of imports that would otherwise hold the event loop); then
#: the Qt-free modules the panels import (Charts' chart kinds alone pull in the stability
#: analyses: ~100 ms in the turn that built the panel).
PRELOAD = ("numpy", "pandas", "pyarrow", "pyqtgraph", "scipy.stats", "yardstick.evaluation.engine",
           "yardstick.evaluation.evaluation_tables", "yardstick.session.loading",
           "yardstick.gui.table_model", "yardstick.gui.table_view",
           "yardstick.presentation.charts.system_ranking", "yardstick.analysis.stability.report",
           "yardstick.analysis.pool.report", "yardstick.analysis.significance",
           "yardstick.presentation.charts.figure_spec", "yardstick.analysis.explain",
           "yardstick.analysis.explain.what_if", "yardstick.analysis.qrels_comparison",
           "yardstick.session.what_if_state")
LAYOUT_VERSION = 1
#: the Collection dock's share of a 1400-pixel-wide window, in pixels
COLLECTION_WIDTH = 460


def _scrolling(panel: QWidget) -> QScrollArea:
    """``panel`` in a scroll area: a panel taller or wider than the screen scrolls instead of
    pushing the window (and its tab and status bars) off a small screen."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    area.setWidget(panel)
    return area


class PanelsByKey(dict):
    """The window's panels by key.  A panel taken by key (``panels[key]``, ``get``) has
    heard every change first (:meth:`PanelState.release
    <yardstick.gui.app_state.PanelState.release>`): code that reaches a panel behind a
    tab (restoring its choices, Help, scripts, tests) finds its lists up to date."""

    def __init__(self):
        super().__init__()
        self.views: dict[str, PanelState] = {}

    def __getitem__(self, key: str) -> QWidget:
        view = self.views.get(key)
        if view is not None:
            view.release()
        return super().__getitem__(key)

    def get(self, key: str, default=None):
        return self[key] if key in self else default

    def __delitem__(self, key: str) -> None:
        super().__delitem__(key)
        view = self.views.pop(key, None)
        if view is not None:
            view.detach()


class PanelDocks:
    """The panel-building half of :class:`~yardstick.gui.main_window.MainWindow` (a mixin:
    it uses the window's ``state``, ``jobs``, ``panels``, ``docks`` and ``show_error``)."""

    def _build_panels(self, deferred: bool) -> None:
        """A dock for every panel; the panels themselves now, or with ``deferred`` after the
        first paint (:meth:`build_panels_in_turns`): the window shows its tabs at once."""
        self._pending: list[str] = []
        self._building = False  # build_panels_in_turns has started
        if deferred:
            SKIPPED.clear()
            for module in panel_module_names():
                key = panel_key(module)
                self._add_dock(key, PANEL_TITLES.get(key, key.replace("_", " ").capitalize()))
                self._pending.append(module)
        else:
            for module, cls in load_panel_classes():
                self._add_panel(module, cls)
            QTimer.singleShot(0, self._report_broken_panels)
        self.fit_to_screen()
        self._default_layout = self.saveState(LAYOUT_VERSION)

    def build_panels_in_turns(self) -> None:
        """After the first paint: import the heavy libraries off the GUI thread, then build
        the panels one per turn of the event loop, those in view first.  A panel whose
        tab is brought to the front before its turn is built at once."""
        if self._pending and not self._building:
            self._building = True
            heap.hold()                # no collection while the libraries load and panels build
            self.jobs.preload(PRELOAD, then=self._after_preload)

    def _after_preload(self) -> None:
        heap.freeze()                  # the libraries' objects: never walked by the collector
        self._build_next_panel()

    def _build_next_panel(self) -> None:
        if not self._pending:
            return
        seen = [m for m in self._pending if self._dock_in_view(panel_key(m))]
        self._build_panel((seen or self._pending)[0])
        if self._pending:   # 1 ms, not 0: a zero-time call could come before a timer already due
            QTimer.singleShot(1, self._build_next_panel)

    def _dock_in_view(self, key: str) -> bool:
        dock = self.docks.get(key)
        return dock is not None and dock.isVisible() and not dock.visibleRegion().isEmpty()

    def build_remaining_panels(self) -> None:
        """Build every panel not built yet, now (tests, scripts, a worked example)."""
        while self._pending:
            self._build_panel(self._pending[0])

    def _build_panel(self, module: str) -> None:
        """Import and create one pending panel (put in its dock); the last one reports
        the panels that failed and emits ``panels_ready``."""
        import importlib

        from yardstick.gui.panels import find_panel_class, record_skip

        if module not in self._pending:
            return
        self._pending.remove(module)
        key = panel_key(module)
        try:
            cls = find_panel_class(importlib.import_module(module))
        except Exception as e:  # noqa: BLE001 - skip a broken panel, say why
            record_skip(module, e)
            cls = None
        if cls is None:
            SKIPPED.setdefault(module, "no QWidget subclass with a TITLE")
            self._remove_dock(key)
        else:
            self._add_panel(module, cls)
            self.restore_panel_choices({key})
        if not self._pending:
            heap.release()             # freeze the panels' objects; collect again from now
            self._report_broken_panels()
            self.panels_ready.emit()

    def _report_broken_panels(self) -> None:
        """A panel that failed to import or start is an error the user sees (not a silent gap)."""
        if SKIPPED:
            self.show_error("A panel could not be opened",
                            "These panels failed and are missing from the window; the others "
                            "work. Please report the details.",
                            "\n".join(f"{m}: {why}" for m, why in SKIPPED.items()))

    def _add_dock(self, key: str, title: str) -> QDockWidget:
        """The dock of panel ``key`` (a placeholder inside until the panel is built)."""
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock_{key}")
        waiting = QLabel("Opening…")
        waiting.setAlignment(Qt.AlignmentFlag.AlignCenter)
        dock.setWidget(waiting)
        # a tab brought to the front builds its panel if it is not built yet
        dock.visibilityChanged.connect(lambda seen, k=key: seen and self._opened(k))
        self.docks[key] = dock
        if key == "collection":
            self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
            return dock
        first = next((d for k, d in self.docks.items() if k != "collection" and d is not dock),
                     None)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        if first is None:
            if "collection" in self.docks:
                # the Collection wide enough for its runs table's answer columns (shown
                # … pooled, topics, lines) at 1280x800; the panels on the right the rest
                self.resizeDocks([self.docks["collection"], dock], [COLLECTION_WIDTH,
                                                                    1400 - COLLECTION_WIDTH],
                                 Qt.Orientation.Horizontal)
        else:
            self.tabifyDockWidget(first, dock)
            first.raise_()
        return dock

    def _opened(self, key: str) -> None:
        module = next((m for m in self._pending if panel_key(m) == key), None)
        if module is not None and self._building:  # (not while the window first shows)
            QTimer.singleShot(0, lambda: self._build_panel(module))

    def _remove_dock(self, key: str) -> None:
        dock = self.docks.pop(key, None)
        if dock is not None:
            self.removeDockWidget(dock)
            dock.deleteLater()
            if hasattr(self, "view_menu"):
                self._fill_view_menu()

    def _held_back(self, key: str) -> bool:
        """A panel's changes wait: the window is shown, the panel's dock is not in view."""
        dock = self.docks.get(key)
        return dock is not None and self.isVisible() and not self.isMinimized() \
            and not self._dock_in_view(key)

    def _add_panel(self, module: str, cls: type) -> None:
        key = panel_key(module)
        view = PanelState(self.state, lambda: self._held_back(key))
        try:
            panel = cls(view, self.jobs, self)
        except Exception as e:  # noqa: BLE001 - a broken panel must not stop the app
            view.detach()
            SKIPPED[module] = f"failed to start: {type(e).__name__}: {e}"
            log.warning("panel %s failed to start", module, exc_info=True)
            self._remove_dock(key)
            return
        dock = self.docks.get(key) or self._add_dock(key, cls.TITLE)
        old = dock.widget()
        dock.setWidget(_scrolling(panel))
        if old is not None:
            old.deleteLater()
        self.panels[key] = panel
        self.panels.views[key] = view
        # the changes announced while it was behind a tab, when it comes to the front
        dock.visibilityChanged.connect(lambda seen: seen and view.release())
        defer_while_hidden(panel)  # a panel behind a tab does no work ...
        if hasattr(panel, "catch_up"):  # ... and catches up when its tab comes to the front
            dock.visibilityChanged.connect(lambda seen, p=panel: seen and p.catch_up())

