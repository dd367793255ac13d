"""A document collection held as text: ``docno -> text`` with titles on the side.

:class:`Documents` *is* a read-only mapping ``docno -> text`` (what
``Workspace.documents`` expects and what titlestat reads), and carries each
document's title separately (``documents.title[docno]``) because pool
diagnostics such as titlestat (Buckley et al. 2007, “Bias and the limits of pooling for large
collections”, Information Retrieval 2007, section 3.3)
look at title words.  The text always includes the title, so a retrieval model
that indexes ``text`` sees it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

import pandas as pd


def clean_lines(text: str) -> str:
    """The canonical form of a document's text: lines stripped, blank runs cut to one.

    Every reader returns texts in this form, so a collection written as TREC
    text and read back gives the same strings.
    """
    out: list[str] = []
    for line in text.split("\n"):
        line = line.strip()
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip()


@dataclass(frozen=True, eq=False)
class Documents(Mapping):
    """Documents of one collection, in file order.

    Attributes
    ----------
    text : Mapping[str, str]
        docno -> full text (title included).
    title : Mapping[str, str]
        docno -> title ("" when the format has none, e.g. Vaswani).
    name : str
        What the collection is called (file or collection name).
    warnings : tuple of str
        Defects found and worked around while reading (duplicate records,
        orphan fragments), for the user to see; empty for clean files.
    """

    text: Mapping[str, str]
    title: Mapping[str, str] = field(default_factory=dict)
    name: str = "documents"
    warnings: tuple[str, ...] = ()

    def __getitem__(self, docno: str) -> str:
        return self.text[docno]

    def __iter__(self) -> Iterator[str]:
        return iter(self.text)

    def __len__(self) -> int:
        return len(self.text)

    @property
    def docnos(self) -> list[str]:
        return list(self.text)

    def title_of(self, docno: str) -> str:
        return self.title.get(docno, "")

    def to_frame(self) -> pd.DataFrame:
        """Columns ``docno``, ``title``, ``text`` in file order."""
        docnos = list(self.text)
        return pd.DataFrame({"docno": docnos,
                             "title": [self.title.get(d, "") for d in docnos],
                             "text": [self.text[d] for d in docnos]})

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, name: str = "documents") -> "Documents":
        """From columns ``docno``, ``text`` and optionally ``title``."""
        docnos = frame["docno"].astype(str).tolist()
        texts = frame["text"].astype(str).tolist()
        titles = (frame["title"].astype(str).tolist() if "title" in frame
                  else [""] * len(docnos))
        return cls(text=dict(zip(docnos, texts)), title=dict(zip(docnos, titles)), name=name)
