"""Classic full-text test collections (Cranfield, CACM, CISI, LISA, Vaswani/NPL).

Readers for their original formats (:mod:`yardstick.inputs.collections.smart`,
:mod:`yardstick.inputs.collections.lisa`) and :func:`load_classic`, which returns documents,
topics and TREC qrels of one collection (:mod:`yardstick.inputs.collections.classic`).
"""

from yardstick.inputs.collections.classic import (
                                      COLLECTIONS,
                                      ClassicCollection,
                                      default_root,
                                      load_classic,
)

__all__ = ["COLLECTIONS", "ClassicCollection", "default_root", "load_classic"]
