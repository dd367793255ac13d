"""Tiny classic collections written by hand, one per distributed format (a helper).

The real CACM, CISI, LISA and Vaswani files (``../shared/data``) carry no licence,
so the repository does not hold them; these few records reproduce each format
and its known traps (``../shared/data/README.md`` lists them), with every count
known by construction:

* Cranfield (SMART, ``cran.all.1400``/``cran.qry``/``cranqrel``): CRLF line ends,
  query ``.I`` numbers that skip (qrels number queries by position), ``.W``
  repeating the title, an empty record, a stray ``.A`` inside the text,
  Cleverdon's codes 1-4 and -1 with trailing spaces, no final newline;
* CACM (SMART): a trailing empty ``.I 0`` query, zero-padded query ids in
  ``qrels.text`` (``01 1410  0 0``), documents without ``.W``;
* CISI (SMART): one ``.A`` line per author, queries with and without ``.T``,
  ``CISI.REL`` aligned with spaces;
* LISA (Glasgow): 14 document files (``Document N``, title lines, blank line,
  abstract, ``****`` line), a document repeated identically in two files,
  ``LISA.QUE`` ended by ``#``, ``LISARJ.NUM`` wrapped over lines;
* Vaswani (Terrier's TREC conversion): ``<DOC>`` records without titles,
  title-only topics, binary qrels.
"""

from __future__ import annotations

from pathlib import Path

CRAN_DOCS = (".I 1\n.T\nexperimental wing in a slipstream .\n.A\nbrenckman,m.\n.B\nj. ae. 25.\n"
             ".W\nexperimental wing in a slipstream .\n  the lift of a wing in a propeller "
             "slipstream .\n"
             ".I 2\n.T\nboundary layer flow .\n.A\n\n.B\n\n.W\nboundary layer flow .\n"
             "heat transfer in the boundary layer .\n.A\nturbulent separations follow .\n"
             ".I 3\n.T\n\n.A\n\n.B\n\n.W\n\n")
CRAN_QRY = (".I 001\n.W\nwing lift in a slipstream .\n.I 004\n.W\nturbulent boundary layer "
            "heat transfer .\n")
CRAN_QREL = "1 1 1 \n1 2 4 \n1 3 -1\n2 2 2 \n2 1 3 \n2 3 -1"

CACM_DOCS = (".I 1\n.T\nPreliminary Report-International Algebraic Language\n.B\nCACM December, "
             "1958\n.A\nPerlis, A. J.\n.N\nCA581203 JB\n.X\n100\t5\t1\n"
             ".I 1410\n.T\nTime sharing systems\n.W\nA time sharing system for IBM "
             "computers.\n.B\nCACM 1970\n"
             ".I 1572\n.T\nOperating systems\n.W\nPaging in an operating system.\n")
CACM_QRY = (".I 1\n.W\n What articles exist which deal with TSS (Time Sharing System)?\n.N\n 1. "
            "R. Alexander\n \n.I 2\n.W\n Paging in operating systems.\n.N\n 2. H. Perkins\n\n"
            ".I 0\n")
CACM_QRELS = "01 1410  0 0\n01 1572  0 0\n02 1572  0 0"

CISI_DOCS = (".I 1\n.T\n18 Editions of the Dewey Decimal Classifications\n.A\nComaromi, J.P.\n"
             ".A\nSatija, M.P.\n.W\n   The present study is a history of the DEWEY Decimal\n"
             "Classification.\n.X\n1\t5\t1\n"
             ".I 2\n.T\nUse Made of Technical Libraries\n.A\nSlater, M.\n.W\nThis report is an "
             "analysis of 6300 acts of use.\n")
CISI_QRY = (".I 1\n.W\nWhat problems and concerns are there in making up descriptive titles?\n"
            ".I 2\n.T\nLibrary use studies\n.A\nSlater, M.\n.W\nHow are technical libraries "
            "used?\n.B\n1969\n")
CISI_REL = "     1     1 0 0.000000\n     2     2 0 0.000000\n     2     1 0 0.000000\n"

STARS = "*" * 44 + "\n"
#: one document per file (Document n in the n-th file); Document 2 again, identical, in file 3
LISA_DOCS = [f"Document {n:>3}\nTITLE OF DOCUMENT {n}\n\nAbstract of document {n}.\n" + STARS
             for n in range(1, 15)]
LISA_DOCS[0] = ("Document  1\nTHE INDIAN COUNCIL OF LIBRARY AND INFORMATION SERVICES\n"
                "RESEARCH AND TRAINING.\n\nA proposal for a council.\n" + STARS)
LISA_DOCS[2] = LISA_DOCS[1] + LISA_DOCS[2]
LISA_QUE = ("1\nI AM INTERESTED IN THE IDENTIFICATION AND EVALUATION OF\nLIBRARY SERVICES. #\n"
            "2\nONLINE SEARCHING OF CATALOGUES. #\n")
LISA_RJ = "1 2 1\n 3\n2 1 3\n"

VASWANI_DOCS = ("<DOC>\n<DOCNO>1</DOCNO>\ncompact memories have flexible capacities\n</DOC>\n"
                "<DOC>\n<DOCNO>2</DOCNO>\nelectronic switching circuits\n</DOC>\n")
VASWANI_QRY = ("<top>\n<num>1</num>\n<title>MEASUREMENT OF DIELECTRIC CONSTANT</title>\n</top>\n"
               "<top>\n<num>2</num>\n<title>SWITCHING CIRCUITS</title>\n</top>\n")
VASWANI_QRELS = "1 0 1 1\n2 0 2 1\n"

LISA_FILES = ("LISA0.001", "LISA0.501", "LISA1.001", "LISA1.501", "LISA2.001", "LISA2.501",
              "LISA3.001", "LISA3.501", "LISA4.001", "LISA4.501", "LISA5.001", "LISA5.501",
              "LISA5.627", "LISA5.850")

FILES: dict[str, dict[str, str]] = {
    "cranfield": {"cran.all.1400": CRAN_DOCS, "cran.qry": CRAN_QRY, "cranqrel": CRAN_QREL},
    "cacm": {"cacm.all": CACM_DOCS, "query.text": CACM_QRY, "qrels.text": CACM_QRELS},
    "cisi": {"CISI.ALL": CISI_DOCS, "CISI.QRY": CISI_QRY, "CISI.REL": CISI_REL},
    "lisa": {**dict(zip(LISA_FILES, LISA_DOCS)), "LISA.QUE": LISA_QUE,
             "LISARJ.NUM": LISA_RJ},
    "vaswani": {"doc-text.trec": VASWANI_DOCS, "query-text.trec": VASWANI_QRY,
                "qrels": VASWANI_QRELS},
}


def write_collection(name: str, root: Path) -> Path:
    """Write the tiny ``name`` collection into ``root`` (Cranfield's files with CRLF)."""
    root.mkdir(parents=True, exist_ok=True)
    for fname, text in FILES[name].items():
        data = text.replace("\n", "\r\n") if name == "cranfield" else text
        (root / fname).write_bytes(data.encode())
    return root
