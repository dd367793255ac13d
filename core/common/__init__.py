"""Cross-cutting basics every layer may use: errors, options, progress, threads, seeds,
provenance."""
