"""A panel's choices (baseline, measure, analysis, shown runs ...) to and from plain JSON.

A panel lists the attribute names of its choice widgets in ``CHOICES``;
:func:`capture` reads them (combo box text, spin box value, line edit text,
the ticked items of a checkable list) and :func:`apply` sets them back, returning
the values a widget cannot take yet (a run not listed yet).  The main window
keeps them per panel in the session (:func:`yardstick.session.workspace.panel_states`).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QDoubleSpinBox,
    QLineEdit,
    QListWidget,
    QSpinBox,
    QWidget,
)

JSONValue = Any


def _read(w: QWidget) -> JSONValue:
    if isinstance(w, QComboBox):
        return w.currentText()
    if isinstance(w, (QSpinBox, QDoubleSpinBox)):
        return w.value()
    if isinstance(w, QLineEdit):
        return w.text()
    if isinstance(w, QAbstractButton):
        return w.isChecked()
    if isinstance(w, QListWidget):
        return [w.item(i).text() for i in range(w.count())
                if w.item(i).checkState() == Qt.CheckState.Checked]
    raise TypeError(f"no choice to read from a {type(w).__name__}")


def _write(w: QWidget, value: JSONValue) -> bool:
    """Set ``value``; False when the widget cannot take it yet (an item not listed yet)."""
    if isinstance(w, QComboBox) and isinstance(value, str):
        if not value:  # nothing was chosen (the list was empty): nothing to set
            return True
        if w.findText(value) < 0:
            return False
        w.setCurrentText(value)
    elif isinstance(w, QSpinBox) and isinstance(value, int):
        w.setValue(value)
    elif isinstance(w, QDoubleSpinBox) and isinstance(value, (int, float)):
        w.setValue(float(value))
    elif isinstance(w, QLineEdit) and isinstance(value, str):
        w.setText(value)
    elif isinstance(w, QAbstractButton) and isinstance(value, bool):
        w.setChecked(value)
    elif isinstance(w, QListWidget) and isinstance(value, list):
        ticked = set(map(str, value))
        listed = {w.item(i).text() for i in range(w.count())}
        if not ticked <= listed:
            return False
        for i in range(w.count()):
            it = w.item(i)
            it.setCheckState(Qt.CheckState.Checked if it.text() in ticked
                             else Qt.CheckState.Unchecked)
    return True


def capture(panel: QWidget) -> dict[str, JSONValue]:
    """``{choice name: value}`` of the widgets named in ``panel.CHOICES``."""
    return {name: _read(getattr(panel, name)) for name in getattr(panel, "CHOICES", ())}


def apply(panel: QWidget, choices: dict[str, JSONValue]) -> dict[str, JSONValue]:
    """Set the panel's choice widgets from ``choices`` (unknown names are ignored).

    Returns the choices that could not be set yet (a baseline whose run is not
    listed until its evaluation arrives): the caller tries them again later.
    """
    left = {}
    for name in getattr(panel, "CHOICES", ()):
        if name in choices and not _write(getattr(panel, name), choices[name]):
            left[name] = choices[name]
    return left
