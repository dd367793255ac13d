"""Provenance of exports (core/common/provenance.py): hashes, rules, round trip, figure metadata."""

import hashlib
import io

from yardstick.common.options import EvalOptions
from yardstick.common.provenance import Provenance, interpolation_rule


def test_build_hashes_files_and_names_the_rule(tmp_path):
    q = tmp_path / "qrels.txt"
    q.write_bytes(b"1 0 d1 1\n")
    r = tmp_path / "run1.txt"
    r.write_bytes(b"1 Q0 d1 1 1.0 tagA\n")
    p = Provenance.build(q, [(r, "tagA")], ["map"], EvalOptions(compat=9, complete=True),
                         seeds={"randomisation": 7}, created="2026-01-01T00:00:00+00:00")
    assert p.qrels_sha256 == hashlib.sha256(b"1 0 d1 1\n").hexdigest()
    assert p.runs[0].file == "run1.txt" and p.runs[0].tag == "tagA"
    assert p.runs[0].sha256 == hashlib.sha256(b"1 Q0 d1 1 1.0 tagA\n").hexdigest()
    assert p.options["complete"] is True
    assert p.interpolation == interpolation_rule(9)
    assert Provenance.from_dict(p.to_dict()) == p
    assert ("Seed (randomisation)", "7") in p.items()


def test_figure_metadata_lands_in_svg_and_pdf(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    p = Provenance(yardstick_version="9.9", created="2026-01-01", qrels_file="q.txt",
                   qrels_sha256="ab" * 32)
    fig = Figure()
    fig.add_subplot().plot([0, 1], [0, 1])
    svg = io.StringIO()
    fig.savefig(svg, format="svg", metadata=p.matplotlib_metadata("svg"))
    assert "Yardstick 9.9" in svg.getvalue() and "abababab" in svg.getvalue()
    pdf = io.BytesIO()
    fig.savefig(pdf, format="pdf", metadata=p.matplotlib_metadata("pdf"))
    assert b"Yardstick 9.9" in pdf.getvalue()
