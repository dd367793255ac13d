"""The words of the Help window: the guide to the panels (HTML, Qt-free).

The measure glossary is computed in core (:mod:`yardstick.analysis.explain.glossary`);
the list of keyboard shortcuts is read from the window's own menus
(:func:`yardstick.gui.help_menu.shortcut_list`), so neither can drift from the program.
"""

from __future__ import annotations

#: (panel key, title, what it answers, how to use it) in tab order
PANEL_GUIDE: list[tuple[str, str, str, str]] = [
    ("collection", "Collection",
     "What is loaded: the runs (name, team, shown, pooled), every judged topic with its "
     "judgment counts per grade, topic groups and the topic's text.",
     "Double-click a run's name or group to edit it, its colour to change it; untick "
     "<i>shown</i> to leave a run out of tables and charts; select topics and right-click "
     "to make a topic group."),
    ("measures", "Measures",
     "Every run's mean of each chosen measure (trec_eval's numbers), or one measure per "
     "topic for every run.",
     "Tick measures in the list at the right (search by name or description, or type a "
     "spec such as <code>P.5,20</code>); double-click a mean for its per-topic values, a "
     "per-topic value for its explanation."),
    ("compare", "Compare",
     "Is a run better than the baseline? Paired tests (t, Wilcoxon, sign, permutation) with "
     "a multiple-comparison correction (Holm, Benjamini–Hochberg), per-topic differences and the "
     "experiment table of a paper.",
     "Choose the baseline, the measure, the test and the correction; the significance "
     "tab lists each run against the baseline; <i>Paper table</i> writes LaTeX or "
     "Markdown with significance marks."),
    ("topic", "Topic",
     "One topic: its text, every run's score on it, and one run's ranked list with the "
     "judgments.",
     "Pick a topic (◀ ▶ step through them) and a run; relevant documents are green, "
     "unjudged grey."),
    ("charts", "Charts",
     "Recall-precision curves, per-topic difference from the median, topic spread and "
     "box plots, MAP(X), precision at cutoffs, the measure scatter, rank correlation "
     "between measures and the system ranking.",
     "Choose the chart, then its run, measures and topics; the <i>Runs</i> row decides "
     "which runs are drawn (top N by the measure, one team, a search or all shown). "
     "Hover a point for its values, click a run to highlight it, untick a legend entry "
     "to hide it; every chart exports as PNG, SVG or PDF and its numbers as a table."),
    ("stability", "Stability",
     "Can this topic set tell these runs apart? Swap rates against topic-set size "
     "(Voorhees & Buckley 2002), discriminative power with the bootstrap (Sakai 2006), "
     "Kendall τ between measures, Tukey HSD groups.",
     "Choose an analysis and measures, then <b>Run</b> (F5); it runs in the background "
     "with progress and Cancel."),
    ("pool", "Pool",
     "Are the judgments complete and unbiased? Relevant documents found by pool depth, "
     "unique relevant documents per team, leave-one-team-out, titlestat and simulated "
     "shallower pools.",
     "Tick the pooled runs in the Collection panel, choose the analyses and <b>Run</b> "
     "(F5)."),
    ("topic_explorer", "Topic explorer",
     "Teaching mode: one run's ranked list for one topic taken apart — precision and "
     "recall after each document, the terms average precision adds up, the effect of "
     "ties.",
     "Step through the ranks, mark documents relevant or not (what-if, with undo) and "
     "see every measure change; <i>Worked examples</i> loads the TREC appendix's "
     "examples; <i>Explain…</i> writes out a measure's computation."),
]


def guide_html() -> str:
    """The guide to the panels: where to start, then one paragraph per panel."""
    parts = ["<h2>Yardstick</h2>",
             "<p>A workbench for TREC-style evaluation: the numbers are trec_eval's, "
             "the panels help read them. Start with <b>File ▸ Open folder…</b> (a folder "
             "with qrels and runs, compressed or not) or drop files on the window; "
             "<b>File ▸ Open sample collection</b> opens a small one to try. Every panel "
             "is a tab (Ctrl+1 … Ctrl+8); tabs can be dragged apart and "
             "<b>View ▸ Reset layout</b> puts them back.</p>",
             "<p>Hover a column header for the measure's definition; "
             "<b>Help ▸ Measure glossary</b> lists every measure with its formula and "
             "paper.</p>"]
    for _key, title, what, how in PANEL_GUIDE:
        parts.append(f"<h3>{title}</h3><p>{what}</p><p><i>How:</i> {how}</p>")
    return "".join(parts)
