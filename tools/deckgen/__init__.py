"""Generator of the default Dixit deck (``python -m tools.deckgen``)."""
