"""``python -m yardstick.cli SUBCOMMAND …``: the headless commands without the window."""

import sys

from yardstick.cli import main

if __name__ == "__main__":
    sys.exit(main())
