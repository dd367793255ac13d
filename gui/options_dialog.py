"""Edit ▸ Evaluation options: trec_eval's -l, -M, -J, -c and the 9/10 compatibility switch,
and where Stability and Pool run (this machine or a Dask scheduler; kept in the settings,
:mod:`yardstick.gui.compute_place`)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
)

from yardstick.common.options import EvalOptions
from yardstick.gui import settings as st
from yardstick.gui.compute_place import check_spec


class OptionsDialog(QDialog):
    """The evaluation options (:meth:`options`) and the compute preference, saved on OK
    and handed to ``jobs`` (:meth:`yardstick.gui.jobs.JobRunner.use_compute`) when given."""

    def __init__(self, options: EvalOptions, parent=None, jobs=None):
        super().__init__(parent)
        self.setWindowTitle("Evaluation options")
        self._jobs = jobs
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
        lay = QVBoxLayout(self)
        form = QFormLayout()
        form.addRow("Relevance level", self.level)
        form.addRow("Max documents", self.max_docs)
        form.addRow(self.judged_only)
        form.addRow(self.complete)
        form.addRow("Behave like", self.compat)
        lay.addLayout(form)
        lay.addWidget(self._compute_box(st.compute_spec()))
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b00020")
        lay.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def _compute_box(self, spec: str) -> QGroupBox:
        box = QGroupBox("Where Stability and Pool run")
        bl = QVBoxLayout(box)
        self.here = QRadioButton("Compute on this machine")
        self.dask = QRadioButton("On the Dask scheduler at")
        self.address = QLineEdit(spec)
        self.address.setPlaceholderText("tcp://host:8786, or local:N")
        self.address.setToolTip("A running Dask scheduler (tcp://HOST:PORT), or local:N for a "
                                "cluster of N worker processes that Yardstick starts when an "
                                "analysis first needs it and closes on exit. Progress and "
                                "Cancel work the same; cancelling frees the workers.")
        (self.dask if spec else self.here).setChecked(True)
        self.address.setEnabled(bool(spec))
        self.dask.toggled.connect(self.address.setEnabled)
        for w in (self.here, self.dask, self.address):
            bl.addWidget(w)
        return box

    def compute_spec(self) -> str:
        """The chosen place: ``""`` (this machine) or the address; ValueError if malformed."""
        return check_spec(self.address.text()) if self.dask.isChecked() else ""

    def accept(self) -> None:
        try:
            spec = self.compute_spec()
        except ValueError as e:
            self.error.setText(str(e))
            return
        if self.dask.isChecked() and not spec:
            self.error.setText("Give the scheduler's address, or choose this machine.")
            return
        if self._jobs is not None and self._jobs.compute.spec != spec:
            self._jobs.use_compute(spec)
        st.set_compute_spec(spec)
        super().accept()

    def options(self) -> EvalOptions:
        from dataclasses import replace

        return replace(self._base, relevance_level=self.level.value(),
                       max_docs=self.max_docs.value() or None,
                       judged_only=self.judged_only.isChecked(),
                       complete=self.complete.isChecked(),
                       compat=10 if self.compat.currentIndex() == 0 else 9)
