"""Fuzz every reader with mutated real files and count what happens.

    .venv/bin/python benchmarks/fuzz_readers.py [--examples 2000] [--seed N] [--markdown]

The longer sibling of ``tests/test_fuzz_readers.py`` (same inputs, mutations
and checks: ``tests/fuzz_support.py``).  For each reader (run, qrels, topics,
SMART queries and judgments, LISA, documents, session, and the window's
loader guessing the kind from the content) it feeds ``--examples`` inputs:
half carry one mutation (so the table can say what each kind of hostile input
does), half combine two or three; about 1 in 50 is a directory.  Each outcome
is one of

* ``loaded``: the reader returned, and what it loaded agrees with an
  independent parse (runs, qrels) or the format's invariants (the others);
* ``FormatError + line``: refused, naming the file and the offending line;
* ``FormatError (file)``: refused, naming the file (empty, binary, corrupt
  archive, directory, nothing usable in it);
* ``BUG``: any other exception, an error that does not name the file or names
  a line that is not there, or a load that disagrees with the check.

Prints counts by reader and by input kind, every BUG with the seed that
reproduces it, and exits 1 if there was one.  ``--markdown`` prints the input
kind x outcome table used in README.md ("Reliability").
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fuzz_support import (
    DIRECTORY,
    MUTATIONS,
    READERS,
    data_available,
    gui_loader_outcome,
    mutate,
    outcome,
    seed_bytes,
    write_input,
)

OUTCOMES = ("loaded", "FormatError + line", "FormatError (file)", "BUG")
COMBINED = "2-3 mutations combined"
GUI = "window loader (kind guessed)"


def _label(result: str) -> str:
    return {"loaded": "loaded", "error+line": "FormatError + line",
            "error(file)": "FormatError (file)"}.get(result, "BUG")


def draw(rnd: random.Random) -> tuple[str, list[str] | None]:
    """(input kind label, mutations) -- mutations None means a directory."""
    if rnd.random() < 0.02:
        return DIRECTORY, None
    if rnd.random() < 0.5:
        k = rnd.choice(sorted(MUTATIONS))
        return k, [k]
    return COMBINED, rnd.sample(sorted(MUTATIONS), rnd.randint(2, 3))


def fuzz(examples: int, seed: int, work: Path):
    by_reader = collections.defaultdict(collections.Counter)
    by_kind = collections.defaultdict(collections.Counter)
    bugs = []
    seeds = {name: seed_bytes(r.seed, work / "session_files") for name, r in READERS.items()}
    for r, name in enumerate([*READERS, GUI]):
        t0 = time.perf_counter()
        for i in range(examples):
            example_seed = (seed * 1_000_003 + r * 100_003 + i) & 0xFFFFFFFF
            rnd = random.Random(example_seed)
            kind, muts = draw(rnd)
            base = seeds[name] if name != GUI else seeds[rnd.choice(
                ["run", "qrels", "topics", "session", "documents (CACM)"])]
            data = None if muts is None else mutate(base, muts, rnd)
            if name == GUI:
                path = write_input(work / "gui.in", data)
                result = gui_loader_outcome(path, None, None)
            else:
                path = write_input(work / f"in{READERS[name].suffix}", data)
                result = outcome(name, path, data)
            label = _label(result.split(":")[0])
            by_reader[name][label] += 1
            by_kind[kind][label] += 1
            if label == "BUG":
                bugs.append((name, example_seed, muts, result))
        print(f"  {name:<34} {examples} inputs in {time.perf_counter() - t0:5.1f} s",
              file=sys.stderr)
    return by_reader, by_kind, bugs


def table(counts: dict, first: str) -> str:
    rows = [f"| {first} | " + " | ".join(OUTCOMES) + " | total |",
            "|---|" + "---:|" * (len(OUTCOMES) + 1)]
    total = collections.Counter()
    for key in sorted(counts, key=lambda k: (k in (COMBINED, DIRECTORY), k)):
        c = counts[key]
        total.update(c)
        rows.append(f"| {key} | " + " | ".join(str(c[o]) for o in OUTCOMES)
                    + f" | {sum(c.values())} |")
    rows.append("| **all** | " + " | ".join(f"**{total[o]}**" for o in OUTCOMES)
                + f" | **{sum(total.values())}** |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--examples", type=int, default=2000, help="inputs per reader")
    ap.add_argument("--seed", type=int, default=None, help="default: random")
    ap.add_argument("--markdown", action="store_true", help="print the README table")
    args = ap.parse_args(argv)
    if not data_available():
        print("../shared/data is not here", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    print(f"seed {seed}, {args.examples} inputs per reader", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        by_reader, by_kind, bugs = fuzz(args.examples, seed, Path(tmp))
    print(table(by_reader, "reader"))
    print()
    print(table(by_kind, "input kind"))
    for name, s, muts, result in bugs:
        print(f"BUG {name} seed={s} mutations={muts}: {result[:300]}")
    return 1 if bugs else 0


if __name__ == "__main__":
    sys.exit(main())
