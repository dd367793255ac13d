"""Entry point of the ``yardstick`` console command.

``yardstick SUBCOMMAND ...`` runs headless (``core.cli``) without importing Qt;
anything else opens the window (``gui.app``).
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    from core.cli import SUBCOMMANDS

    if argv and argv[0] in SUBCOMMANDS:
        from core.cli import main as cli_main

        return cli_main(argv)
    from gui.app import main as gui_main

    return gui_main(argv)


if __name__ == "__main__":
    sys.exit(main())
