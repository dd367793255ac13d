"""Pool diagnostics: are these judgments complete and unbiased? (issue 6)

Buckley, Dimmick, Soboroff & Voorhees 2007 (“Bias and the limits of pooling for large collections”,
Information Retrieval 2007); Soboroff,
"Measuring the measure" (TREC slides); Voorhees, TREC 2003 robust track overview, §1.

Every diagnostic reads one :class:`yardstick.judging.judged_runs.JudgedRuns` (all runs judged by the
qrels, built once).

* :mod:`~core.pool.reconstruction` — the pool per topic and its statistics;
* :mod:`~core.pool.relevant_sources` — earliest ranks, P(relevant) by rank, depth curve;
* :mod:`~core.pool.uniques` — leave-out-uniques by run and by group;
* :mod:`~core.pool.titlestat`, :mod:`~core.pool.titlestat_pool`, :mod:`~core.pool.text` —
  titlestat;
* :mod:`~core.pool.characteristics` — Table 1 rows;
* :mod:`~core.pool.simulation` — cheaper judgment sets and rank agreement;
* :mod:`~core.pool.scoring` — the measures re-scored (by the engine's kernels) under masked
  judgments;
* :mod:`~core.pool.report` — everything as one progress job (CLI and panel).
"""
