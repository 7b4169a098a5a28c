"""gametable: a digital game table for Sequence Cats, Dixit and Triominos."""

__version__ = "0.1.0"
