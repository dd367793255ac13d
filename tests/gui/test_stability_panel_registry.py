"""The Stability panel lists analyses and their charts from the registry
(:mod:`yardstick.analysis.stability.analyses`), not from names written in the panel."""

import pytest

pytest.importorskip("pytestqt")

import test_stability_panel as stability_panel_tests  # noqa: E402

from yardstick.analysis.stability.analyses import REGISTRY  # noqa: E402

# the Stability panel tests' fixtures and helper, shared (fixtures are found by name)
_run = stability_panel_tests._run
_settings_dir = stability_panel_tests._settings_dir
panel = stability_panel_tests.panel


def test_analysis_list_is_the_registry(panel):
    items = [(panel.analysis.itemData(i), panel.analysis.itemText(i))
             for i in range(panel.analysis.count())]
    assert items == [(name, a.title) for name, a in REGISTRY.items()]


@pytest.mark.parametrize("analysis", ["discriminative", "swap"])
def test_chart_menu_offers_all_results_when_the_registry_says_so(qtbot, panel, analysis):
    _run(qtbot, panel, analysis=analysis, seed=2, samples=10)
    texts = [panel.chart_choice.itemText(i) for i in range(panel.chart_choice.count())]
    title = REGISTRY[analysis].title
    assert (texts[0] == f"{title}: all") is REGISTRY[analysis].chart_of_all
    assert f"{title}: map, all" in texts and f"{title}: P_10, all" in texts
