"""Entry point of the ``yardstick`` console command.

``yardstick SUBCOMMAND ...`` runs headless (``yardstick.cli``) without importing Qt;
anything else opens the window (``yardstick.gui.app``).
"""

from __future__ import annotations

import sys


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
    from yardstick.gui.app import main as gui_main

    return gui_main(argv)


if __name__ == "__main__":
    sys.exit(main())
