"""``python -m yardstick.cli SUBCOMMAND …``: the headless commands without the window."""

from yardstick.cli import exit_now, main

if __name__ == "__main__":
    exit_now(main())
