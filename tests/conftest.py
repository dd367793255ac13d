import atexit
import os
import shutil
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Tests point YARDSTICK_DATA_DIR at their own tmp_path with monkeypatch, which puts
# the old value back before pytest-qt closes the windows; a window closing then
# saved its settings and last session into the user's real data folder.  Between
# tests the variable now names a throw-away folder instead of nothing.
if "YARDSTICK_DATA_DIR" not in os.environ:
    _scratch = tempfile.mkdtemp(prefix="yardstick-tests-")
    os.environ["YARDSTICK_DATA_DIR"] = _scratch
    atexit.register(shutil.rmtree, _scratch, ignore_errors=True)


# Reference cycles are collected on the main (GUI) thread only, between tests, as the
# window collects them on its GUI thread (yardstick.gui.heap.collect_on_gui_thread):
# an automatic collection inside a job's worker thread that frees Qt objects left by an
# earlier test (a panel's replaced plot items) destroys them off the GUI thread, which
# crashed a pytest-xdist worker once (segfault during a pool job).
import gc  # noqa: E402

import pytest  # noqa: E402

gc.disable()


_tests_run = [0]


@pytest.fixture(autouse=True)
def _collect_on_the_main_thread():
    yield
    # the test's own cycles are young (generations 0 and 1): cheap to collect; a full
    # collection walks every module's objects (~0.1 s), so only every 50 tests
    _tests_run[0] += 1
    gc.collect(2 if _tests_run[0] % 50 == 0 else 1)
