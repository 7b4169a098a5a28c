"""One server per data folder: a second ``gametable serve`` on a folder in use refuses
to start, in one line, instead of serving stale tables and refusing their moves.

The lock is the operating system's (``flock`` on ``data_dir / "serve.lock"``), so it
goes with the process: a server that crashed or was killed leaves nothing to clean up.
Processes that share Redis also share their data folder on purpose (docs/deploy.md,
*Several processes*) and take no lock. The lock is taken by ``gametable serve``
(:func:`gametable.server.main.run`), not by the application: a program may open several
applications on one folder (the tests restart a server so).
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from gametable.server.storage import StorageError

LOCK_FILE = "serve.lock"


class FolderInUse(StorageError):
    """Another process serves the data folder (its pid, where it wrote it, in the
    message)."""


class FolderLock:
    """The data folder's lock, held until :meth:`release` (or the process's end)."""

    def __init__(self, descriptor: int) -> None:
        self._descriptor: int | None = descriptor

    @classmethod
    def take(cls, data_dir: Path) -> FolderLock:
        """Lock ``data_dir`` (made, mode 0700, if missing) for this process.

        Raises:
            FolderInUse: another process holds the lock; the message names its pid and
                what to do.
            StorageError: the folder cannot be made or written (its permissions).
        """
        path = data_dir / LOCK_FILE
        try:
            data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
            descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as error:
            raise StorageError(f"the data folder {data_dir.resolve()} cannot be used: "
                               f"{error.strerror or error}") from None
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(descriptor, 32).decode("ascii", "replace").strip()
            os.close(descriptor)
            who = f"another gametable server (pid {holder})" if holder.isdigit() \
                else "another gametable server"
            raise FolderInUse(
                f"{who} is serving the data folder {data_dir.resolve()}: stop it, or "
                "start this one with another --data-dir") from None
        os.ftruncate(descriptor, 0)
        os.write(descriptor, str(os.getpid()).encode())
        return cls(descriptor)

    def release(self) -> None:
        """Let another process serve the folder (idempotent)."""
        if self._descriptor is not None:
            os.close(self._descriptor)  # closing the file drops its flock
            self._descriptor = None
