"""How the server's log names a table without giving its id away.

A table's id is its invite link (and its watch link): whoever reads the log (a log
collector, an operator's screen) could take an open seat with it. The log names a table
by ``t-`` and the first ten hex digits of the id's SHA-256 instead; an operator with an
id works out its name with ``python -c "from gametable.server.logname import log_name;
print(log_name('ID'))"``.
"""

from __future__ import annotations

import hashlib


def log_name(table_id: str) -> str:
    """The name of table ``table_id`` in the log, ``t-`` and 10 hex digits."""
    return "t-" + hashlib.sha256(table_id.encode()).hexdigest()[:10]
