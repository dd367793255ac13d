"""Yardstick's version (its own module: the provenance of every export records it, and
importing it must not import the package's API)."""

__version__ = "0.1.0"
