"""Layer 5, presentation: chart definitions, reports and table exports (files a person reads)."""
