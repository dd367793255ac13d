"""Yardstick's Qt window: thin widgets that call ``core`` and draw with pyqtgraph."""
