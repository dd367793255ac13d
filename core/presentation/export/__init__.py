"""Exports of tables (and, via yardstick.presentation.reports, charts) to files."""

from yardstick.presentation.export.tables import EXPORTERS, table_to_text, write_table

__all__ = ["EXPORTERS", "write_table", "table_to_text"]
