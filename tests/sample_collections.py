"""Classic-collection folders the tests can always read (a helper, not a test).

:func:`cranfield_root` is ``../shared/data/cranfield`` when it is there, else the
same collection written back into the Glasgow SMART files (``cran.all.1400``,
``cran.qry``, ``cranqrel``) from the bundled sample ``resources/sample`` (the
1,400 documents, 225 queries and 1,837 judgments the repository already
carries; source and licence in ``resources/sample/README.md``).  The rebuilt
files keep the format's traps: CRLF line endings, ``.I`` query numbers that skip
(the qrels number queries by position), Cleverdon's codes (1 = most relevant,
``-1`` = the source document) with a trailing space and no final newline.

Only what the files say is rebuilt: the defects of the distributed copy
(the empty document 471, the stray ``.A`` inside document 240) are checked on
the real files only.  Written once per machine into a temporary folder named
after this file's and the sample's hashes.
"""

from __future__ import annotations

from pathlib import Path

from tests.shared_data import SHARED, generated_folder
from yardstick.inputs.bundled import RESOURCES

SAMPLE = RESOURCES / "sample"
REAL_CRANFIELD = (SHARED / "cranfield").is_dir()


def _write_cranfield(dest: Path) -> None:
    from yardstick.inputs.io.documents_file import read_documents
    from yardstick.inputs.io.qrels_file import read_qrels
    from yardstick.inputs.io.topics_file import read_topics

    docs = read_documents(SAMPLE / "cranfield.trec.xz")
    topics = read_topics(SAMPLE / "cranfield.topics")
    qrels = read_qrels(SAMPLE / "cranfield.qrels")
    dest.mkdir(parents=True)
    recs = []
    for d in docs:
        recs.append(f".I {d}\n.T\n{docs.title[d]}\n.A\n\n.B\n\n.W\n{docs[d]}\n")
    (dest / "cran.all.1400").write_bytes("".join(recs).replace("\n", "\r\n").encode())
    # the n-th query is qrels topic n; its .I number skips (1, 2, 4, 5, 7 ...)
    qry = [f".I {n + n // 2:03d}\n.W\n{title}\n"
           for n, title in enumerate(topics["title"], start=1)]
    (dest / "cran.qry").write_bytes("".join(qry).replace("\n", "\r\n").encode())
    f = qrels.frame
    code = [(-1 if r < 0 else 5 - r) for r in f["rel"]]
    lines = [f"{t} {d} {c} " for t, d, c in zip(f["topic"], f["docno"], code)]
    (dest / "cranqrel").write_bytes("\r\n".join(lines).encode())


def cranfield_root() -> Path:
    """``../shared/data/cranfield``, else the SMART files rebuilt from the bundled sample."""
    if REAL_CRANFIELD:
        return SHARED / "cranfield"
    return generated_folder("cranfield", [Path(__file__), *sorted(SAMPLE.glob("cranfield.*"))],
                            _write_cranfield)
