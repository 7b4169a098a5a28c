"""One server per data folder: a second ``gametable serve`` on a folder in use refuses
to start, in one line, instead of serving stale tables and refusing their moves.

The lock is the operating system's (``flock`` on ``data_dir / "serve.lock"``), so it
goes with the process: a server that crashed or was killed leaves nothing to clean up.
Processes that share Redis share their data folder on purpose (docs/deploy.md,
*Several processes*): each holds the lock shared, a process without Redis holds it
alone. So a process without Redis cannot start beside a cluster on its folder (it would
serve the cluster's tables without the owners' fencing: two people were given one
seat), nor a cluster's process beside it. The lock is taken by ``gametable serve``
(:func:`gametable.server.main.run`), not by the application: a program may open several
applications on one folder (the tests restart a server so).

A refusal names the processes serving the folder: each holder of the lock, alone or
shared, leaves a file in ``data_dir / "serve.holders"`` saying ``pid N on HOST``, locked
(``flock``) for as long as it holds the folder. A file whose lock can be taken is a
crashed holder's: it is left out of the message and removed.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import secrets
import socket
from pathlib import Path

from gametable.server.storage import StorageError

LOCK_FILE = "serve.lock"
HOLDERS = "serve.holders"
"""The folder (in the data folder) of one file per process holding the lock."""


class FolderInUse(StorageError):
    """Another process serves the data folder (the message names the processes serving
    it, where they noted themselves)."""


class FolderUnlockable(StorageError):
    """The folder's lock file cannot be written or locked (the message says why)."""


class FolderLock:
    """The data folder's lock, held until :meth:`release` (or the process's end)."""

    def __init__(self, descriptor: int, holder: tuple[int, Path] | None = None) -> None:
        self._descriptor: int | None = descriptor
        self._holder = holder
        """This process's file in :data:`HOLDERS` (its descriptor, holding its lock)."""

    @classmethod
    def take(cls, data_dir: Path, *, shared: bool = False) -> FolderLock:
        """Lock ``data_dir`` (made, mode 0700, if missing) for this process: alone, or
        with ``shared`` beside the other processes of a cluster (those sharing Redis).

        Raises:
            FolderInUse: the folder is served in the other way, or (alone) by another
                process; the message names the processes serving it (``pid N on
                HOST``, as they noted themselves) and what to do.
            FolderUnlockable: the lock file cannot be written (a read-only folder) or
                locked (a file system without ``flock``): the server may go on, unlocked.
            StorageError: the folder cannot be made.
        """
        path = data_dir / LOCK_FILE
        try:
            data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as error:
            raise StorageError(f"the data folder {data_dir.resolve()} cannot be used: "
                               f"{error.strerror or error}") from None
        writable = True
        try:
            descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as error:  # a read-only folder (PostgreSQL may hold the tables)
            try:  # a lock file made before: flock works on it read-only
                descriptor, writable = os.open(path, os.O_RDONLY), False
            except FileNotFoundError:
                raise FolderUnlockable(f"{path.resolve()} cannot be written: "
                                       f"{error.strerror or error}") from None
            except OSError as unreadable:  # another user's folder, say
                raise StorageError(
                    f"the data folder {data_dir.resolve()} cannot be used: {LOCK_FILE}: "
                    f"{unreadable.strerror or unreadable}") from None
        try:
            fcntl.flock(descriptor, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
                        | fcntl.LOCK_NB)
        except OSError as error:
            if error.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):  # no flock there
                os.close(descriptor)
                raise FolderUnlockable(f"{path.resolve()} cannot be locked: "
                                       f"{error.strerror or error}") from None
            said = _refusal(descriptor, data_dir.resolve(), shared)
            os.close(descriptor)
            raise FolderInUse(said) from None
        if not shared and writable:  # the pid of the one process serving it alone
            os.ftruncate(descriptor, 0)
            os.write(descriptor, str(os.getpid()).encode())
        return cls(descriptor, _note_holder(data_dir) if writable else None)

    def release(self) -> None:
        """Let another process serve the folder (idempotent)."""
        if self._holder is not None:
            holder, path = self._holder
            self._holder = None
            with contextlib.suppress(OSError):  # else left unlocked: a refusal removes it
                path.unlink(missing_ok=True)
            os.close(holder)
        if self._descriptor is not None:
            os.close(self._descriptor)  # closing the file drops its flock
            self._descriptor = None


def this_process() -> str:
    """How a refusal names this process: ``pid N on HOST``."""
    return f"pid {os.getpid()} on {socket.gethostname()}"


def _note_holder(data_dir: Path) -> tuple[int, Path] | None:
    """This process's file in :data:`HOLDERS`, locked until it is closed: made under a
    name the refusals pass over, locked, then given its own name, so that none takes it
    for a crashed holder's. ``None`` where it cannot be made (the lock holds anyway)."""
    folder = data_dir / HOLDERS
    name = secrets.token_hex(8)
    making, path = folder / f".{name}", folder / name
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        descriptor = os.open(making, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError:
        return None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.write(descriptor, this_process().encode())
        os.rename(making, path)
    except OSError:
        os.close(descriptor)
        making.unlink(missing_ok=True)
        return None
    return descriptor, path


def _holders(data_dir: Path) -> list[str]:
    """The processes that hold the folder's lock, as each noted itself (``pid N on
    HOST``), sorted; the files of holders that are gone are removed."""
    folder = data_dir / HOLDERS
    try:
        names = sorted(entry.name for entry in folder.iterdir()
                       if not entry.name.startswith("."))
    except OSError:
        return []
    found: list[str] = []
    for name in names:
        try:
            descriptor = os.open(folder / name, os.O_RDONLY)
        except OSError:
            continue  # its holder has just let go
        try:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except OSError as error:
                if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN):  # its holder runs
                    said = os.read(descriptor, 300).decode("utf-8", "replace").strip()
                    if said:
                        found.append(said)
                continue
            with contextlib.suppress(OSError):  # a crashed holder's: nothing holds it
                (folder / name).unlink()
        finally:
            os.close(descriptor)
    return sorted(found)


def _refusal(descriptor: int, folder: Path, shared: bool) -> str:
    """Why the lock on ``descriptor`` was refused, and what to do, in a line: a process
    alone holds it, or (asked alone) a cluster's processes; each named as it noted
    itself in :data:`HOLDERS` (a process alone, where it did not: by the pid it wrote in
    the lock file)."""
    holders = _holders(folder)
    holder = os.read(descriptor, 32).decode("ascii", "replace").strip()
    alone = (", ".join(holders) if holders
             else f"pid {holder}" if holder.isdigit() else "it holds it alone")
    if shared:
        return (f"a gametable server without --redis ({alone}) is serving the data folder "
                f"{folder}: stop it, or start this one with another --data-dir")
    try:  # a shared lock granted now means the holders are a cluster's processes
        fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return (f"another gametable server ({alone}) is serving the data folder {folder}: "
                "stop it, or start this one with another --data-dir")
    named = f" ({', '.join(holders)})" if holders else ""
    return (f"gametable servers sharing Redis{named} are serving the data folder {folder}: "
            "start this one with their --redis (and --database), or with another "
            "--data-dir")
