"""Topic groups: specs, files, per-group diagnostics and comparisons."""

import numpy as np
import pandas as pd
import pytest

from yardstick.analysis.stability.error_rate import error_rate
from yardstick.analysis.stability.topic_groups import (
    compare_groups,
    group_rank_correlation,
    parse_group_arg,
    parse_topic_spec,
    read_topic_groups,
    run_per_group,
    select_topics,
)
from yardstick.common.errors import FormatError
from yardstick.common.progress import run_sync


def test_parse_topic_spec():
    assert parse_topic_spec("301-303,310, 305-305") == ["301", "302", "303", "310", "305"]
    assert parse_topic_spec("301-303 302 NP1") == ["301", "302", "303", "NP1"]
    known = ["301", "303", "310", "601", "WT04-1"]
    assert parse_topic_spec("301-350", known) == ["301", "303", "310"]
    assert parse_topic_spec("WT04-1,601", known) == ["WT04-1", "601"]
    with pytest.raises(ValueError, match="unknown topic"):
        parse_topic_spec("302", known)
    with pytest.raises(ValueError, match="reversed"):
        parse_topic_spec("350-301")
    with pytest.raises(ValueError, match="no topics"):
        parse_topic_spec("700-710", known)
    assert parse_group_arg("old=301-303") == ("old", ["301", "302", "303"])
    with pytest.raises(ValueError):
        parse_group_arg("301-303")


def test_read_topic_groups_formats(tmp_path):
    f = tmp_path / "groups.txt"
    f.write_text("# old vs new\nold: 301-303\nnew: 601,602\nnp\tNP1\nnp\tNP2\n", encoding="utf-8")
    assert read_topic_groups(f) == {"old": ["301", "302", "303"], "new": ["601", "602"],
                                    "np": ["NP1", "NP2"]}
    bare = tmp_path / "hard.txt"
    bare.write_text("303\n310\n", encoding="utf-8")
    assert read_topic_groups(bare) == {"hard": ["303", "310"]}
    bad = tmp_path / "bad.txt"
    bad.write_text("old: 301-302\nnew: 999\n", encoding="utf-8")
    with pytest.raises(FormatError) as e:
        read_topic_groups(bad, known=["301", "302"])
    assert e.value.line == 2


def _scores():
    rng = np.random.default_rng(1)
    topics = [str(t) for t in range(301, 321)] + [str(t) for t in range(601, 621)]
    vals = rng.random((40, 5)) * 0.5
    vals[20:] += 0.3                      # "new" topics are easier
    return pd.DataFrame(vals, index=topics, columns=list("ABCDE"))


def test_run_per_group_and_compare():
    s = _scores()
    groups = {"old": parse_topic_spec("301-320", s.index), "new": parse_topic_spec("601-620")}
    res = run_sync(run_per_group(error_rate, s, groups, samples=50, seed=3))
    assert set(res.results) == {"old", "new"} and res.topics["old"] == groups["old"]
    # the per-group result is exactly the diagnostic on the group's rows
    alone = run_sync(error_rate(s.loc[groups["new"]], samples=50, seed=3))
    assert np.array_equal(res.results["new"].gt, alone.gt)
    side = compare_groups(res)
    assert list(side.columns) == ["old", "new"] and side.loc["subset_size", "old"] == 10
    frame = res.to_frame()
    assert frame["group"].value_counts().to_dict() == {"old": 10, "new": 10}
    with pytest.raises(ValueError):
        select_topics(s, ["999"])


def test_group_rank_correlation_uses_group_means():
    s = _scores()
    old, new = list(s.index[:20]), list(s.index[20:])
    res = group_rank_correlation(s, old, new, "old", "new")
    assert list(res.ranking_a) == list(s.loc[old].mean().sort_values(ascending=False).index)
    assert list(res.ranking_b) == list(s.loc[new].mean().sort_values(ascending=False).index)
