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
