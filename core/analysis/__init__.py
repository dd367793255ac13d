"""Layer 4, analysis: significance tests, topic-set stability, pool quality and explanations of
measures."""
