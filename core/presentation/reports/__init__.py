"""The TREC appendix evaluation reports (ad hoc, known-item, filtering, QA), Qt-free.

Each kind has a module building a :class:`~yardstick.presentation.reports.document.ReportDocument`
from evaluations or runs; :mod:`yardstick.presentation.reports.render` writes it as HTML, PDF,
PNGs and CSVs.  ``yardstick report`` (:mod:`yardstick.cli.report_cmd`) drives them.
"""
