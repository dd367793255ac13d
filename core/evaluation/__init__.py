"""Layer 3, evaluation: the measures, the engine that computes them as trec_eval does, and its
output."""
