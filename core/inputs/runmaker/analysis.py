"""Text analysis for the run maker: tokens, stop words, stemmers.

Runs in TREC differ as much by their text processing as by their ranking
function, so the analyzer is part of every run's recipe:

* tokens: lower-cased runs of two or more word characters (bm25s's default
  pattern, ``(?u)\\b\\w\\w+\\b``);
* stop words: ``"lucene"`` (Lucene's 33-word English list, as shipped by
  bm25s), ``"long"`` (bm25s's 179-word English list, NLTK's), or ``"none"``;
* stemmers: ``"porter2"`` (Snowball English), ``"porter"`` (Porter 1980), both
  from PyStemmer; ``"s"``, the S-stemmer (Harman 1991, "How effective is
  suffixing?", JASIS 42(1), table 1: ``-ies`` -> ``-y``, ``-es`` -> ``-e``,
  ``-s`` -> ``""`` with its exceptions); or ``"none"``.

bm25s and PyStemmer are the optional extra ``runs``; they are imported only
when an analyzer is used, with a message saying how to install them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_TOKEN = re.compile(r"(?u)\b\w\w+\b")
STEMMERS = ("porter2", "porter", "s", "none")
STOPLISTS = ("lucene", "long", "none")


def require_runs_extra():
    """Import bm25s (and check PyStemmer), or explain how to get them."""
    try:
        import bm25s  # noqa: F401
        import Stemmer  # noqa: F401
    except ImportError as e:
        raise ImportError(
            f"making runs needs the optional packages bm25s and PyStemmer ({e.name} is missing): "
            "pip install 'yardstick-ir[runs]'") from None
    return bm25s


@lru_cache(maxsize=None)
def stopword_set(name: str) -> frozenset[str]:
    if name == "none":
        return frozenset()
    require_runs_extra()
    from bm25s import stopwords as sw

    if name == "lucene":
        return frozenset(sw.STOPWORDS_EN)
    if name == "long":
        return frozenset(sw.STOPWORDS_EN_PLUS)
    raise ValueError(f"unknown stop list {name!r}: expected one of {STOPLISTS}")


def s_stem(word: str) -> str:
    """Harman's S-stemmer (1991): only the commonest English plural endings."""
    if len(word) > 3 and word.endswith("ies") and not word.endswith(("eies", "aies")):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("es") and not word.endswith(("aes", "ees", "oes")):
        return word[:-1]
    if len(word) > 2 and word.endswith("s") and not word.endswith(("us", "ss")):
        return word[:-1]
    return word


def tokenize(texts: list[str]) -> list[list[str]]:
    """Lower-cased tokens of each text (before stop words and stemming)."""
    return [_TOKEN.findall(t.lower()) for t in texts]


@dataclass(frozen=True)
class Analyzer:
    """Tokenise, drop stop words, stem; the same for documents and queries."""

    stemmer: str = "porter2"
    stopwords: str = "lucene"

    def __post_init__(self):
        if self.stemmer not in STEMMERS:
            raise ValueError(f"unknown stemmer {self.stemmer!r}: expected one of {STEMMERS}")
        if self.stopwords not in STOPLISTS:
            raise ValueError(f"unknown stop list {self.stopwords!r}: expected one of {STOPLISTS}")

    def analyze(self, texts: list[str]) -> list[list[str]]:
        """Token lists, one per text, in text order."""
        return self.process(tokenize(texts))

    def process(self, raw: list[list[str]]) -> list[list[str]]:
        """Stop words and stemming applied to :func:`tokenize`'s output."""
        stop = stopword_set(self.stopwords)
        words = [[w for w in ws if w not in stop] for ws in raw] if stop else raw
        if self.stemmer == "none":
            return words
        vocab = sorted({w for ws in words for w in ws})
        stems = dict(zip(vocab, self._stem_all(vocab)))
        return [[stems[w] for w in ws] for ws in words]

    def _stem_all(self, vocab: list[str]) -> list[str]:
        if self.stemmer == "s":
            return [s_stem(w) for w in vocab]
        require_runs_extra()
        import Stemmer

        algorithm = "english" if self.stemmer == "porter2" else "porter"
        return Stemmer.Stemmer(algorithm).stemWords(vocab)

    @property
    def label(self) -> str:
        return f"stem={self.stemmer}, stop={self.stopwords}"


def content_words(text: str, n: int) -> list[str]:
    """The first ``n`` distinct words of ``text`` that are not on the long stop list.

    How a searcher turns a request into a title-like query: "what similarity
    laws must be obeyed when constructing aeroelastic models ..." gives
    ``similarity laws obeyed`` for ``n = 3``.
    """
    stop = stopword_set("long") | _QUESTION_WORDS
    out: list[str] = []
    for w in _TOKEN.findall(text.lower()):
        if w not in stop and w not in out and not w.isdigit():
            out.append(w)
            if len(out) == n:
                break
    return out


#: Request phrasing that is not on the stop list but says nothing about the topic.
_QUESTION_WORDS = frozenset(
    "interested articles papers find please receive would like also pleased want wish "
    "must might may shall could "
    "relating related concerning regarding give particularly especially possible "
    "available".split())
