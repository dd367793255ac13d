"""Layer 6, session: what a user has loaded and chosen (:class:`~yardstick.session.model.Session`),
and the evaluation function the window, the CLI and the API share."""
