"""``python -m gametable``: the same command line as ``gametable`` (:mod:`gametable.cli`)."""

from gametable.cli import main

main()
