"""The glossary of measures shown by the window's Help menu (and readable by tests and the CLI).

One :class:`GlossaryEntry` per registry measure, in trec_eval's table order then
Yardstick's own: trec_eval's name for the measure (the first line of its
``TREC_MEAS`` description in ``m_<name>.c``, trec_eval 10.0), the definition, the
formula, the parameters, the range and how topics are summarised, and the paper
it comes from — all of it from :mod:`yardstick.analysis.explain.reference`, which
builds on the measure registry.  Qt-free: the Help window renders
:func:`glossary_html`; :func:`glossary_text` is plain text.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from yardstick.analysis.explain.reference import measure_reference

__all__ = ["GlossaryEntry", "TREC_EVAL_TITLES", "glossary", "glossary_html", "glossary_text"]

#: trec_eval 10.0's own one-line name of each measure: the first line of the description
#: in its ``TREC_MEAS te_meas_<name>`` record, with the source file it is in.
TREC_EVAL_TITLES: dict[str, tuple[str, str]] = {
    "runid": ("Runid given by results input file.", "m_runid.c"),
    "num_q": ("Number of topics results averaged over.", "m_num_q.c"),
    "num_ret": ("Number of documents retrieved for topic.", "m_num_ret.c"),
    "num_rel": ("Number of relevant documents for topic.", "m_num_rel.c"),
    "num_rel_ret": ("Number of relevant documents retrieved for topic.", "m_num_rel_ret.c"),
    "num_nonrel_judged_ret": ("Number of non-relevant judged documents retrieved for topic.",
                              "m_num_nonrel_judged_ret.c"),
    "map": ("Mean Average Precision", "m_map.c"),
    "gm_map": ("Geometric Mean Average Precision", "m_gm_map.c"),
    "Rprec": ("Precision after R documents have been retrieved.", "m_Rprec.c"),
    "bpref": ("Main binary preference measure.", "m_bpref.c"),
    "recip_rank": ("Reciprocal Rank of the first relevant retrieved doc.", "m_recip_rank.c"),
    "iprec_at_recall": ("Interpolated Precision at recall cutoffs.", "m_iprec_at_recall.c"),
    "P": ("Precision at cutoffs", "m_P.c"),
    "relstring": ("The relevance values for the first N (default 10) retrieved docs",
                  "m_relstring.c"),
    "recall": ("Recall at cutoffs", "m_recall.c"),
    "infAP": ("Inferred AP", "m_infap.c"),
    "gm_bpref": ("Binary preference (bpref), but using geometric mean over topics",
                 "m_gm_bpref.c"),
    "Rprec_mult": ("Precision measured at multiples of R (num_rel).", "m_Rprec_mult.c"),
    "utility": ("Set utility measure", "m_utility.c"),
    "11pt_avg": ("Interpolated Precision averaged over 11 recall points", "m_11pt_avg.c"),
    "binG": ("Binary G", "m_binG.c"),
    "G": ("Normalized Gain", "m_G.c"),
    "dcg": ("Discounted Cumulative Gain", "m_ndcg.c"),
    "ideal_dcg": ("Ideal Discounted Cumulative Gain", "m_ndcg.c"),
    "ndcg": ("Normalized Discounted Cumulative Gain", "m_ndcg.c"),
    "ndcg_rel": ("Normalized Discounted Cumulative Gain averaged over rel docs", "m_ndcg_rel.c"),
    "Rndcg": ("Normalized Discounted Cumulative Gain at R levels", "m_Rndcg.c"),
    "ndcg_cut": ("Normalized Discounted Cumulative Gain at cutoffs.", "m_ndcg_cut.c"),
    "map_cut": ("Mean Average Precision at cutoffs", "m_map_cut.c"),
    "relative_P": ("Relative Precision at cutoffs", "m_rel_P.c"),
    "success": ("Success at cutoffs", "m_success.c"),
    "set_P": ("Set Precision: num_relevant_retrieved / num_retrieved", "m_set_P.c"),
    "set_relative_P": ("Relative Set Precision:  P / (Max possible P for this size set)",
                       "m_set_rel_P.c"),
    "set_recall": ("Set Recall: num_relevant_retrieved / num_relevant", "m_set_recall.c"),
    "set_map": ("Set map: num_relevant_retrieved**2 / (num_retrieved*num_rel)", "m_set_map.c"),
    "set_F": ("Set F measure: weighted harmonic mean of recall and precision", "m_set_F.c"),
    "prefs_num_prefs_poss": ("Number of possible prefs independent of whether documents "
                             "retrieved", "m_prefs_num_prefs_poss.c"),
    "prefs_num_prefs_ful": ("Number of prefs fulfilled", "m_prefs_num_prefs_ful.c"),
    "prefs_num_prefs_ful_ret": ("Number of prefs fulfilled among retrieved docs",
                                "m_prefs_num_prefs_ful_ret.c"),
    "prefs_simp": ("Simple ratio of preferences fulfilled to preferences possible.",
                   "m_prefs_simp.c"),
    "prefs_pair": ("Average over doc pairs of preference ratio for that pair.", "m_prefs_pair.c"),
    "prefs_avgjg": ("Simple ratio of preferences fulfilled to preferences possible",
                    "m_prefs_avgjg.c"),
    "prefs_avgjg_Rnonrel": ("Ratio of preferences fulfilled to preferences possible within a "
                            "judgment group", "m_prefs_avgjg_Rnonrel.c"),
    "prefs_simp_ret": ("Simple ratio of preferences fulfilled to preferences possible among "
                       "retrieved docs", "m_prefs_simp_ret.c"),
    "prefs_pair_ret": ("Average over doc pairs of preference ratio for that pair.",
                       "m_prefs_pair_ret.c"),
    "prefs_avgjg_ret": ("Simple ratio of preferences fulfilled to preferences possible",
                        "m_prefs_avgjg_ret.c"),
    "prefs_avgjg_Rnonrel_ret": ("Ratio of preferences fulfilled to preferences possible "
                                "within a judgment group", "m_prefs_avgjg_Rnonrel_ret.c"),
    "prefs_simp_imp": ("Simple ratio of preferences fulfilled to preferences possible.",
                       "m_prefs_simp_imp.c"),
    "prefs_pair_imp": ("Average over doc pairs of preference ratio for that pair.",
                       "m_prefs_pair_imp.c"),
    "prefs_avgjg_imp": ("Simple ratio of preferences fulfilled to preferences possible",
                        "m_prefs_avgjg_imp.c"),
    "map_avgjg": ("Mean Average Precision over judgment groups", "m_map_avgjg.c"),
    "P_avgjg": ("Precision at cutoffs, averaged over judgment groups (users)", "m_P_avgjg.c"),
    "Rprec_mult_avgjg": ("Precision measured at multiples of R(num_rel) averaged over users.",
                         "m_Rprec_mult_avgjg.c"),
    "yaap": ("Yet Another Average Precision", "m_yaap.c"),
    "rbp": ("Rank-Biased Precision", "m_rbp.c"),
    "rbp_resid": ("Rank-Biased Precision residual", "m_rbp_resid.c"),
    "unj": ("Unjudged at cutoffs", "m_unjudged.c"),
}


@dataclass(frozen=True)
class GlossaryEntry:
    """One measure of the glossary."""

    name: str
    trec_eval_title: str    # trec_eval's own name line ("" for Yardstick's own measures)
    trec_eval_source: str   # m_<name>.c, or "" when trec_eval has no such measure
    definition: str
    formula: str
    parameters: str
    range: str
    summary: str
    printed_as: str         # how trec_eval (or Yardstick) names its output column
    paper: str

    @property
    def paper_label(self) -> str:
        """"Paper", or "Defined in" for a measure trec_eval made up (no paper of its own)."""
        return "Defined in" if self.paper.startswith("trec_eval") else "Paper"

    def text(self) -> str:
        """The entry as a few lines of plain text."""
        head = f"{self.name} — {self.trec_eval_title}" if self.trec_eval_title else self.name
        lines = [head, f"  {self.definition}"]
        if self.formula:
            lines.append(f"  formula: {self.formula}")
        lines += [f"  parameters: {self.parameters}",
                  f"  range: {self.range}; over topics: {self.summary}",
                  f"  printed as: {self.printed_as}",
                  f"  {self.paper_label.lower()}: {self.paper}"]
        if self.trec_eval_source:
            lines.append(f"  trec_eval source: {self.trec_eval_source}")
        return "\n".join(lines)


def glossary(search: str = "") -> list[GlossaryEntry]:
    """Every measure (or those whose name, names or text contain every word of ``search``)."""
    out = []
    for r in measure_reference():
        title, source = TREC_EVAL_TITLES.get(r.name, ("", ""))
        out.append(GlossaryEntry(
            name=r.name, trec_eval_title=title, trec_eval_source=source,
            definition=r.definition, formula=r.formula, parameters=r.parameters,
            range=r.range, summary=r.summary, printed_as=r.trec_eval_name, paper=r.source))
    words = search.lower().split()
    if words:
        out = [e for e in out if all(w in " ".join(
            (e.name, e.trec_eval_title, e.definition, e.formula, e.paper)).lower()
            for w in words)]
    return out


def glossary_text(search: str = "") -> str:
    """The glossary as plain text, one block per measure."""
    return "\n\n".join(e.text() for e in glossary(search)) + "\n"


def glossary_html(search: str = "") -> str:
    """The glossary as HTML (headings with anchors named after the measures)."""
    parts = []
    for e in glossary(search):
        esc = html.escape
        title = f" — <i>{esc(e.trec_eval_title)}</i>" if e.trec_eval_title else ""
        rows = [("Formula", f"<code>{esc(e.formula)}</code>" if e.formula else ""),
                ("Parameters", esc(e.parameters)),
                ("Range", f"{esc(e.range)}; over topics: {esc(e.summary)}"),
                ("Printed as", f"<code>{esc(e.printed_as)}</code>"),
                (e.paper_label, esc(e.paper)),
                ("trec_eval", f"<code>{esc(e.trec_eval_source)}</code>"
                 if e.trec_eval_source else "")]
        table = "".join(f"<tr><td><b>{k}</b>&nbsp;</td><td>{v}</td></tr>" for k, v in rows if v)
        parts.append(f'<h3><a name="{esc(e.name)}"></a><code>{esc(e.name)}</code>{title}</h3>'
                     f"<p>{esc(e.definition)}</p><table>{table}</table>")
    if not parts:
        return "<p>No measure matches.</p>"
    return "".join(parts)
