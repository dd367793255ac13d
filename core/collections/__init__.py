"""Classic full-text test collections (Cranfield, CACM, CISI, LISA, Vaswani/NPL).

Readers for their original formats (:mod:`core.collections.smart`,
:mod:`core.collections.lisa`) and :func:`load_classic`, which returns documents,
topics and TREC qrels of one collection (:mod:`core.collections.classic`).
"""

from core.collections.classic import (COLLECTIONS, ClassicCollection, default_root,
                                      load_classic)

__all__ = ["COLLECTIONS", "ClassicCollection", "default_root", "load_classic"]
