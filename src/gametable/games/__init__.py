"""The bundled games. Importing this package registers each of them by name."""

from gametable.core.registry import register
from gametable.games.sequence_cats import SEQUENCE_CATS

register(SEQUENCE_CATS)
