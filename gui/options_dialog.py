"""Edit ▸ Evaluation options: trec_eval's -l, -M, -J, -c and the 9/10 compatibility switch."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QSpinBox

from yardstick.common.options import EvalOptions


class OptionsDialog(QDialog):
    def __init__(self, options: EvalOptions, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Evaluation options")
        self.level = QSpinBox(minimum=-10, maximum=100, value=options.relevance_level)
        self.level.setToolTip("-l: a judgment is relevant when rel >= this level")
        self.max_docs = QSpinBox(minimum=0, maximum=10_000_000, value=options.max_docs or 0)
        self.max_docs.setSpecialValueText("all")
        self.max_docs.setToolTip("-M: evaluate only the first N documents of each topic")
        self.judged_only = QCheckBox("drop unjudged documents (-J)")
        self.judged_only.setChecked(options.judged_only)
        self.complete = QCheckBox("average over every qrels topic; missing topics score 0 (-c)")
        self.complete.setChecked(options.complete)
        self.compat = QComboBox()
        self.compat.addItems(["trec_eval 10.0", "trec_eval 9.0.8"])
        self.compat.setCurrentIndex(0 if options.compat == 10 else 1)
        self._base = options
        form = QFormLayout(self)
        form.addRow("Relevance level", self.level)
        form.addRow("Max documents", self.max_docs)
        form.addRow(self.judged_only)
        form.addRow(self.complete)
        form.addRow("Behave like", self.compat)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def options(self) -> EvalOptions:
        from dataclasses import replace

        return replace(self._base, relevance_level=self.level.value(),
                       max_docs=self.max_docs.value() or None,
                       judged_only=self.judged_only.isChecked(),
                       complete=self.complete.isChecked(),
                       compat=10 if self.compat.currentIndex() == 0 else 9)
