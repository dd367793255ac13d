"""Topic files: TREC SGML, TREC XML, TSV (yardstick.inputs.io.topics_file).

Real files: ``../shared/data/robust04/topics.robust04.txt`` (TREC 2004 Robust,
topics 301-450 and 601-700 = 250 topics, classic SGML with unclosed tags) and
``../shared/data/vaswani_npl/query-text.trec`` (Terrier's conversion, closed
tags ``<num>1</num><title>``, 93 topics).  Expected texts are copied from those
files by hand.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from yardstick.common.errors import FormatError
from yardstick.inputs.io.topics_file import detect_topics_format, read_topics, write_topics

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
ROBUST04 = DATA / "robust04" / "topics.robust04.txt"
VASWANI = DATA / "vaswani_npl" / "query-text.trec"


def need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"extra check (../shared): {path} not available")
    return path


def test_robust04_topics_count_and_topic_301():
    t = read_topics(need(ROBUST04))
    assert list(t.columns) == ["topic", "title", "desc", "narr"]
    assert len(t) == 250
    ids = t["topic"].astype(int)
    assert set(ids) == set(range(301, 451)) | set(range(601, 701))
    first = t.iloc[0]
    assert first["topic"] == "301"
    assert first["title"] == "International Organized Crime"
    assert first["desc"] == ("Identify organizations that participate in international criminal "
                             "activity, the activity, and, if possible, collaborating "
                             "organizations and the countries involved.")
    assert first["narr"].startswith("A relevant document must as a minimum identify the "
                                    "organization and the type of illegal activity")
    last = t.iloc[-1]
    assert (last["topic"], last["title"]) == ("700", "gasoline tax U.S.")


def test_vaswani_closed_tags():
    t = read_topics(need(VASWANI))
    assert len(t) == 93
    assert t.iloc[0].to_dict() == {
        "topic": "1", "desc": "", "narr": "",
        "title": "MEASUREMENT OF DIELECTRIC CONSTANT OF LIQUIDS BY THE USE OF MICROWAVE TECHNIQUES"}


def test_sgml_labels_leading_zeros_and_unknown_tags():
    text = (b"<top>\n<head> Tipster Topic Description\n<num> Number: 051\n"
            b"<dom> Domain: International Economics\n<title> Topic: Airbus Subsidies\n\n"
            b"<desc> Description:\nDocument will discuss government assistance to Airbus.\n"
            b"<narr> Narrative:\nTo be relevant, a document must cite x < y.\n</top>\n")
    t = read_topics("t51.txt", data=text)
    assert t.iloc[0].to_dict() == {
        "topic": "51", "title": "Airbus Subsidies",
        "desc": "Document will discuss government assistance to Airbus.",
        "narr": "To be relevant, a document must cite x < y."}


def test_xml_topics_with_bare_ampersand_and_subtopics():
    text = (b'<?xml version="1.0"?>\n<webtrack2009>\n<topic number="1" type="faceted">\n'
            b"  <query>obama family tree</query>\n"
            b"  <description>Find information on President Barack Obama's family\n"
            b"  history & ancestors.</description>\n"
            b'  <subtopic number="1" type="nav">Find the TIME magazine photo essay.</subtopic>\n'
            b"</topic>\n"
            b'<topic number="2"><query>french lick resort</query><question>Where is it?'
            b"</question><narrative>Any page about it.</narrative></topic>\n</webtrack2009>\n")
    assert detect_topics_format(text.decode()) == "xml"
    t = read_topics("wt09.xml", data=text)
    assert t.to_dict("records") == [
        {"topic": "1", "title": "obama family tree",
         "desc": "Find information on President Barack Obama's family history & ancestors.",
         "narr": ""},
        {"topic": "2", "title": "french lick resort", "desc": "Where is it?",
         "narr": "Any page about it."}]


def test_tsv_topics_with_header_and_optional_columns():
    t = read_topics("q.tsv", data=b"qid\ttext\n1\thello  world\n2\tfoo\tbar baz\n\n3\ta\tb\tc\n")
    assert t.to_dict("records") == [
        {"topic": "1", "title": "hello world", "desc": "", "narr": ""},
        {"topic": "2", "title": "foo", "desc": "bar baz", "narr": ""},
        {"topic": "3", "title": "a", "desc": "b", "narr": "c"}]


def test_round_trip_through_sgml_and_gzip(tmp_path):
    t = read_topics(need(ROBUST04))
    out = tmp_path / "topics.txt"
    write_topics(t, out)
    assert read_topics(out).equals(t)
    gz = tmp_path / "topics.txt.gz"
    gz.write_bytes(gzip.compress(out.read_bytes()))
    assert read_topics(gz).equals(t)


@pytest.mark.parametrize("data, line, reason", [
    (b"<top>\n<num> Number: 1\n<title> x\n", 1, "never closed"),
    (b"<top><num>1</num><title>a</title></top>\n\n<top><num>1</num></top>\n", 3, "appears twice"),
    (b"<top>\n<num> Number: 1\n<top>\n", 3, "inside the topic opened on line 1"),
    (b"junk\n<top><num>1</num></top>\n", 1, "text outside <top>"),
    (b"<top>\n<title> no number\n</top>\n", 1, "has no number"),
    (b"<topics>\n<topic number=\"1\"><query>a</query>\n<topic></topics>\n", 3,
     "not well-formed XML"),
    (b"1\tok\n2 no tab here\n", 2, "no tab found"),
    (b"1\ta\tb\tc\td\n", 1, "2 to 4 tab-separated columns"),
])
def test_malformed_topics_name_the_line(data, line, reason):
    with pytest.raises(FormatError) as e:
        read_topics("bad.txt", data=data)
    assert e.value.line == line
    assert reason in e.value.reason
    assert e.value.path == "bad.txt"


def test_empty_file_is_a_format_error(tmp_path):
    p = tmp_path / "empty.txt"
    p.write_text("  \n")
    with pytest.raises(FormatError) as e:
        read_topics(p)
    assert e.value.line is None and "empty" in e.value.reason
