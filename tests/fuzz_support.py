"""Mutated real files for fuzzing the readers (a helper, not a test).

Shared by ``tests/test_fuzz_readers.py`` (hypothesis, bounded) and
``benchmarks/fuzz_readers.py`` (longer, random seeds, outcome counts).

* :data:`SEED_FILES` names small slices of real files from ``../shared/data``, each
  with a stand-in from the repository when that folder is absent
  (first ~200 lines of a Robust 2003 run and qrels, Robust 2004 topics,
  Cranfield ``cran.qry``/``cranqrel``, CACM ``query.text``/``qrels.text``/``cacm.all``,
  LISA ``LISA.QUE``/``LISARJ.NUM``) and a session written by the real writer.
* :data:`MUTATIONS` are the hostile edits (truncated lines, missing and extra
  columns, NaN/inf/huge scores, bad relevance, duplicate lines, mixed white
  space, CRLF, BOM, Latin-1, NUL, empty, binary, directory, gzip garbage ...);
  :func:`mutate` applies a list of them, driven by a :class:`random.Random`.
* :data:`READERS` maps a reader name to its seed, the function that reads a
  path, and a checker that says whether what it loaded is right.  For runs and
  qrels the checker is an independent parse (trec_eval's rules, written out
  below); for the other formats it checks invariants.
* :func:`outcome` runs one reader on one input and classifies what happened:
  ``"loaded"``, ``"error+line"``, ``"error(file)"`` or ``"BUG: ..."`` (an
  exception other than FormatError, a FormatError that does not name the
  file or names a line that is not there, or a load that disagrees with the
  checker).
"""

from __future__ import annotations

import gzip
import json
import math
import random
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from yardstick.common.errors import FormatError
from yardstick.inputs.io.text_source import decode_text

ROOT = Path(__file__).resolve().parents[1]
from tests.shared_data import SHARED as DATA  # noqa: E402  (YARDSTICK_TESTS_NO_SHARED hides it)

# ------------------------------------------------------------------ seeds


def _lines(path: Path, n: int = 200) -> bytes:
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return b"".join(raw.splitlines(keepends=True)[:n])


def _upto_last(data: bytes, marker: bytes) -> bytes:
    """Cut after the last line containing ``marker`` (so the slice is well-formed)."""
    end = data.rfind(marker)
    return data[: data.index(b"\n", end) + 1]


def _before_last(data: bytes, pattern: bytes) -> bytes:
    """Cut before the last line matching ``pattern`` (a record start)."""
    starts = [m.start() for m in re.finditer(pattern, data, re.MULTILINE)]
    return data[: starts[-1]] if len(starts) > 1 else data


def _real_or(path: Path, fallback: Callable[[], bytes], pick: Callable[[Path], bytes]) -> bytes:
    """A slice of ``../shared/data/...`` when it is there, else the repository's stand-in."""
    return pick(path) if path.exists() else fallback()


TE = ROOT / "tests" / "data" / "trec_eval_tests" / "v10.0_HEAD"
#: three TREC topics in the Robust 2004 layout (num, title, desc, narr), written here
TREC_TOPICS = b"".join(
    b"<top>\n\n<num> Number: %d\n<title> %s\n\n<desc> Description:\n%s\n\n"
    b"<narr> Narrative:\n%s\n\n</top>\n\n" % (n, t, d, r) for n, t, d, r in [
        (301, b"International Organized Crime",
         b"Identify organizations that participate in international criminal activity.",
         b"A relevant document must name an organization and its criminal activity."),
        (302, b"Poliomyelitis and Post-Polio",
         b"Is the disease of Poliomyelitis (polio) under control in the world?",
         b"Relevant documents should contain data or outbreaks of the polio disease."),
        (303, b"Hubble Telescope Achievements",
         b"Identify positive accomplishments of the Hubble telescope since it was launched.",
         b"Documents naming only shortcomings of the telescope are not relevant.")])


def _classic(name: str, fname: str) -> Callable[[], bytes]:
    from tests.classic_formats import FILES

    return lambda: FILES[name][fname].encode()


def _cran(fname: str) -> Path:
    from tests.sample_collections import cranfield_root

    return cranfield_root() / fname


#: Slices of real files: ``../shared/data`` when present; else trec_eval's own test
#: files (``tests/data``), Cranfield rebuilt from the bundled sample
#: (``tests/sample_collections.py``), the hand-written formats of
#: ``tests/classic_formats.py`` and the topics above.
SEED_FILES: dict[str, Callable[[], bytes]] = {
    "run": lambda: _real_or(DATA / "trectools_robust03" / "runs" / "input.aplrob03a.gz",
                            lambda: _lines(TE / "results.test"), _lines),
    "qrels": lambda: _real_or(DATA / "trectools_robust03" / "qrels" / "robust03_qrels.txt",
                              lambda: _lines(TE / "qrels.test"), _lines),
    "topics": lambda: _real_or(DATA / "robust04" / "topics.robust04.txt", lambda: TREC_TOPICS,
                               lambda p: _upto_last(_lines(p), b"</top>")),
    "cran_qry": lambda: _before_last(_lines(_cran("cran.qry")), rb"^\.I "),
    "cranqrel": lambda: _lines(_cran("cranqrel")),
    "cacm_qry": lambda: _real_or(DATA / "cacm" / "query.text", _classic("cacm", "query.text"),
                                 lambda p: _before_last(_lines(p), rb"^\.I ")),
    "cacm_qrels": lambda: _real_or(DATA / "cacm" / "qrels.text", _classic("cacm", "qrels.text"),
                                   _lines),
    "cacm_docs": lambda: _real_or(DATA / "cacm" / "cacm.all", _classic("cacm", "cacm.all"),
                                  lambda p: _before_last(_lines(p, 300), rb"^\.I ")),
    "lisa_que": lambda: _real_or(DATA / "lisa" / "LISA.QUE", _classic("lisa", "LISA.QUE"),
                                 lambda p: _upto_last(_lines(p), b"#")),
    "lisa_rj": lambda: _real_or(DATA / "lisa" / "LISARJ.NUM", _classic("lisa", "LISARJ.NUM"),
                                lambda p: p.read_bytes()),  # 7 kB: all of it
}


def data_available() -> bool:
    """Always: every seed has a repository stand-in (kept for benchmarks/fuzz_readers.py)."""
    return True


def seed_bytes(name: str, workdir: Path | None = None) -> bytes:
    """The unmutated input of a reader (the session seed needs ``workdir`` for its files)."""
    if name == "session":
        return session_seed(workdir)
    return SEED_FILES[name]()


def session_seed(workdir: Path) -> bytes:
    """A session written by :func:`yardstick.session.session_file.write_session` naming small real
    files."""
    from yardstick.session.session_file import write_session

    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "a.run").write_bytes(SEED_FILES["run"]())
    (workdir / "q.qrels").write_bytes(SEED_FILES["qrels"]())
    data = {"format": "yardstick-session", "version": 1, "qrels": str(workdir / "q.qrels"),
            "topics": None, "documents": None,
            "runs": [{"path": str(workdir / "a.run"), "name": "apl", "group": "JHU/APL",
                      "color": "#aa0000", "visible": True, "pooled": False},
                     {"path": "a.run", "name": "relative", "group": "", "color": "#1f77b4",
                      "visible": False, "pooled": True}],
            "measures": ["map", "P.10"], "topic_groups": {"hard": ["601", "602"]},
            "notes": "Robust — notes ✓", "options": {"relevance_level": 2},
            "extras": {"what_if": {"edits": [["601", "FBIS3-10082", 1]]}}}
    path = workdir / "seed_session.json"
    write_session(path, data)
    return path.read_bytes()


# ------------------------------------------------------------------ mutations

BAD_NUMBERS = ["nan", "NaN", "-nan", "inf", "-inf", "Infinity", "1e309", "-1e400", "1e-400",
               "abc", "0x1F", "1,5", "1_0", "1e", "--1", "+.5", "9" * 400, "5.", "１"]
BAD_RELS = ["-1", "-2", "1.5", "x", "99999999999999999999", "+1", "1e3", "0.0", "", "nan"]
ODD_CHARS = ["\t", "  ", "\x0b", "\x0c", "\r", "\u00a0", "\u2028", "\u0085", "\x1c", "é", "€",
             "\ufeff", "#"]


def _split(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _pick(rnd: random.Random, lines: list[bytes]) -> int:
    """A random non-blank line (or any line)."""
    good = [i for i, ln in enumerate(lines) if ln.strip()]
    return rnd.choice(good) if good else rnd.randrange(len(lines))


def _edit_fields(data: bytes, rnd: random.Random, fn) -> bytes:
    lines = _split(data)
    i = _pick(rnd, lines)
    fields = lines[i].split(b" ") if b" " in lines[i] else lines[i].split()
    if fields:
        lines[i] = b" ".join(fn(fields))
    return b"\n".join(lines)


def m_truncate_line(d, rnd):
    lines = _split(d)
    i = _pick(rnd, lines)
    lines[i] = lines[i][: rnd.randrange(len(lines[i]) + 1)]
    return b"\n".join(lines)


def m_truncate_file(d, rnd):
    return d[: rnd.randrange(len(d) + 1)]


def m_missing_column(d, rnd):
    return _edit_fields(d, rnd, lambda f: f[:i] + f[i + 1:] if (i := rnd.randrange(len(f))) >= 0
                        else f)


def m_extra_column(d, rnd):
    def add(f):
        f = list(f)
        f.insert(rnd.randrange(len(f) + 1), rnd.choice([b"x", b"0", b"1.5", b"Q0", b"-"]))
        return f
    return _edit_fields(d, rnd, add)


def m_bad_number(d, rnd):
    def bad(f):
        f = list(f)
        j = 4 if len(f) >= 6 and rnd.random() < 0.7 else rnd.randrange(len(f))
        f[j] = rnd.choice(BAD_NUMBERS).encode()
        return f
    return _edit_fields(d, rnd, bad)


def m_bad_relevance(d, rnd):
    def bad(f):
        f = list(f)
        f[-1] = rnd.choice(BAD_RELS).encode()
        return f
    return _edit_fields(d, rnd, bad)


def m_duplicate_line(d, rnd):
    lines = _split(d)
    i = _pick(rnd, lines)
    lines.insert(rnd.randrange(len(lines) + 1), lines[i])
    return b"\n".join(lines)


def m_delete_line(d, rnd):
    lines = _split(d)
    del lines[rnd.randrange(len(lines))]
    return b"\n".join(lines)


def m_swap_lines(d, rnd):
    lines = _split(d)
    i, j = rnd.randrange(len(lines)), rnd.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def m_mixed_whitespace(d, rnd):
    out = bytearray()
    for b in d:
        if b == 0x20 and rnd.random() < 0.3:
            out += rnd.choice([b"\t", b"  ", b" \t ", b"\t\t"])
        else:
            out.append(b)
    return bytes(out)


def m_odd_whitespace(d, rnd):
    """Vertical tab, form feed, lone CR, NBSP, U+2028, NEL, FS ... at random places."""
    out = d
    for _ in range(rnd.randint(1, 3)):
        pos = rnd.randrange(len(out) + 1)
        out = out[:pos] + rnd.choice(ODD_CHARS).encode("utf-8") + out[pos:]
    return out


def m_crlf(d, rnd):
    if rnd.random() < 0.5:
        return d.replace(b"\n", b"\r\n")
    return b"\n".join(ln + (b"\r" if rnd.random() < 0.5 else b"") for ln in _split(d))


def m_cr_only(d, rnd):
    return d.replace(b"\r\n", b"\n").replace(b"\n", b"\r")


def m_bom(d, rnd):
    return b"\xef\xbb\xbf" + d


def m_latin1(d, rnd):
    out = d
    for _ in range(rnd.randint(1, 4)):
        pos = rnd.randrange(len(out) + 1)
        byte = rnd.choice([0x85, 0xA0, 0xE9, 0xFC, 0xFF, 0x80, 0x96, 0xB2, 0xB9])
        out = out[:pos] + bytes([byte]) + out[pos:]
    return out


def m_nul(d, rnd):
    pos = rnd.randrange(len(d) + 1)
    return d[:pos] + b"\x00" + d[pos:]


def m_empty(d, rnd):
    return rnd.choice([b"", b"\n", b"   \n\t\n", b"\r\n\r\n", b"\xef\xbb\xbf"])


def m_comments(d, rnd):
    lines = _split(d)
    lines.insert(rnd.randrange(len(lines) + 1), b"# a comment line " + str(rnd.random()).encode())
    return b"\n".join(lines)


def m_binary(d, rnd):
    return bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 2000)))


def m_gzip(d, rnd):
    return gzip.compress(d, mtime=0)


def m_gzip_garbage(d, rnd):
    z = bytearray(gzip.compress(d, mtime=0))
    how = rnd.randrange(3)
    if how == 0:
        return bytes(z[: rnd.randrange(2, len(z))])          # truncated archive
    if how == 1:
        for _ in range(rnd.randint(1, 8)):                    # flipped bytes
            z[rnd.randrange(10, len(z))] ^= 1 + rnd.randrange(255)
        return bytes(z)
    return b"\x1f\x8b" + bytes(rnd.randrange(256) for _ in range(rnd.randint(0, 300)))


def m_other_compression(d, rnd):
    import bz2
    import lzma

    z = bz2.compress(d) if rnd.random() < 0.5 else lzma.compress(d)
    return z if rnd.random() < 0.5 else z[: rnd.randrange(1, len(z))]


def m_long_line(d, rnd):
    lines = _split(d)
    i = _pick(rnd, lines)
    lines[i] = lines[i] + b" " + b"x" * rnd.choice([300, 70000])
    return b"\n".join(lines)


def m_json_edit(d, rnd):
    """Session files: change a value's type, drop a key, break the syntax."""
    try:
        obj = json.loads(d)
    except ValueError:
        return d[: rnd.randrange(len(d) + 1)]
    if not isinstance(obj, dict):
        return d
    key = rnd.choice(sorted(obj) or ["x"])
    choice = rnd.randrange(6)
    if choice == 0:
        obj.pop(key, None)
    elif choice == 1:
        obj[key] = rnd.choice([None, 1, -1, 1.5, "x", [], {}, [1, 2], {"a": None}, True,
                               2**70])
    elif choice == 2 and isinstance(obj.get("runs"), list) and obj["runs"]:
        r = rnd.choice(obj["runs"])
        r[rnd.choice(["path", "name", "color", "visible", "group", "zz"])] = rnd.choice(
            [None, 3, "", "red", "#12345g", [], "../nowhere/x.run", 1.0, False])
    elif choice == 3:
        obj["version"] = rnd.choice([0, 2, 99, "1", 1.0, None, True])
    elif choice == 4:
        obj["options"] = rnd.choice([{"relevance_level": "2"}, {"max_docs": -1},
                                     {"compat": True}, {"judged_only": 1}, [], {"bogus": 1}])
    else:
        return json.dumps(obj).replace(rnd.choice([",", ":", "}", '"']), "", 1).encode()
    return json.dumps(obj).encode()


MUTATIONS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "truncated line": m_truncate_line,
    "truncated file": m_truncate_file,
    "missing column": m_missing_column,
    "extra column": m_extra_column,
    "bad number (NaN/inf/huge/text)": m_bad_number,
    "bad relevance (negative/non-integer)": m_bad_relevance,
    "duplicate line": m_duplicate_line,
    "deleted line": m_delete_line,
    "swapped lines": m_swap_lines,
    "mixed tabs/spaces": m_mixed_whitespace,
    "odd white space (VT/FF/CR/NBSP/NEL)": m_odd_whitespace,
    "CRLF": m_crlf,
    "CR only": m_cr_only,
    "UTF-8 BOM": m_bom,
    "Latin-1 bytes": m_latin1,
    "NUL byte": m_nul,
    "empty": m_empty,
    "comment line": m_comments,
    "binary garbage": m_binary,
    "gzip (valid)": m_gzip,
    "gzip garbage": m_gzip_garbage,
    "bz2/xz (maybe truncated)": m_other_compression,
    "very long line": m_long_line,
    "JSON edit": m_json_edit,
}
#: Not a mutation of the bytes: the reader is given a directory.
DIRECTORY = "directory instead of a file"
#: Mutations that end the chain (nothing after them edits text)
_FINAL = {"gzip (valid)", "gzip garbage", "bz2/xz (maybe truncated)", "binary garbage"}


def mutate(data: bytes, kinds: list[str], rnd: random.Random) -> bytes:
    """Apply the mutations in order (compression/binary ones last)."""
    kinds = sorted(kinds, key=lambda k: k in _FINAL)
    for k in kinds:
        if not data and k not in ("empty", "binary garbage"):
            continue
        data = MUTATIONS[k](data, rnd)
    return data


# ------------------------------------------------------------------ reference parsing

_NUM = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$", re.ASCII)
_INT = re.compile(r"^[+-]?\d+$", re.ASCII)
_ASCII_WS = re.compile(r"[ \t\n\r\x0b\x0c]+")


def plain_bytes(data: bytes) -> bytes | None:
    """Decompressed content, or None if it is not a valid archive."""
    import bz2
    import lzma

    for magic, fn in ((b"\x1f\x8b", gzip.decompress), (b"BZh", bz2.decompress),
                      (b"\xfd7zXZ\x00", lzma.decompress)):
        if data.startswith(magic):
            try:
                return fn(data)
            except Exception:  # noqa: BLE001
                return None
    return data


def text_lines(data: bytes) -> list[str]:
    """Lines as a person sees them: split at LF, CRLF or CR (and nothing else)."""
    return re.split(r"\r\n|\r|\n", decode_text(data))


def fields_of(line: str) -> list[str]:
    """White-space separated fields as trec_eval's ``isspace`` (C locale) splits them."""
    return [f for f in _ASCII_WS.split(line) if f]


@dataclass
class Expect:
    """What a correct reader must do: load ``rows`` or fail at ``line`` (0: whole file)."""

    rows: list[tuple] | None = None
    line: int | None = None
    duplicate: bool = False


def _file_problem(data: bytes) -> bool:
    plain = plain_bytes(data)
    return plain is None or not plain.removeprefix(b"\xef\xbb\xbf").strip() or b"\x00" in plain


def expect_run(data: bytes) -> Expect:
    """trec_eval's rules (core/inputs/io/run_file.py docstring) applied line by line."""
    if _file_problem(data):
        return Expect(line=0)
    rows, seen = [], {}
    dup = None
    for n, line in enumerate(text_lines(plain_bytes(data)), 1):
        f = fields_of(line)
        if not f or f[0].startswith("#"):
            continue
        if len(f) < 6 or not _NUM.match(f[4]) or not math.isfinite(float(f[4])):
            return Expect(line=n)
        key = (f[0], f[2])
        if key in seen and dup is None:
            dup = n
        seen.setdefault(key, n)
        rows.append((f[0], f[2], float(f[4])))
    if dup is not None:
        return Expect(line=dup, duplicate=True)
    if not rows:
        return Expect(line=0)
    return Expect(rows=rows)


def expect_qrels(data: bytes) -> Expect:
    """trec_eval's ``get_qrels.c`` rules: 4 fields, integer relevance, no duplicates."""
    if _file_problem(data):
        return Expect(line=0)
    rows, seen = [], {}
    dup = None
    for n, line in enumerate(text_lines(plain_bytes(data)), 1):
        f = fields_of(line)
        if not f or f[0].startswith("#"):
            continue
        if len(f) != 4 or not _INT.match(f[3]) or not -2**63 <= int(f[3]) < 2**63:
            return Expect(line=n)
        key = (f[0], f[2])
        if key in seen and dup is None:
            dup = n
        seen.setdefault(key, n)
        rows.append((f[0], f[2], int(f[3])))
    if dup is not None:
        return Expect(line=dup, duplicate=True)
    if not rows:
        return Expect(line=0)
    return Expect(rows=rows)


# ------------------------------------------------------------------ readers and checks


def _read_run(path):
    from yardstick.inputs.io import read_run

    return read_run(path)


def _read_qrels(path):
    from yardstick.inputs.io import read_qrels

    return read_qrels(path)


def _read_topics(path):
    from yardstick.inputs.io.topics_file import read_topics

    return read_topics(path)


def _text(path, what):
    from yardstick.inputs.io.text_source import read_bytes

    return decode_text(read_bytes(path, what))


def _smart_topics(id_from):
    def read(path):
        from yardstick.inputs.collections.smart import parse_smart, smart_topics

        parsed = parse_smart(_text(path, "SMART query file"), str(path))
        return parsed, smart_topics(parsed, id_from=id_from)
    return read


def _smart_qrels(scheme):
    def read(path):
        from yardstick.inputs.collections.smart import read_smart_qrels

        return read_smart_qrels(_text(path, "SMART relevance file"), str(path), scheme=scheme)
    return read


def _lisa_queries(path):
    from yardstick.inputs.collections.lisa import read_lisa_queries

    return read_lisa_queries(_text(path, "LISA query file"), str(path))


def _lisa_rj(path):
    from yardstick.inputs.collections.lisa import read_lisa_rj

    return read_lisa_rj(_text(path, "LISA relevance file"), str(path))


def _documents(path):
    from yardstick.inputs.io.documents_file import read_documents

    return read_documents(path)


def _session(path):
    from yardstick.session.session_file import read_session
    from yardstick.session.workspace import Workspace

    data = read_session(path)
    return data, Workspace.from_session(data)


class Mismatch(AssertionError):
    """A reader loaded something other than what the input says."""


def check_run(data: bytes, run) -> None:
    exp = expect_run(data)
    if exp.rows is None:
        raise Mismatch(f"loaded {len(run)} lines but the input is bad at line {exp.line}")
    got = sorted((str(run.topics[run.topic_code[i]]), run.docno(i), float(run.score[i]))
                 for i in range(len(run)))
    if got != sorted(exp.rows):
        raise Mismatch(f"loaded lines differ from the file ({len(got)} vs {len(exp.rows)})")


def check_qrels(data: bytes, qrels) -> None:
    exp = expect_qrels(data)
    if exp.rows is None:
        raise Mismatch(f"loaded {len(qrels.frame)} judgments but input is bad at line {exp.line}")
    f = qrels.frame
    got = sorted(zip(map(str, f["topic"].tolist()), map(str, f["docno"].tolist()),
                     map(int, f["rel"].tolist())))
    if got != sorted(exp.rows):
        raise Mismatch(f"loaded judgments differ from the file ({len(got)} vs {len(exp.rows)})")


def _check_topic_frame(frame) -> None:
    if list(frame.columns) != ["topic", "title", "desc", "narr"]:
        raise Mismatch(f"columns {list(frame.columns)}")
    if frame.isna().any().any() or not all(isinstance(v, str) for v in frame.to_numpy().ravel()):
        raise Mismatch("non-text cell in a topics frame")
    ids = frame["topic"].tolist()
    if len(set(ids)) != len(ids) or "" in ids:
        raise Mismatch("empty or duplicate topic id")


def check_topics(data: bytes, frame) -> None:
    _check_topic_frame(frame)
    text = "\n".join(text_lines(plain_bytes(data)))
    if re.search(r"<\s*top\b", text, re.IGNORECASE):
        opened = len(re.findall(r"<\s*top\s*>", text, re.IGNORECASE))
        if len(frame) != opened:
            raise Mismatch(f"{len(frame)} topics from {opened} <top> tags")


def check_smart_topics(data: bytes, result) -> None:
    parsed, frame = result
    _check_topic_frame(frame)
    if frame.empty:
        raise Mismatch("a query file without queries loaded")
    starts = sum(1 for ln in text_lines(plain_bytes(data)) if re.match(r"^\.I(\s|$)", ln))
    dropped = sum("is empty" in w for w in parsed.warnings)
    if len(parsed.records) + dropped != starts:
        raise Mismatch(f"{len(parsed.records)} records + {dropped} dropped from {starts} .I lines")


def check_judgments(data: bytes, qrels) -> None:
    f = qrels.frame
    if f.duplicated(["topic", "docno"]).any():
        raise Mismatch("duplicate judgment loaded")
    if f[["topic", "docno"]].isna().any().any() or (f["topic"] == "").any():
        raise Mismatch("empty topic or docno")


def check_smart_qrels(data: bytes, qrels) -> None:
    check_judgments(data, qrels)
    n = sum(1 for ln in text_lines(plain_bytes(data)) if ln.split())
    if len(qrels.frame) != n:
        raise Mismatch(f"{len(qrels.frame)} judgments from {n} lines")


def check_lisa_queries(data: bytes, frame) -> None:
    _check_topic_frame(frame)
    n = sum(1 for ln in text_lines(plain_bytes(data)) if ln.strip().endswith("#"))
    if len(frame) != n:
        raise Mismatch(f"{len(frame)} queries from {n} '#' ends")


def check_documents(data: bytes, docs) -> None:
    text = getattr(docs, "text", docs)
    if not all(isinstance(k, str) and k and isinstance(v, str) for k, v in text.items()):
        raise Mismatch("non-text document or empty docno")


def check_session(data: bytes, result) -> None:
    from yardstick.session.session_file import validate_session

    clean, ws = result
    if validate_session(clean) != clean:
        raise Mismatch("validated session changes when validated again")
    json.dumps(clean, allow_nan=False)  # everything kept is plain JSON
    problems = ws.extras.get("load_problems", [])
    if not all(isinstance(p, str) for p in problems):
        raise Mismatch("load problems are not text")
    if len(ws.runs) + sum(p.startswith("run ") for p in problems) != len(clean["runs"]):
        raise Mismatch("a run was neither loaded nor reported")


@dataclass(frozen=True)
class Reader:
    seed: str
    read: Callable
    check: Callable
    suffix: str = ""
    line_errors: bool = False  # whether every error other than whole-file ones has a line


READERS: dict[str, Reader] = {
    "run": Reader("run", _read_run, check_run, ".run", True),
    "qrels": Reader("qrels", _read_qrels, check_qrels, ".qrels", True),
    "topics": Reader("topics", _read_topics, check_topics, ".txt"),
    "smart queries (cran.qry)": Reader("cran_qry", _smart_topics("position"),
                                       check_smart_topics, ".qry", True),
    "smart queries (CACM query.text)": Reader("cacm_qry", _smart_topics("record"),
                                              check_smart_topics, ".text", True),
    "smart qrels (cranqrel)": Reader("cranqrel", _smart_qrels("cranfield"), check_smart_qrels,
                                     "", True),
    "smart qrels (CACM qrels.text)": Reader("cacm_qrels", _smart_qrels("binary"),
                                            check_smart_qrels, ".text", True),
    "LISA queries": Reader("lisa_que", _lisa_queries, check_lisa_queries, ".QUE"),
    "LISA judgments": Reader("lisa_rj", _lisa_rj, check_judgments, ".NUM"),
    "documents (CACM)": Reader("cacm_docs", _documents, check_documents, ".all"),
    "session": Reader("session", _session, check_session, ".json"),
}

#: Errors about the file as a whole (no line to name).
_FILE_LEVEL = ("is empty", "cannot decompress", "is a directory", "has no ", "cannot read",
               "refusing", "NUL bytes", "not a valid Yardstick session", "not valid JSON",
               "appears twice", "unrecognised format")


def classify_error(e: FormatError, path: str, data: bytes | None, reader: Reader) -> str:
    """``"error+line"`` / ``"error(file)"``, or ``"BUG: ..."`` if the error is not as promised."""
    if e.path != str(path) or str(path) not in e.message:
        return f"BUG: FormatError does not name the file: {e.message!r}"
    if e.line is None:
        if reader.line_errors and not any(s in e.reason for s in _FILE_LEVEL):
            return f"BUG: line-level problem without a line: {e.message!r}"
        return "error(file)"
    plain = plain_bytes(data) if data is not None else None
    if plain is None:
        return f"BUG: line {e.line} named in an unreadable file: {e.message!r}"
    lines = text_lines(plain)
    if not 1 <= e.line <= len(lines):
        return f"BUG: line {e.line} of a {len(lines)}-line file: {e.message!r}"
    if e.text is not None and reader.seed in ("run", "qrels"):
        from yardstick.common.errors import _shorten

        if e.text.replace("\t", " ") != _shorten(lines[e.line - 1]).replace("\t", " "):
            return f"BUG: line {e.line} is {lines[e.line - 1][:80]!r}, error quotes {e.text!r}"
    return "error+line"


def outcome(reader_name: str, path: Path, data: bytes | None) -> str:
    """Run a reader on ``path`` (whose bytes are ``data``; None for a directory)."""
    reader = READERS[reader_name]
    try:
        result = reader.read(path)
    except FormatError as e:
        kind = classify_error(e, str(path), data, reader)
        if kind.startswith("BUG"):
            return kind
        if reader.seed in ("run", "qrels") and data is not None:
            exp = (expect_run if reader.seed == "run" else expect_qrels)(data)
            if exp.rows is not None:
                return f"BUG: refused a good file: {e.message!r}"
            if exp.line and e.line != exp.line and not exp.duplicate:
                return f"BUG: error at line {e.line}, the first bad line is {exp.line}"
        return kind
    except Exception as e:  # noqa: BLE001 - that is what we are looking for
        return f"BUG: {type(e).__name__}: {e}"
    if data is None:
        return "BUG: a directory loaded"
    try:
        reader.check(data, result)
    except Mismatch as e:
        return f"BUG: wrong load: {e}"
    return "loaded"


def write_input(path: Path, data: bytes | None) -> Path:
    """Put ``data`` at ``path`` (None: make ``path`` a directory)."""
    if path.is_dir():
        shutil.rmtree(path)
    elif path.exists():
        path.unlink()
    if data is None:
        path.mkdir(parents=True)
        (path / "inside.txt").write_text("a file inside the directory\n")
    else:
        path.write_bytes(data)
    return path


def gui_loader_outcome(path: Path, kind: str | None, data: bytes | None) -> str:
    """:func:`yardstick.session.loading.load_files` (the window's loader): never raises, errors name
    the file."""
    from yardstick.common.progress import run_sync
    from yardstick.session.loading import load_files

    try:
        res = run_sync(load_files([(str(path), kind)]))
    except Exception as e:  # noqa: BLE001
        return f"BUG: {type(e).__name__}: {e}"
    for e in res.errors:
        if not isinstance(e, FormatError) or str(path) not in e.message:
            return f"BUG: load error does not name the file: {e!r}"
    if res.errors:
        return "error+line" if res.errors[0].line else "error(file)"
    if not res.loaded_anything:
        return "BUG: nothing loaded and no error"
    if data is not None:
        try:
            if res.runs:
                check_run(data, res.runs[0])
            elif res.qrels is not None:
                check_qrels(data, res.qrels)
        except Mismatch as e:
            return f"BUG: wrong load: {e}"
    return "loaded"
