"""Readers and writers for TREC and classic IR file formats."""

from core.io.qrels_file import read_qrels, write_qrels
from core.io.run_file import read_run, write_run

__all__ = ["read_qrels", "write_qrels", "read_run", "write_run"]
