"""Stability diagnostics: can this topic set tell these runs apart?

Every diagnostic takes a topics × runs score matrix of one per-topic measure
(``yardstick.evaluation.evaluation_service.score_matrix(evals, measure)``), is seeded
(``numpy.random.default_rng(seed)``, the seed recorded in the result), returns
a frozen dataclass with ``to_frame()``, and — when long — is a progress
generator (drive it with :func:`yardstick.common.progress.run_sync`).

=========================  ==================================================
module                     what
=========================  ==================================================
``swap_rates``             Voorhees–Buckley disjoint-subset swap rates, fits,
                           minimum difference for 95 % confidence
``bootstrap_swaps``        the bootstrap variant (Sakai 2006)
``error_rate``             Buckley–Voorhees error rate and ties (fuzziness)
``sensitivity``            minimum difference at n topics and % of comparisons
``rank_correlation``       Kendall tau, tau_AP, ranking strings, matrices
``discriminative_power``   paired bootstrap ASL (Sakai 2006), paired t-tests
``tukey_hsd``              randomised Tukey HSD (Carterette 2012)
``topic_set_size``         topic-set-size design (Sakai 2014/2016)
``topic_groups``           topic groups; any diagnostic per group
``aggregates``             mean, or area / MAP(X) over each sample's worst topics
``analyses``               the registry of analyses the report runs by name
``report``                 several analyses × measures × topic sets in one job
                           (what the CLI and the Stability panel run)
=========================  ==================================================
"""

from yardstick.analysis.stability.aggregates import (
                                                 aggregate_for,
                                                 lower_is_better,
                                                 per_topic_measure,
)
from yardstick.analysis.stability.bootstrap_swaps import bootstrap_swap_rates, compare_swap_methods
from yardstick.analysis.stability.discriminative_power import (
                                                 DiscriminativePowerResult,
                                                 discriminative_power,
                                                 paired_t_tests,
)
from yardstick.analysis.stability.error_rate import (
                                                 ErrorRateResult,
                                                 error_rate,
                                                 error_rate_table,
                                                 error_rates,
)
from yardstick.analysis.stability.rank_correlation import (
                                                 RankCorrelation,
                                                 RankingStrings,
                                                 compare_rankings,
                                                 correlation_matrix,
                                                 kendall_tau,
                                                 ranking_strings,
                                                 system_ranking,
                                                 tau_ap,
                                                 tau_ap_symmetric,
)
from yardstick.analysis.stability.report import (
                                                 ANALYSES,
                                                 StabilityReport,
                                                 StabilitySettings,
                                                 run_stability,
                                                 score_matrices,
)
from yardstick.analysis.stability.sensitivity import SensitivityResult, sensitivity
from yardstick.analysis.stability.swap_rates import SwapRateResult, swap_rates
from yardstick.analysis.stability.topic_groups import (
                                                 GroupedResult,
                                                 compare_groups,
                                                 group_rank_correlation,
                                                 parse_group_arg,
                                                 parse_topic_spec,
                                                 read_topic_groups,
                                                 run_per_group,
)
from yardstick.analysis.stability.topic_set_size import TopicSetSizeResult, topic_set_size
from yardstick.analysis.stability.tukey_hsd import TukeyHSDResult, tukey_hsd

__all__ = [
    "SwapRateResult", "swap_rates", "bootstrap_swap_rates", "compare_swap_methods",
    "ErrorRateResult", "error_rate", "error_rates", "error_rate_table",
    "SensitivityResult", "sensitivity",
    "RankCorrelation", "RankingStrings", "compare_rankings", "correlation_matrix",
    "kendall_tau", "ranking_strings", "system_ranking", "tau_ap", "tau_ap_symmetric",
    "DiscriminativePowerResult", "discriminative_power", "paired_t_tests",
    "TukeyHSDResult", "tukey_hsd", "TopicSetSizeResult", "topic_set_size",
    "GroupedResult", "compare_groups", "group_rank_correlation", "parse_group_arg",
    "parse_topic_spec", "read_topic_groups", "run_per_group",
    "aggregate_for", "lower_is_better", "per_topic_measure",
    "ANALYSES", "StabilityReport", "StabilitySettings", "run_stability", "score_matrices",
]
