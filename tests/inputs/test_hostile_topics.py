"""Deeply nested topics are refused at once (issue 14: 17-39 s before, quadratic in the depth)."""

from __future__ import annotations

import pytest

from yardstick.common.errors import FormatError
from yardstick.inputs.io.topics_file import MAX_XML_DEPTH, read_topics


def test_nested_topic_elements_are_refused_with_the_bound(tmp_path):
    path = tmp_path / "nested.xml"
    path.write_text("<topics>" + '<topic number="1">' * 200 + "<title>x</title>" + "</topic>" * 200
                    + "</topics>")
    with pytest.raises(FormatError) as caught:
        read_topics(path)
    assert str(caught.value) == (f"{path}: has XML elements nested more than 64 deep (<topic>); "
                                 "TREC topics nest three deep")
    assert MAX_XML_DEPTH == 64


def test_nesting_up_to_the_bound_is_read(tmp_path):
    path = tmp_path / "deep.xml"
    inner = "<b>" * 60 + "deep title" + "</b>" * 60
    path.write_text(f'<topics><topic number="7"><title>{inner}</title></topic></topics>')
    frame = read_topics(path)
    assert list(frame["topic"]) == ["7"] and list(frame["title"]) == ["deep title"]
