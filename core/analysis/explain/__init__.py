"""Teaching mode: how every number is made (issue 8).

* :func:`explain` — one measure value of one run on one topic, with the
  definition, the ingredients, the arithmetic and the citation;
* :mod:`yardstick.analysis.explain.topic_lesson` — the topic explorer's data (ranked list,
  precision/recall after each document, AP terms, recall-precision curve);
* :mod:`yardstick.analysis.explain.tie_sensitivity` — measures under random orders of tied
  documents;
* :mod:`yardstick.analysis.explain.what_if` — edit a copy of the qrels and watch every
  measure and the run ranking move;
* :mod:`yardstick.analysis.explain.reference` — the searchable measure reference.
"""

from yardstick.analysis.explain.explain import (
                                  ExplainError,
                                  explain,
                                  explain_all,
                                  explain_judged,
                                  explainable_measures,
                                  spec_for_column,
)
from yardstick.analysis.explain.explanation import Explanation

__all__ = ["ExplainError", "Explanation", "explain", "explain_all", "explain_judged",
           "explainable_measures", "spec_for_column"]
