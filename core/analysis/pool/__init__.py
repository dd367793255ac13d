"""Pool diagnostics: are these judgments complete and unbiased? (issue 6)

Buckley, Dimmick, Soboroff & Voorhees 2007 (“Bias and the limits of pooling for large collections”,
Information Retrieval 2007); Soboroff,
"Measuring the measure" (TREC slides); Voorhees, TREC 2003 robust track overview, §1.

Every diagnostic reads one :class:`yardstick.judging.judged_runs.JudgedRuns` (all runs judged by the
qrels, built once).

* :mod:`~yardstick.analysis.pool.reconstruction` — the pool per topic and its statistics;
* :mod:`~yardstick.analysis.pool.relevant_sources` — earliest ranks, P(relevant) by rank, depth
curve;
* :mod:`~yardstick.analysis.pool.uniques` — leave-out-uniques by run and by group;
* :mod:`~yardstick.analysis.pool.titlestat`, :mod:`~yardstick.analysis.pool.titlestat_pool`,
:mod:`~yardstick.analysis.pool.text` —
  titlestat;
* :mod:`~yardstick.analysis.pool.characteristics` — Table 1 rows;
* :mod:`~yardstick.analysis.pool.simulation` — cheaper judgment sets and rank agreement;
* :mod:`~yardstick.analysis.pool.scoring` — the measures re-scored (by the engine's kernels) under
masked
  judgments;
* :mod:`~yardstick.analysis.pool.report` — everything as one progress job (CLI and panel).
"""
