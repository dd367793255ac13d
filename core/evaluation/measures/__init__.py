"""trec_eval's measures as vectorised kernels over a judged ranking (see registry)."""

from yardstick.evaluation.measures.registry import (
                                    MeasureDef,
                                    MeasureError,
                                    MeasureRequest,
                                    all_measures,
                                    describe,
                                    get,
                                    parse_requests,
)

__all__ = ["MeasureDef", "MeasureError", "MeasureRequest", "all_measures", "describe", "get",
           "parse_requests"]
