"""Seeds of randomised diagnostics: always an integer, always recorded, so a result reproduces.

Every randomised routine takes ``seed`` and draws from
``numpy.random.default_rng(seed)`` (STYLE.md).  ``seed=None`` means "any seed":
:func:`resolve_seed` then picks one (31 bits; the CLI, window and API default
to seed 0 instead) and the routine records *that* number in its
result, so even an unseeded result can be reproduced exactly (issue 9).
"""

from __future__ import annotations

import secrets

__all__ = ["resolve_seed"]


def resolve_seed(seed: int | None) -> int:
    """``seed`` as a Python int, or a fresh random seed when it is None."""
    return secrets.randbits(31) if seed is None else int(seed)
