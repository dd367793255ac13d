"""``yardstick eval`` prints trec_eval's text without importing pandas.

Importing pandas costs about a third of a second of CPU, a tenth of a 7M-line
evaluation (issue 2's speed target): the readers, the engine and the trec_eval
formatter keep to numpy and pyarrow buffers, and pandas tables are built only
when asked for (``Qrels.frame``, ``Evaluation``, ``--format csv``).  The check
runs in a fresh interpreter and also compares the text with trec_eval's.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.shared_data import data_dir

DATA = data_dir("trec_eval_tests") / "v10.0_HEAD"

SCRIPT = """
import contextlib, io, sys
from yardstick.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    status = main(["eval", "-q", "-m", "all_trec", sys.argv[1], sys.argv[2]])
sys.stdout.write(out.getvalue())
print("PANDAS" if "pandas" in sys.modules else "NO-PANDAS", file=sys.stderr)
sys.exit(status)
"""


def test_eval_text_needs_no_pandas(tmp_path):
    qrels, expected = DATA / "qrels.test", DATA / "out.test.aq"
    if not expected.exists():
        pytest.skip(f"{DATA} not present")
    # results.test pads its columns; trec_eval splits at any white space, so one
    # space between fields is the same run for it (and takes the pyarrow path here)
    run = tmp_path / "results.test"
    run.write_text("".join(" ".join(line.split()) + "\n"
                           for line in (DATA / "results.test").read_text().splitlines()))
    proc = subprocess.run([sys.executable, "-c", SCRIPT, str(qrels), str(run)],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip().endswith("NO-PANDAS")
    # and it is still trec_eval's text, byte for byte
    assert proc.stdout == expected.read_text()
