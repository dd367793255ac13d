"""Exports of tables (and, via yardstick.reports, charts) to files."""

from yardstick.export.tables import table_to_text, write_table

__all__ = ["write_table", "table_to_text"]
