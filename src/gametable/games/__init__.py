"""The bundled games. Importing this package registers each of them by name."""

from gametable.core.registry import register
from gametable.games.dixit import DIXIT
from gametable.games.sequence_cats import SEQUENCE_CATS
from gametable.games.triominos import TRIOMINOS

register(DIXIT)
register(SEQUENCE_CATS)
register(TRIOMINOS)
