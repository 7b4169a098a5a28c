"""``python -m gametable``: the same command line as ``gametable`` (:mod:`gametable.cli`)."""

from gametable.cli import app

app(prog_name="gametable")
