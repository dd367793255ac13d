import os
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Tests point YARDSTICK_DATA_DIR at their own tmp_path with monkeypatch, which puts
# the old value back before pytest-qt closes the windows; a window closing then
# saved its settings and last session into the user's real data folder.  Between
# tests the variable now names a throw-away folder instead of nothing.
os.environ.setdefault("YARDSTICK_DATA_DIR", tempfile.mkdtemp(prefix="yardstick-tests-"))
