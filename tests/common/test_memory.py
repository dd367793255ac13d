"""release_freed_memory gives the pages of freed arrays back (issue 30: pool's peak).

The pattern is ``yardstick pool``'s: many arrays of a few megabytes allocated after
glibc's mmap threshold rose (so they come from the heap), each followed by a small
allocation that stays, then all of them freed: the resident size stays up until the
heap is trimmed.  Run in a child process, for a heap of its own.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from yardstick.common.memory import _malloc_trim

CHILD = r"""
import numpy as np
from yardstick.common.memory import release_freed_memory

def rss_mb():
    return int(open('/proc/self/status').read().split('VmRSS:')[1].split()[0]) / 1024

big = np.ones(16 << 20, np.uint8); del big      # raises glibc's mmap threshold to 16 MB
arrays = []
for _ in range(50):
    arrays.append(np.ones(2 << 20, np.uint8))   # 2 MB: now from the heap
    arrays.append(np.ones(4096, np.uint8))      # stays, between them
arrays[:] = arrays[1::2]
before = rss_mb()
released = release_freed_memory()
print(before, rss_mb(), released)
"""


@pytest.mark.skipif(_malloc_trim() is None, reason="glibc's malloc_trim only")
def test_freed_arrays_pages_go_back_to_the_system():
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                         check=True).stdout.split()
    before, after, released = float(out[0]), float(out[1]), out[2]
    # 100 MB of freed 2 MB arrays were still resident; the trim hands most of it back
    assert released == "True"
    assert before - after > 60, (before, after)
