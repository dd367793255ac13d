"""The one exception every reader raises for bad input."""

from __future__ import annotations


class FormatError(ValueError):
    """Bad input: names the file, the line, the offending text and what was expected.

    Parameters
    ----------
    path : str
        The file (or ``"<stdin>"``).
    line : int or None
        1-based line number, or ``None`` when the problem is the file as a whole
        (empty, binary, unreadable).
    reason : str
        What is wrong and what was expected, e.g. ``"expected 6 columns
        (topic Q0 docno rank score tag), found 4"``.
    text : str, optional
        The offending line (shortened to 200 characters).
    """

    def __init__(self, path: str, line: int | None, reason: str, text: str | None = None):
        self.path = str(path)
        self.line = line
        self.reason = reason
        self.text = None if text is None else _shorten(text)
        super().__init__(self.message)

    @property
    def message(self) -> str:
        where = self.path if self.line is None else f"{self.path}, line {self.line}"
        msg = f"{where}: {self.reason}"
        if self.text is not None:
            msg += f"\n    {self.text!r}"
        return msg

    def __reduce__(self):  # picklable across processes
        return (FormatError, (self.path, self.line, self.reason, self.text))


def _shorten(text: str, limit: int = 200) -> str:
    text = text.rstrip("\r\n")
    return text if len(text) <= limit else text[: limit - 1] + "…"
