"""Yardstick core: Qt-free evaluation engine, file formats and diagnostics.

Everything the GUI shows is computed here, so the CLI, notebooks and tests get
the same numbers.  Nothing under ``core`` may import Qt or pyqtgraph
(``tests/test_core_is_qt_free.py`` enforces it).
"""

__version__ = "0.1.0"
