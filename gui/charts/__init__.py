"""pyqtgraph widgets for the charts of :mod:`yardstick.presentation.charts` (one module per chart).

Each widget draws a core chart dataclass, shows exact values on hover, emits
``topicClicked`` for per-topic charts, and toggles runs from its legend.
"""
