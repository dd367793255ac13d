"""Preference judgments (``-R prefs``, ``-R qrels_prefs``) and judgment groups (``-R qrels_jg``).

1. trec_eval's own quicktest outputs for these formats (``out.test.prefs``,
   ``out.test.qrels_prefs``, ``out.test.qrels_jg``, identical in 10.0 and
   9.0.8), reproduced byte for byte in-process, with ``--compat 9`` too.
2. A hand-worked preference example, every value counted below.
3. The errors where trec_eval stops (or aborts), and the readers' errors.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.shared_data import data_dir
from yardstick.cli import main
from yardstick.common.errors import FormatError
from yardstick.common.options import EvalOptions
from yardstick.evaluation.measures.prefs_counts import build_preference_counts
from yardstick.evaluation.preference_eval import evaluate_prefs, evaluate_qrels_jg
from yardstick.inputs.io import read_run
from yardstick.inputs.io.prefs_file import read_prefs, read_qrels_jg

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
GOLD = data_dir("trec_eval_tests") / "v10.0_HEAD"
GOLD9 = data_dir("trec_eval_tests") / "v9.0.8"

#: quicktest_commands_from_Makefile.txt, the -R lines: (arguments, expected output)
COMMANDS = [
    ("-m all_prefs -q -R prefs prefs.test prefs.results.test", "out.test.prefs"),
    ("-m all_prefs -q -R prefs prefs.comment.test prefs.results.test", "out.test.prefs"),
    ("-m all_prefs -q -R qrels_prefs qrels.test results.test", "out.test.qrels_prefs"),
    ("-m qrels_jg -q -R qrels_jg qrels.123 results.test", "out.test.qrels_jg"),
    ("-m qrels_jg -q -R qrels_jg qrels.comments.123 results.test", "out.test.qrels_jg"),
]


def _argv(args: str, version: str) -> list[str]:
    out = []
    for a in args.split():
        if "." in a and not a.startswith("-") and (GOLD / a).exists():
            # v9.0.8 has no comment fixtures: those come from the v10 folder
            a = str(GOLD9 / a if version == "9" and (GOLD9 / a).exists() else GOLD / a)
        out.append(a)
    return ["eval", *(["--compat", "9"] if version == "9" else []), *out]


@pytest.mark.parametrize("version", ["10", "9"])
@pytest.mark.parametrize("args,expected", COMMANDS, ids=[c[0].split()[-2] for c in COMMANDS])
def test_quicktest_outputs_byte_for_byte(args, expected, version, capsys):
    if not GOLD.exists():
        pytest.skip(f"trec_eval test data not found at {GOLD}")
    status = main(_argv(args, version))
    out = capsys.readouterr()
    assert status == 0, out.err
    folder = GOLD9 if version == "9" else GOLD
    assert out.out == (folder / expected).read_text()


# ---------------------------------------------------------------------------
# Hand-worked example
# ---------------------------------------------------------------------------
PREFS = """\
q1 u1 s  A 2
q1 u1 s  B 1
q1 u1 s  C 0
q1 u1 s  D 0
q1 u2 s1 C 2
q1 u2 s1 A 1
q1 u2 s2 A 3
q1 u2 s2 D 1
q2 u1 s  A 1
q2 u1 s  B 0
q2 u1 s  C 0
q2 u1 s  D 0
"""
RUN = """\
q1 Q0 B 1 3.0 hand
q1 Q0 A 2 2.0 hand
q1 Q0 X 3 1.0 hand
q1 Q0 C 4 0.5 hand
q2 Q0 A 1 3.0 hand
q2 Q0 C 2 2.0 hand
q2 Q0 B 3 1.0 hand
"""


@pytest.fixture()
def hand(tmp_path):
    p, r = tmp_path / "hand.prefs", tmp_path / "hand.run"
    p.write_text(PREFS)
    r.write_text(RUN)
    return read_prefs(p), read_run(r), p, r


def test_hand_counts(hand):
    """Topic q1.  Docid ranks: retrieved judged docs in rank order B=0, A=1, C=2
    (X is unjudged), then the unretrieved D=3.

    JG u1 (one JSG, levels A 2 > B 1 > C = D 0): A>B (A below B: possible, not
    fulfilled), A>C and B>C (fulfilled, both retrieved), A>D and B>D (fulfilled,
    implied: D not retrieved).  -> ful_ret 2, poss_ret 3, ful_imp 2, poss_imp 2.
    JG u2 (two JSGs: C>A, A>D, and by transitivity C>D): C>A not fulfilled
    (possible, retrieved), A>D and C>D fulfilled implied.
    -> ful_ret 0, poss_ret 1, ful_imp 2, poss_imp 2.
    Relevant (level > 0): u1 A, B (both retrieved), non-relevant C (retrieved), D;
    u2 A, C, D relevant (A, C retrieved).
    """
    prefs, run, _, _ = hand
    pc = build_preference_counts(run, prefs)
    f = pc.to_frame().set_index(["topic", "jg"])
    assert pc.num_judged.tolist() == [4, 4] and pc.num_judged_ret.tolist() == [3, 3]
    row = f.loc[("q1", "u1")]
    assert [row[k] for k in ("ful_ret", "poss_ret", "ful_imp", "poss_imp", "notoccur")] \
        == [2, 3, 2, 2, 0]
    assert [row[k] for k in ("num_rel", "num_rel_ret", "num_nonrel", "num_nonrel_ret")] \
        == [2, 2, 2, 1]
    row = f.loc[("q1", "u2")]
    assert [row[k] for k in ("ful_ret", "poss_ret", "ful_imp", "poss_imp", "notoccur")] \
        == [0, 1, 2, 2, 0]
    assert [row[k] for k in ("num_rel", "num_rel_ret", "num_nonrel", "num_nonrel_ret")] \
        == [3, 2, 0, 0]


def test_hand_measures(hand):
    """Values of q1 and q2 (trec_eval 10.0 prints the same, rounded):

    q1: simp = (4+2)/(5+3) = 3/4; simp_ret = 2/(3+1) = 1/2;
    avgjg = (4/5 + 2/3)/2 = 11/15; avgjg_ret = (2/3 + 0/1)/2 = 1/3.
    pair: pairs {B,A}: 0 of 1 fulfilled; {B,C}: 1/1; {A,C}: u1 fulfils, u2 not: 1/2
    -> retrieved pairs sum 3/2 over 3; {B,D}, {A,D} (two prefs), {C,D}: 1 each
    -> pair = (3/2 + 3)/6 = 3/4, pair_ret = 1/2.
    Rnonrel: u1 has R = N = 2 (nothing added): 4/5; u2 has R = 3, N = 0: add
    R-N = 3 fulfilled per retrieved relevant doc (2) and possible per relevant
    doc (3): (2 + 6)/(3 + 9) = 2/3 -> (4/5 + 2/3)/2 = 11/15.
    Rnonrel_ret: u1 R_ret = 2, N_ret = 1: (2 + 2*1)/(3 + 2*1) = 4/5; u2
    R_ret = 2, N_ret = 0: (0 + 2*2)/(1 + 3*2) = 4/7 (trec_eval adds num_rel, not
    num_rel_ret, to the possible count) -> (4/5 + 4/7)/2 = 24/35.

    q2 (one JG, A 1 > B = C = D 0; ranking A, C, B; D not retrieved): every
    preference fulfilled, so simp = pair = avgjg = 1.  R = 1 < N = 3, so
    trec_eval recounts with the non-relevant class cut to its first R = 1
    document (C, docid 1) but pairs *every* document (the cut class included)
    with it: A<C fulfilled, C-C, B-C, D-C not: 1/4.  Among retrieved only
    (A, C, B): 1/3.
    """
    prefs, run, _, _ = hand
    ev = evaluate_prefs(run, prefs, ["all_prefs"])
    t = ev.per_topic
    q1 = {"prefs_num_prefs_poss": 8, "prefs_num_prefs_ful": 6, "prefs_num_prefs_ful_ret": 2,
          "prefs_simp": 3 / 4, "prefs_simp_ret": 1 / 2, "prefs_simp_imp": 3 / 4,
          "prefs_avgjg": 11 / 15, "prefs_avgjg_ret": 1 / 3, "prefs_avgjg_imp": 11 / 15,
          "prefs_pair": 3 / 4, "prefs_pair_ret": 1 / 2, "prefs_pair_imp": 3 / 4,
          "prefs_avgjg_Rnonrel": 11 / 15, "prefs_avgjg_Rnonrel_ret": 24 / 35}
    q2 = {"prefs_num_prefs_poss": 3, "prefs_num_prefs_ful": 3, "prefs_num_prefs_ful_ret": 2,
          "prefs_simp": 1.0, "prefs_pair": 1.0, "prefs_avgjg": 1.0,
          "prefs_avgjg_Rnonrel": 1 / 4, "prefs_avgjg_Rnonrel_ret": 1 / 3}
    for name, v in q1.items():
        assert t.loc["q1", name] == pytest.approx(v, abs=1e-12), name
    for name, v in q2.items():
        assert t.loc["q2", name] == pytest.approx(v, abs=1e-12), name
    assert ev.summary["prefs_num_prefs_poss"] == 11
    assert ev.summary["prefs_avgjg_Rnonrel"] == pytest.approx((11 / 15 + 1 / 4) / 2)


def test_hand_cli_text(hand, capsys):
    _, _, p, r = hand
    assert main(["eval", "-q", "-m", "prefs_avgjg_Rnonrel_ret", "-R", "prefs",
                 str(p), str(r)]) == 0
    assert capsys.readouterr().out == (
        "prefs_avgjg_Rnonrel_ret\tq1\t0.6857\n"
        "prefs_avgjg_Rnonrel_ret\tq2\t0.3333\n"
        "prefs_avgjg_Rnonrel_ret\tall\t0.5095\n")


def test_max_docs_cuts_ranking(hand):
    """-M 1 keeps B for q1 and A for q2: in q1 only B is retrieved-judged, so of
    u1's five preferences B>C, B>D are fulfilled implied and A>B possible implied."""
    prefs, run, _, _ = hand
    pc = build_preference_counts(run, prefs, EvalOptions(max_docs=1))
    assert pc.num_judged_ret.tolist() == [1, 1]
    row = pc.to_frame().set_index(["topic", "jg"]).loc[("q1", "u1")]
    assert [row[k] for k in ("ful_ret", "poss_ret", "ful_imp", "poss_imp", "notoccur")] \
        == [0, 0, 2, 3, 2]


def test_qrels_jg_hand(tmp_path):
    """Ranking A, B, C.  Group g1 judges A and C relevant: AP = (1/1 + 2/3)/2 = 5/6;
    g2 judges B and D (not retrieved): AP = (1/2)/2 = 1/4.  map_avgjg = 13/24;
    P_avgjg_2 = (1/2 + 1/2)/2; Rprec_mult_avgjg_1.00 = P@R = (1/2 + 1/2)/2."""
    q = tmp_path / "q.jg"
    q.write_text("7 g1 A 1\n7 g1 C 1\n7 g1 B 0\n7 g2 B 1\n7 g2 D 2\n")
    r = tmp_path / "r.run"
    r.write_text("7 Q0 A 1 3 t\n7 Q0 B 2 2 t\n7 Q0 C 3 1 t\n")
    ev = evaluate_qrels_jg(read_run(r), read_qrels_jg(q),
                           ["map_avgjg", "P_avgjg.2", "Rprec_mult_avgjg.1.0"])
    assert ev.per_topic.loc["7", "map_avgjg"] == pytest.approx(13 / 24)
    assert ev.per_topic.loc["7", "P_avgjg_2"] == pytest.approx(0.5)
    assert ev.per_topic.loc["7", "Rprec_mult_avgjg_1.00"] == pytest.approx(0.5)


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("text,reason", [
    # trec_eval aborts: "Pref inconsistency found"
    ("q1 u s1 A 2\nq1 u s1 B 1\nq1 u s2 B 2\nq1 u s2 A 1\n", "cycle"),
    # "doc 'B' has both 0 and non-0 rel_level assigned"
    ("q1 u s1 A 2\nq1 u s1 B 0\nq1 u s2 B 1\nq1 u s2 C 0\n", "both 0 and non-0"),
    # "Internal docid 1 occurs with different rel_level in same jsg"
    ("q1 u s A 2\nq1 u s A 1\nq1 u s B 0\n", "two different rel_levels"),
])
def test_inconsistent_preferences_are_errors(tmp_path, text, reason):
    p = tmp_path / "bad.prefs"
    p.write_text(text)
    r = tmp_path / "r.run"
    r.write_text("q1 Q0 A 1 2 t\nq1 Q0 B 2 1 t\n")
    with pytest.raises(FormatError, match=reason):
        build_preference_counts(read_run(r), read_prefs(p))


def test_reader_errors_name_the_line(tmp_path):
    p = tmp_path / "p.prefs"
    p.write_text("# comment\nq1 u s A 1\nq1 u s B\n")
    with pytest.raises(FormatError) as e:
        read_prefs(p)
    assert e.value.line == 3 and "expected 5 columns" in e.value.reason
    p.write_text("q1 u s A high\n")
    with pytest.raises(FormatError, match="not a number"):
        read_prefs(p)
    q = tmp_path / "q.jg"
    q.write_text("1 g A 1\n1 g B 0\n1 g A 2\n")
    with pytest.raises(FormatError) as e:
        read_qrels_jg(q)
    assert e.value.line == 3 and "judged twice" in e.value.reason


def test_measures_need_their_format(tmp_path, capsys, hand):
    _, _, p, r = hand
    assert main(["eval", "-m", "map", "-R", "prefs", str(p), str(r)]) == 1
    assert "not computable from -R prefs" in capsys.readouterr().err
    qrels = tmp_path / "q.qrels"
    qrels.write_text("q1 0 A 1\n")
    assert main(["eval", "-m", "prefs_simp", str(qrels), str(r)]) == 1
    assert "-R prefs" in capsys.readouterr().err


def test_default_measures_follow_format(hand, capsys):
    """Without -m, trec_eval's 'official' cannot be computed from preferences;
    Yardstick uses the format's own set (all_prefs)."""
    _, _, p, r = hand
    assert main(["eval", "-R", "prefs", str(p), str(r)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [ln.split("\t")[0].strip() for ln in lines][:3] == \
        ["runid", "num_q", "prefs_num_prefs_poss"]
    assert lines[1].endswith("\t2")


def test_complete_flag_counts_missing_topics(hand):
    """-c: q3 has judgments but no results.  trec_eval 10.0 evaluates it on an
    empty ranking (all 1 preference not occurring: simp 0); 9.0.8 skips it but
    still divides by the 3 judged topics."""
    prefs, run, _, _ = hand
    import pandas as pd

    from yardstick.inputs.io.prefs_file import PrefsJudgments

    extra = pd.concat([prefs.frame, pd.DataFrame(
        {"topic": ["q3", "q3"], "jg": ["u", "u"], "jsg": ["s", "s"], "docno": ["A", "B"],
         "rel_level": [1.0, 0.0]})])
    prefs3 = PrefsJudgments.from_frame(extra)
    ev10 = evaluate_prefs(run, prefs3, ["prefs_simp", "num_q", "prefs_num_prefs_poss"],
                          EvalOptions(complete=True))
    assert ev10.per_topic.index.tolist() == ["q1", "q2", "q3"]
    assert ev10.per_topic.loc["q3", "prefs_num_prefs_poss"] == 1
    assert ev10.per_topic.loc["q3", "prefs_simp"] == 0
    ev9 = evaluate_prefs(run, prefs3, ["prefs_simp", "num_q"],
                         EvalOptions(complete=True, compat=9))
    assert ev9.per_topic.index.tolist() == ["q1", "q2"]
    for ev in (ev10, ev9):
        assert ev.summary["num_q"] == 3
        assert ev.summary["prefs_simp"] == pytest.approx((3 / 4 + 1.0) / 3)
    assert np.isfinite(ev10.summary.to_numpy()).all()
