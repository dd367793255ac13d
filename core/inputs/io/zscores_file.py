"""``-Z`` z-score files: ``topic measure mean stddev`` per line (trec_eval's
``convert_zscores.c``)."""

from __future__ import annotations

from yardstick.common.errors import FormatError
from yardstick.inputs.io.text_source import decode_text, read_bytes

__all__ = ["read_zscores"]


def read_zscores(path: str) -> dict:
    """``topic measure mean stddev`` lines -> {(topic, measure): (mean, stddev)}."""
    out = {}
    for lineno, line in enumerate(decode_text(read_bytes(path, "z-score file")).splitlines(), 1):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if len(f) != 4:
            raise FormatError(path, lineno, "expected 4 columns (topic measure mean stddev)",
                              line)
        try:
            out[(f[0], f[1])] = (float(f[2]), float(f[3]))
        except ValueError:
            raise FormatError(path, lineno, "mean and stddev must be numbers", line) from None
    return out
