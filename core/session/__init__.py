"""Layer 6, session: what a user has loaded and chosen, and the one evaluation path the window, CLI
and API share."""
