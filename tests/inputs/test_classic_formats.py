"""Every classic-collection format, read from tiny hand-written files
(``tests/classic_formats.py``).

The repository-only counterpart of ``tests/test_classic_collections.py``, whose
documented counts and defects need the real files in ``../shared/data``: the same
readers and the same traps (CRLF, skipping query numbers, Cleverdon's codes, an
empty record, a stray field marker, CACM's empty ``.I 0`` and zero-padded qrels,
CISI's repeated ``.A`` and titled queries, LISA's 14 files with a repeated
document and ``#``-ended queries, Vaswani's untitled TREC documents), with every
expected value known from the listing.
"""

from __future__ import annotations

import pytest

from tests.classic_formats import write_collection
from yardstick.inputs.collections import load_classic


@pytest.fixture()
def load(tmp_path):
    return lambda name: load_classic(name, write_collection(name, tmp_path / name))


@pytest.mark.parametrize("name, counts", [
    ("cranfield", (3, 2, 2, 6)), ("cacm", (3, 2, 2, 3)), ("cisi", (2, 2, 2, 3)),
    ("lisa", (14, 2, 2, 3)), ("vaswani", (2, 2, 2, 2)),
])
def test_counts_and_consistency(load, name, counts):
    col = load(name)
    assert tuple(col.summary().values()) == counts
    assert set(col.qrels.frame["docno"]) <= set(col.documents)
    assert set(col.qrels.frame["topic"]) <= set(col.topics["topic"])


def test_cranfield_traps(load):
    col = load("cranfield")
    # .I 001 and .I 004 are queries 1 and 2 (numbered by position, as cranqrel does)
    assert col.topics["topic"].tolist() == ["1", "2"]
    assert col.topics["title"].tolist()[1] == "turbulent boundary layer heat transfer ."
    # codes 1..4 -> grades 5 - code; -1 (the source document) kept, once per query
    rel = {(t, d): r for t, d, r in col.qrels.frame.itertuples(index=False)}
    assert rel == {("1", "1"): 4, ("1", "2"): 1, ("1", "3"): -1,
                   ("2", "2"): 3, ("2", "1"): 2, ("2", "3"): -1}
    d = col.documents
    assert d.title["1"] == "experimental wing in a slipstream ."
    assert d["1"].count("experimental wing") == 1            # .W repeats the title
    assert d["3"] == "" and d.title["3"] == ""                # empty record, kept
    assert "turbulent separations follow ." in d["2"]         # text after a stray .A
    assert ".A" not in d["2"].split("\n")
    assert any(".I 2 repeats field .A" in w for w in col.warnings)


def test_cacm_traps(load):
    col = load("cacm")
    assert "0" not in set(col.topics["topic"])
    assert any(".I 0 is empty" in w for w in col.warnings)
    f = col.qrels.frame
    assert ("1", "1410") in set(zip(f["topic"], f["docno"]))  # "01 1410  0 0"
    assert set(f["rel"]) == {1}
    assert col.documents["1"] == "Preliminary Report-International Algebraic Language"


def test_cisi_traps(load):
    col = load("cisi")
    assert col.warnings == ()
    assert col.documents.title["1"] == "18 Editions of the Dewey Decimal Classifications"
    t = col.topics.set_index("topic")
    assert t.loc["2", "title"] == "Library use studies"          # .T is the title ...
    assert t.loc["2", "desc"] == "How are technical libraries used?"   # ... .W the description
    assert t.loc["1", "desc"] == "" and t.loc["1", "title"].startswith("What problems")


def test_lisa_traps(load):
    col = load("lisa")
    d = col.documents
    assert d.title["1"] == ("THE INDIAN COUNCIL OF LIBRARY AND INFORMATION SERVICES RESEARCH "
                            "AND TRAINING.")
    assert list(d) == [str(i) for i in range(1, 15)]
    assert sum("repeated (identical)" in w for w in col.warnings) == 1
    assert col.topics.iloc[0]["title"].startswith("I AM INTERESTED IN THE IDENTIFICATION")
    f = col.qrels.frame                      # "1 2 1 / 3": query 1 has documents 1 and 3
    assert sorted(f[f["topic"] == "1"]["docno"]) == ["1", "3"]


def test_vaswani_has_no_titles(load):
    col = load("vaswani")
    assert set(col.documents.title.values()) == {""}
    assert col.documents["1"] == "compact memories have flexible capacities"
    assert col.topics["title"].tolist() == ["MEASUREMENT OF DIELECTRIC CONSTANT",
                                            "SWITCHING CIRCUITS"]
