"""Character widths of the fonts pdflatex sets a table in, under OT1 and T1 alike.

A table Yardstick writes goes into a document that may or may not say
``\\usepackage[T1]{fontenc}`` (most paper templates do: acmart, many IEEE and Springer
set-ups).  The two encodings set the same text in different fonts: Computer Modern
(``cmr10``, OT1) and the EC fonts (``ecrm1000``, T1), whose glyphs differ where it
matters for run and measure names: OT1's ``\\_`` is a 0.36 em rule, T1's a 0.78 em
glyph; ``\\{``, ``\\}`` and ``\\textbackslash`` come from the symbol font in OT1.  Each
width below is the larger of the two encodings' (so a table measured with it fits under
either), in 1/10,000 of an em of the font at its design size, read from TeX Live's TFM
files with ``tftopl`` (Knuth, *Computer Modern Typefaces*, 1986; Knappen's EC fonts);
``tests/presentation/test_tex_metrics.py`` re-reads them where TeX is installed.

Keys: ``"10"``/``"9"`` roman at the normal and ``\\small`` sizes of ``article`` at 10 pt,
``"7"``/``"6"`` their ``\\textsuperscript`` sizes, ``"b10"``/``"b9"`` bold extended
(``\\textbf``).  The characters are ASCII 32–126, the en dash, then :data:`SYMBOLS` (set
from ``cmsy``/``cmmi`` in either encoding: ``\\dag``, ``$\\bigtriangleup$`` …).
"""

from __future__ import annotations

__all__ = ["CHARS", "SYMBOLS", "SIZES", "em_widths", "space"]

#: symbols :func:`yardstick.presentation.export.text_formats.latex_escape` sets from the
#: math fonts, with (font, code): cmsy's dagger 121, double dagger 122 …
SYMBOLS = {"†": ("cmsy", 121), "‡": ("cmsy", 122), "§": ("cmsy", 120), "¶": ("cmsy", 123),
           "▲": ("cmsy", 52), "▼": ("cmsy", 53), "△": ("cmsy", 52), "▽": ("cmsy", 53),
           "↑": ("cmsy", 34), "↓": ("cmsy", 35), "≤": ("cmsy", 20), "≥": ("cmsy", 21),
           "±": ("cmsy", 6), "α": ("cmmi", 11)}
#: the characters measured, in the order of each row of :data:`_WIDTHS`
CHARS = "".join(chr(c) for c in range(32, 127)) + "–" + "".join(SYMBOLS)
#: key -> (OT1 font, T1 font, symbol font, math italic) at that size
SIZES = {"10": ("cmr10", "ecrm1000", "cmsy10", "cmmi10"),
         "9": ("cmr9", "ecrm0900", "cmsy9", "cmmi9"),
         "7": ("cmr7", "ecrm0700", "cmsy7", "cmmi7"),
         "6": ("cmr6", "ecrm0600", "cmsy6", "cmmi6"),
         "b10": ("cmbx10", "ecbx1000", "cmsy10", "cmmi10"),
         "b9": ("cmbx9", "ecbx0900", "cmsy9", "cmmi9")}

_WIDTHS = {
    "10": (
        "3333 2778 5000 8333 5000 8333 7778 2778 3889 3889 5000 7778 2778 3333 2778 5000 5000 "
        "5000 5000 5000 5000 5000 5000 5000 5000 5000 2778 2778 7776 7778 7776 4722 7778 7500 "
        "7083 7222 7639 6806 6528 7847 7500 3611 5139 7778 6250 9167 7500 7778 6806 7778 7361 "
        "5556 7222 7500 7500 10278 7500 7500 6111 2778 5000 2778 6110 7776 2778 5000 5556 "
        "4444 5556 4444 3056 5000 5556 2778 3056 5278 2778 8333 5556 5000 5556 5278 3917 3944 "
        "3889 5556 5278 7222 5278 5278 4444 5000 10000 5000 6110 5000 4444 4444 4444 6111 "
        "8889 8889 8889 8889 5000 5000 7778 7778 7778 6397 "
    ),
    "9": (
        "3426 2855 5139 8565 5139 8565 7994 2855 3997 3997 5139 7994 2855 3426 2855 5139 5139 "
        "5139 5139 5139 5139 5139 5139 5139 5139 5139 2855 2855 7992 7994 7992 4853 7994 7707 "
        "7279 7423 7850 6994 6708 8065 7707 3710 5281 7992 6423 9420 7707 7994 6994 7994 7565 "
        "5710 7423 7707 7707 10562 7707 7707 6281 2855 5139 2855 6279 7992 2855 5139 5710 "
        "4568 5710 4572 3140 5139 5710 2855 3140 5424 2855 8565 5710 5139 5710 5424 4020 4054 "
        "3997 5710 5424 7423 5424 5424 4568 5139 10278 5139 6279 5139 4568 4568 4568 6281 "
        "9136 9136 9136 9136 5139 5139 7994 7994 7994 6587 "
    ),
    "7": (
        "3849 3234 5694 9385 5694 9385 8770 3234 4464 4464 5694 8770 3234 3849 3234 5694 5694 "
        "5694 5694 5694 5694 5694 5694 5694 5694 5694 3234 3234 8768 8770 8768 5387 8770 8433 "
        "7986 8155 8601 7679 7371 8839 8433 4127 5833 8740 7064 10278 8433 8770 7679 8770 "
        "8294 6310 8155 8433 8433 11508 8433 8433 6925 3234 5853 3234 6923 8768 3234 5694 "
        "6310 5079 6310 5079 3542 5694 6310 3234 3542 6002 3234 9385 6310 5694 6310 6002 4464 "
        "4526 4464 6310 6002 8155 6002 6002 5079 5853 11389 5853 6923 5694 5238 5238 5238 "
        "7083 10159 10159 10159 10159 5853 5853 8929 8929 8929 7427 "
    ),
    "6": (
        "4167 3518 6111 10000 6111 10000 9352 3518 4815 4815 6111 9352 3518 4167 3518 6111 "
        "6111 6111 6111 6111 6111 6111 6111 6111 6111 6111 3518 3518 9350 9352 9350 5787 9352 "
        "8963 8509 8704 9157 8185 7861 9417 8963 4426 6241 9287 7537 10907 8963 9352 8185 "
        "9352 8833 6759 8704 8963 8963 12204 8963 8963 7407 3518 6389 3518 7406 9350 3518 "
        "6111 6759 5463 6759 5463 3843 6111 6759 3518 3843 6435 3518 10000 6759 6111 6759 "
        "6435 4815 4880 4815 6759 6435 8704 6435 6435 5463 6389 12222 6389 7406 6111 5741 "
        "5741 5741 7685 10926 10926 10926 10926 6389 6389 9630 9630 9630 8045 "
    ),
    "b10": (
        "3833 3500 6028 9583 5750 9583 8944 3194 4472 4472 5750 8944 3194 3833 3194 5750 5750 "
        "5750 5750 5750 5750 5750 5750 5750 5750 5750 3194 3194 8942 8944 8942 5431 8944 8694 "
        "8181 8306 8819 7556 7236 9042 9000 4361 5944 9014 6917 10917 9000 8639 7861 8639 "
        "8625 6389 8000 8847 8694 11889 8694 8694 7028 3194 5749 3194 7026 8942 3194 5590 "
        "6389 5111 6389 5271 3514 5750 6389 3194 3514 6069 3194 9583 6389 5750 6389 6069 4736 "
        "4536 4472 6389 6069 8306 6069 6069 5111 5749 11500 5749 7026 5750 4444 4444 4444 "
        "6111 8889 8889 8889 8889 5000 5000 7778 7778 7778 6397 "
    ),
    "b9": (
        "3944 3602 6176 9861 5917 9861 9204 3287 4602 4602 5917 9204 3287 3944 3287 5917 5917 "
        "5917 5917 5917 5917 5917 5917 5917 5917 5917 3287 3287 9201 9204 9201 5588 9204 8929 "
        "8409 8546 9066 7765 7437 9299 9244 4463 6108 9258 7108 11216 9244 8889 8080 8889 "
        "8867 6574 8231 9086 8929 12216 8929 8929 7231 3287 5915 3287 7230 9201 3287 5752 "
        "6574 5259 6574 5430 3616 5917 6574 3287 3616 6245 3287 9861 6574 5917 6574 6245 4881 "
        "4668 4602 6574 6245 8546 6245 6245 5259 5915 11833 5915 7230 5917 4568 4568 4568 "
        "6281 9136 9136 9136 9136 5139 5139 7994 7994 7994 6587 "
    ),
}

_CACHE: dict[str, dict[str, float]] = {}


def em_widths(key: str) -> dict[str, float]:
    """Character -> width in ems of the font ``key`` (a key of :data:`SIZES`)."""
    if key not in _CACHE:
        values = [int(x) / 10000 for x in "".join(_WIDTHS[key]).split()]
        if len(values) != len(CHARS):
            raise ValueError(f"width table {key!r} has {len(values)} entries, not {len(CHARS)}")
        _CACHE[key] = dict(zip(CHARS, values))
    return _CACHE[key]


def space(key: str) -> float:
    """The interword space of the font ``key``, in ems."""
    return em_widths(key)[" "]
