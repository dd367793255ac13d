"""How titlestat turns text into words: tokens, case, stop words, stemming.

Buckley et al. 2007 (“Bias and the limits of pooling for large collections”, Information Retrieval
2007, §3.2) count "title words" of a topic in
documents without saying how words are made (SMART did it for them).  The
choice matters, so it is one visible, frozen options object with plain
defaults: tokens are runs of letters and digits, case is folded, English stop
words are dropped (from the title words and, harmlessly, from documents), and
there is no stemming unless asked for (``"porter"`` or ``"english"`` via
PyStemmer, an optional dependency).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

#: A short English stop list (function words only; the classic van Rijsbergen /
#: SMART lists are longer and also drop some content-bearing words).
ENGLISH_STOPWORDS = frozenset("""
a about above after again against all also am an and any are as at be because been
before being below between both but by can could did do does doing down during each
few for from further had has have having he her here hers herself him himself his how
i if in into is it its itself just me more most my myself no nor not of off on once
only or other our ours ourselves out over own same she should so some such than that
the their theirs them themselves then there these they this those through to too under
until up very was we were what when where which while who whom why will with would you
your yours yourself yourselves
""".split())


@dataclass(frozen=True)
class TextOptions:
    """Tokenisation for titlestat.

    Attributes
    ----------
    lowercase : bool
        Fold case (default True).
    token_pattern : str
        Regular expression of one token (default: runs of letters/digits).
    stopwords : frozenset of str or None
        Words never counted as title words (default :data:`ENGLISH_STOPWORDS`;
        None keeps every word).  Compared after case folding, before stemming.
    stemmer : {None, "porter", "english"}
        PyStemmer algorithm applied to every word (default None).
    min_length : int
        Shorter tokens are dropped (default 1).
    """

    lowercase: bool = True
    token_pattern: str = r"[^\W_]+"
    stopwords: frozenset[str] | None = field(default=ENGLISH_STOPWORDS)
    stemmer: str | None = None
    min_length: int = 1

    @cached_property
    def _regex(self) -> re.Pattern:
        return re.compile(self.token_pattern)

    @cached_property
    def _stem(self):
        if self.stemmer is None:
            return None
        try:
            import Stemmer  # PyStemmer
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("stemming for titlestat needs PyStemmer "
                              "(pip install PyStemmer)") from e
        return Stemmer.Stemmer(self.stemmer).stemWords

    def words(self, text: str) -> list[str]:
        """The text's words in order, after every option (duplicates kept)."""
        if self.lowercase:
            text = text.lower()
        toks = [t for t in self._regex.findall(text) if len(t) >= self.min_length]
        if self.stopwords is not None:
            stop = self.stopwords
            toks = [t for t in toks if (t.lower() if not self.lowercase else t) not in stop]
        if self._stem is not None and toks:
            toks = self._stem(toks)
        return toks

    def distinct_words(self, text: str) -> list[str]:
        """Distinct words in order of first appearance (a topic's title words)."""
        return list(dict.fromkeys(self.words(text)))

    def describe(self) -> str:
        parts = ["lowercase" if self.lowercase else "case kept",
                 f"tokens /{self.token_pattern}/",
                 "no stop words" if self.stopwords is None else f"{len(self.stopwords)} stop words",
                 f"stemmer {self.stemmer}" if self.stemmer else "no stemming"]
        if self.min_length > 1:
            parts.append(f"min length {self.min_length}")
        return ", ".join(parts)


def read_stopwords(lines: Iterable[str]) -> frozenset[str]:
    """Stop words from lines of text (one or more words per line; ``#`` comments)."""
    out: set[str] = set()
    for line in lines:
        line = line.split("#", 1)[0]
        out.update(w.lower() for w in line.split())
    return frozenset(out)
