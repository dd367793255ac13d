"""The TREC appendix evaluation reports (ad hoc, known-item, filtering, QA), Qt-free.

Each kind has a module building a :class:`~core.reports.document.ReportDocument`
from evaluations or runs; :mod:`core.reports.render` writes it as HTML, PDF,
PNGs and CSVs.  ``yardstick report`` (:mod:`core.cli.report_cmd`) drives them.
"""
