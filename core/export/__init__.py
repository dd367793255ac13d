"""Exports of tables (and, via yardstick.reports, charts) to files."""

from yardstick.export.tables import EXPORTERS, table_to_text, write_table

__all__ = ["EXPORTERS", "write_table", "table_to_text"]
