"""Exports of tables (and, via core.reports, charts) to files."""

from core.export.tables import table_to_text, write_table

__all__ = ["write_table", "table_to_text"]
