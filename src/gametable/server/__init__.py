"""The web server: tables, seats, the lobby and the browser client over HTTP and
websockets (``gametable serve``).

It needs the ``server`` extra (FastAPI, uvicorn, Pillow, the PostgreSQL and Redis
drivers…): ``pip install -e '.[server]'`` in a checkout; ``./scripts/serve`` installs
it. The rules engine and the computer players need none of it (docs/python.md).

Raises:
    ImportError: on import, when a package of the ``server`` extra is missing (the
        message names it and the command that installs it).
"""

from __future__ import annotations

import importlib.util

SERVER_MODULES = ("fastapi", "uvicorn", "starlette", "python_multipart", "PIL", "psycopg",
                  "psycopg_pool", "prometheus_client", "pythonjsonlogger", "redis", "httpx",
                  "websockets")
"""The top-level modules of the ``server`` extra's packages (and of FastAPI's Starlette)."""


def _missing(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is None
    except (ImportError, ValueError):
        return True


_absent = [module for module in SERVER_MODULES if _missing(module)]
if _absent:
    raise ImportError(
        f"the gametable server needs the packages of its 'server' extra ({', '.join(_absent)} "
        "missing): pip install -e '.[server]' in a checkout of gametable, or run "
        "./scripts/serve", name=_absent[0])
