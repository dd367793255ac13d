"""core.topic_group_spec: topic groups from typed ranges, files and table rows (hand counts)."""

from __future__ import annotations

import pandas as pd
import pytest

from yardstick.analysis.topic_group_spec import (
    check_group_name,
    groups_frame,
    parse_group_text,
    read_group_file,
    topics_in_rows,
    unique_group_name,
)
from yardstick.common.errors import FormatError


def test_ranges_and_single_ids():
    # 301, 302, 303 from the range, then 305: four topics
    assert parse_group_text("301-303,305").topics == ("301", "302", "303", "305")
    # the brief's example: two ranges of 50 topics each, commas and spaces
    g = parse_group_text("301-350, 601-650")
    assert len(g.topics) == 100 and g.topics[0] == "301" and g.topics[-1] == "650"
    assert g.topics[49:51] == ("350", "601")
    # duplicates count once, order kept
    assert parse_group_text("305 301-302 305").topics == ("305", "301", "302")


def test_known_topics_filter_and_report_unknown():
    known = ["301", "303", "305", "307"]
    g = parse_group_text("301-303,305,309", known)
    assert g.topics == ("301", "303", "305")
    assert g.unknown == ("302", "309")
    assert "3 topics" in g.describe() and "2 not in the collection" in g.describe()
    with pytest.raises(ValueError, match="none of the topics"):
        parse_group_text("400-402", known)


@pytest.mark.parametrize("bad", ["", "   ", "303-301"])
def test_bad_specs(bad):
    with pytest.raises(ValueError):
        parse_group_text(bad)


def test_group_file_one_topic_per_line(tmp_path):
    p = tmp_path / "hard.txt"
    p.write_text("# hard topics\n303\n\n307\n320-322\n", encoding="utf-8")
    assert read_group_file(p) == {"hard": ["303", "307", "320", "321", "322"]}
    named = tmp_path / "groups.txt"
    named.write_text("old: 301-302\nnew: 601\n", encoding="utf-8")
    assert read_group_file(named) == {"old": ["301", "302"], "new": ["601"]}
    unknown = tmp_path / "u.txt"
    unknown.write_text("303\n999\n", encoding="utf-8")
    with pytest.raises(FormatError) as e:
        read_group_file(unknown, known=["303"])
    assert e.value.line == 2


def test_topics_in_rows_index_or_column():
    by_index = pd.DataFrame({"map": [0.1, 0.2, 0.3]},
                            index=pd.Index(["301", "302", "303"], name="topic"))
    assert topics_in_rows(by_index, [2, 0]) == ["303", "301"]
    by_col = pd.DataFrame({"topic": ["9", "10", "10"], "x": [1, 2, 3]})
    assert topics_in_rows(by_col, [0, 1, 2]) == ["9", "10"]
    runs = pd.DataFrame({"map": [0.1]}, index=pd.Index(["runA"], name="run"))
    assert topics_in_rows(runs, [0]) == []


def test_names_and_list():
    assert unique_group_name("sel", []) == "sel"
    assert unique_group_name("sel", ["sel", "sel (2)"]) == "sel (3)"
    with pytest.raises(ValueError, match="already"):
        check_group_name("a", ["a", "b"], old="b")
    assert check_group_name(" a ", ["a"], old="a") == "a"
    f = groups_frame({"g": ["301", "302", "999"]}, known=["301", "302"])
    assert f.loc["g", "topics"] == 3 and f.loc["g", "in collection"] == 2
    assert f.loc["g", "members"] == "301, 302, 999"
