"""pyarrow arrays made from numpy buffers, and pyarrow's compute functions called by name.

Both spare ``yardstick eval`` an import: ``pa.array`` of Python objects imports
pandas (0.3 s), and ``import pyarrow.compute`` makes a Python wrapper for each of
its hundreds of functions (30-90 ms), where the compiled ``call_function`` is
all that is needed.
"""

from __future__ import annotations

import numpy as np


def call(name: str, args: list, options=None):
    """pyarrow compute function ``name`` on ``args`` (``pyarrow.compute.call_function``)."""
    try:
        from pyarrow._compute import call_function
    except ImportError:  # (should pyarrow move it)
        from pyarrow.compute import call_function
    return call_function(name, args, options)


def set_lookup(values):
    """``SetLookupOptions`` for ``index_in`` / ``is_in`` against the array ``values``."""
    try:
        from pyarrow._compute import SetLookupOptions
    except ImportError:
        from pyarrow.compute import SetLookupOptions
    return SetLookupOptions(values)


def int64_array(codes: np.ndarray):
    """int64 codes as a pyarrow array, from their buffer."""
    import pyarrow as pa

    codes = np.ascontiguousarray(codes, dtype=np.int64)
    return pa.Array.from_buffers(pa.int64(), len(codes), [None, pa.py_buffer(codes)])


def string_array(strings, large: bool = False):
    """Python strings (surrogate escapes kept as their bytes) as a pyarrow ``string``
    array, or ``large_string`` (64-bit offsets), built from its buffers."""
    import pyarrow as pa

    enc = [x.encode("utf-8", "surrogateescape") for x in strings]
    offsets = np.zeros(len(enc) + 1, np.int64 if large else np.int32)
    np.cumsum([len(e) for e in enc], out=offsets[1:])
    return pa.Array.from_buffers(pa.large_string() if large else pa.string(), len(enc),
                                 [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(enc))])


def empty_strings(n: int):
    """n empty ``large_string`` values (the separator of a line join)."""
    import pyarrow as pa

    return pa.Array.from_buffers(pa.large_string(), n,
                                 [None, pa.py_buffer(np.zeros(n + 1, np.int64)), pa.py_buffer(b"")])
