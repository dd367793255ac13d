"""Entry point of the ``yardstick`` console command.

``yardstick SUBCOMMAND ...`` runs headless (``yardstick.cli``) without importing Qt;
anything else opens the window (``yardstick.gui.app``), which needs the ``gui`` extra
(PySide6 and pyqtgraph): without them the command says how to get them and exits 1.
"""

from __future__ import annotations

import importlib.util
import sys

#: what ``yardstick`` without a subcommand says where Qt is not installed
NO_WINDOW = """yardstick: the window needs PySide6 and pyqtgraph ({missing} is not installed).
Install them with:

    pip install "yardstick-ir[gui]"

The headless subcommands work without them: {subcommands}
(yardstick COMMAND --help for each)."""


def missing_qt() -> str | None:
    """The first of the window's libraries that cannot be imported, or None."""
    for name in ("PySide6", "pyqtgraph"):
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        if spec is None:
            return name
    return None


def main(argv: list[str] | None = None) -> int:
    from_console = argv is None
    argv = sys.argv[1:] if argv is None else argv
    from yardstick.cli import SUBCOMMANDS, exit_now, one_blas_thread

    one_blas_thread()   # (the window does no linear algebra either)

    if argv and argv[0] in SUBCOMMANDS:
        from yardstick.cli import main as cli_main

        status = cli_main(argv)
        if from_console:
            exit_now(status)  # done once the output is flushed (see its docstring)
        return status
    missing = missing_qt()
    if missing is not None:
        print(NO_WINDOW.format(missing=missing, subcommands=", ".join(SUBCOMMANDS)),
              file=sys.stderr)
        return 1
    from yardstick.gui.app import main as gui_main

    return gui_main(argv)


if __name__ == "__main__":
    sys.exit(main())
