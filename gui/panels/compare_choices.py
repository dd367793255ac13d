"""Compare's choices: the baseline (the best run by the measure, by default), the
measure, the test and its correction, α, the permutation test's seed and resamples,
whether to compute every test, and the runs compared with the baseline.

The widget holds the controls and fills their lists; the panel
(:mod:`yardstick.gui.panels.compare_panel`) reads them and starts the comparison.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from yardstick.analysis.significance import CORRECTIONS, TESTS
from yardstick.gui.name_combo import NameCombo

__all__ = ["CompareChoices", "TEST_LABELS", "CORR_LABELS", "BEST"]

TEST_LABELS = {"t": "paired t-test", "wilcoxon": "Wilcoxon signed-rank", "sign": "sign test",
               "permutation": "randomisation (permutation)"}
CORR_LABELS = {"none": "none", "bonferroni": "Bonferroni", "holm": "Holm",
               "bh": "Benjamini–Hochberg"}
#: the baseline list's first item: the best run by the chosen measure (the default)
BEST = "best run by the measure"


class CompareChoices(QWidget):
    """The controls beside Compare's results (see the module's docstring)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.baseline = NameCombo()
        self.measure = NameCombo()
        self.test = QComboBox()
        for t in TESTS:
            self.test.addItem(TEST_LABELS[t], t)
        self.correction = QComboBox()
        for c in CORRECTIONS:
            self.correction.addItem(CORR_LABELS[c], c)
        self.correction.setCurrentIndex(CORRECTIONS.index("holm"))
        self.alpha = QDoubleSpinBox(decimals=3, minimum=0.001, maximum=0.5, singleStep=0.01,
                                    value=0.05)
        self.seed = QSpinBox(minimum=0, maximum=2**31 - 1, value=0)
        self.n_perm = QSpinBox(minimum=100, maximum=1_000_000, singleStep=1000, value=10000)
        # the chosen test is computed (with the t-test and the sign test, which the table
        # always shows); the other tests only on demand: 10,000 permutations for each of
        # 149 runs are seconds of CPU
        self.all_tests = QCheckBox("p-values of every test")
        self.all_tests.setToolTip("Also compute the tests not chosen (Wilcoxon signed-rank, "
                                  "randomisation): seconds with many runs")
        self.runs_list = QListWidget()
        self.runs_list.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.runs_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        form = QFormLayout()
        form.addRow("Baseline", self.baseline)
        form.addRow("Measure", self.measure)
        form.addRow("Test", self.test)
        form.addRow("Correction", self.correction)
        form.addRow("α", self.alpha)
        form.addRow("Seed", self.seed)
        form.addRow("Permutations", self.n_perm)
        form.addRow("", self.all_tests)
        cl = QVBoxLayout(self)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.addLayout(form)
        cl.addWidget(QLabel("Compared runs"))
        cl.addWidget(self.runs_list, 1)

    def fill(self, runs: list[str], measures: list[str]) -> None:
        """The baseline and measure lists (the current choices kept where still
        offered), then the compared runs."""
        cur = self.baseline.currentText()
        self.baseline.clear()
        self.baseline.addItems([BEST, *runs])
        if cur in runs:
            self.baseline.setCurrentText(cur)
        cur_m = self.measure.currentText()
        self.measure.clear()
        self.measure.addItems(measures)
        if cur_m in measures:
            self.measure.setCurrentText(cur_m)
        self.fill_runs(runs)

    def fill_runs(self, runs: list[str], checked: set[str] | None = None) -> None:
        """Every run but the baseline, ticked as ``checked`` says (None: as before,
        a new run ticked).  Emits no signals."""
        prev = {self.runs_list.item(i).text(): self.runs_list.item(i).checkState()
                for i in range(self.runs_list.count())}
        base = self.baseline.currentText()
        self.runs_list.blockSignals(True)
        self.runs_list.clear()
        for name in runs:
            if name == base:
                continue
            item = QListWidgetItem(name)
            item.setToolTip(name)                 # the whole name where the list elides it
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            on = (name in checked) if checked is not None else \
                prev.get(name, Qt.CheckState.Checked) == Qt.CheckState.Checked
            item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
            self.runs_list.addItem(item)
        self.runs_list.blockSignals(False)

    def compared_runs(self) -> list[str]:
        return [self.runs_list.item(i).text() for i in range(self.runs_list.count())
                if self.runs_list.item(i).checkState() == Qt.CheckState.Checked]
