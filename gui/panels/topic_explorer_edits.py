"""The Topic explorer's what-if edits: marking documents relevant, not relevant or
unjudged (on a copy of the qrels), undo, redo, reset, export of the edited qrels, the
edits kept in the session (autosaved), and the measures and run ranking re-worked out
in a job after each edit (:class:`~yardstick.analysis.explain.what_if.WhatIfSession`).

:class:`WhatIfEditing` is mixed into
:class:`~yardstick.gui.panels.topic_explorer_panel.TopicExplorerPanel`, whose
``session``, ``lesson``, ``evals``, ``topic``, ``measure`` and views it uses.
"""

from __future__ import annotations

from PySide6.QtWidgets import QFileDialog, QLabel, QMenu

from yardstick.gui.flow_bar import FlowBar
from yardstick.gui.teaching_views import what_if_frames
from yardstick.session import what_if_state

__all__ = ["WhatIfEditing"]


class WhatIfEditing:
    """What-if editing of the judgments shown by the Topic explorer."""

    def _edit_bar(self) -> FlowBar:
        """The what-if bar: mark the selected document, undo, redo, reset, export."""
        edit = FlowBar()
        edit.addWidget(QLabel(" What-if: "))
        edit.addAction("Relevant", lambda: self.mark_selected("relevant"))
        edit.addAction("Not relevant", lambda: self.mark_selected("nonrelevant"))
        edit.addAction("Unjudged", lambda: self.mark_selected("unjudged"))
        self.undo_action = edit.addAction("Undo", self.undo)
        self.redo_action = edit.addAction("Redo", self.redo)
        edit.addAction("Reset", self.reset_edits)
        edit.addAction("Export edited qrels…", self.ask_export)
        self.edits_label = QLabel("")
        edit.addWidget(self.edits_label)
        return edit

    def selected_docno(self) -> str | None:
        return self.view.selected_docno()

    def mark(self, docno: str, how: str) -> None:
        """``how`` in relevant | nonrelevant | unjudged | toggle (on the current topic)."""
        s, topic = self.session, self.topic.currentText()
        if s is None or not docno:
            return
        {"relevant": s.mark_relevant, "nonrelevant": s.mark_nonrelevant,
         "unjudged": s.mark_unjudged, "toggle": s.toggle}[how](topic, docno)
        self._edited()

    def mark_selected(self, how: str) -> None:
        self.mark(self.selected_docno(), how)

    def undo(self) -> None:
        if self.session is not None and self.session.undo():
            self._edited()

    def redo(self) -> None:
        if self.session is not None and self.session.redo():
            self._edited()

    def reset_edits(self) -> None:
        if self.session is not None:
            self.session.reset()
            self.evals = self.session.evaluations()
            self.show_lesson()
            self._keep_edits()

    def export_edited(self, path: str) -> None:
        if self.session is not None:
            self.session.export(path)

    def ask_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export edited qrels", "edited.qrels")
        if path:
            self.export_edited(path)

    def _edited(self) -> None:
        s = self.session
        self.show_lesson()
        self._keep_edits()
        version = s.version
        self.jobs.submit("explorer-whatif", s.evaluation_job,
                         on_result=lambda ev: self._whatif_ready(ev, version))

    def _whatif_ready(self, evals: dict, version: int) -> None:
        if self.session is not None and self.session.set_evaluations(evals, version):
            self.evals = evals
            self._update_whatif()

    def _update_edit_label(self) -> None:
        s = self.session
        n = len(s.overrides) if s is not None else 0
        self.edits_label.setText(f"  {n} judgment{'s' if n != 1 else ''} changed "
                                 "(on a copy of the qrels)" if n else "")
        self.undo_action.setEnabled(bool(s and s.can_undo))
        self.redo_action.setEnabled(bool(s and s.can_redo))

    def _update_whatif(self) -> None:
        s, L = self.session, self.lesson
        if s is None or L is None or self.evals is None or L.run_name not in self.evals:
            return
        self.what_if.show_frames(what_if_frames(s, L, self.evals, self.measure.currentText()))
        self.significance.show_session(s, L, self.evals, self.measure.currentText())

    def _keep_edits(self) -> None:
        """Put the workspace's what-if edits in the session (autosaved, restored after a crash)."""
        s = self.session
        if s is not None and self.source.currentData() is None:
            self.state.set_extra(what_if_state.KEY, what_if_state.to_json(s.original.path, s.done))

    def _context_menu(self, pos) -> None:
        docno = self.selected_docno()
        if docno is None:
            return
        m = QMenu(self)
        m.addAction(f"Mark {docno} relevant", lambda: self.mark(docno, "relevant"))
        m.addAction(f"Mark {docno} not relevant", lambda: self.mark(docno, "nonrelevant"))
        m.addAction(f"Mark {docno} unjudged", lambda: self.mark(docno, "unjudged"))
        m.addSeparator()
        m.addAction("Explain AP for this topic", lambda: self.explain_current("map"))
        m.exec(self.table.viewport().mapToGlobal(pos))
