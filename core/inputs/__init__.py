"""Layer 1, inputs: runs, qrels, topics and documents as data, and the readers and writers of their
files."""
