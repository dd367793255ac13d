"""Layer 2, judging: a run's ranking joined with the judgments (trec_eval's order, docno codes,
judged runs)."""
