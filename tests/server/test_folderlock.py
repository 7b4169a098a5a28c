"""One server per data folder, or the processes of one cluster (server/folderlock.py)."""

from __future__ import annotations

import errno
import fcntl
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gametable.server.folderlock import (
    HOLDERS,
    FolderInUse,
    FolderLock,
    FolderUnlockable,
    this_process,
)
from gametable.server.storage import StorageError

ME = re.escape(this_process())
"""``pid N on HOST``: every holder in these tests is this process."""


def test_a_folder_served_alone_refuses_a_second_server_naming_the_first(tmp_path: Path
                                                                        ) -> None:
    first = FolderLock.take(tmp_path)
    with pytest.raises(FolderInUse, match=rf"another gametable server \({ME}\) "
                                          "is serving the data folder .*another --data-dir"):
        FolderLock.take(tmp_path)
    first.release()
    FolderLock.take(tmp_path).release()  # free again once the first stopped


def test_a_clusters_processes_share_a_folder_and_a_process_without_redis_is_refused(
        tmp_path: Path) -> None:
    """A process without Redis on a cluster's folder served the cluster's tables without
    their owners' fencing: two people were each given seat 1 of one table. The refusal
    names the cluster's processes (docs/deploy.md: it says which process serves the
    folder); it named none."""
    one, two = FolderLock.take(tmp_path, shared=True), FolderLock.take(tmp_path, shared=True)
    with pytest.raises(FolderInUse, match=rf"gametable servers sharing Redis \({ME}, {ME}\) "
                                          r"are serving the data folder .*their --redis"):
        FolderLock.take(tmp_path)
    one.release()
    with pytest.raises(FolderInUse, match=rf"sharing Redis \({ME}\) are serving"):
        FolderLock.take(tmp_path)
    two.release()
    FolderLock.take(tmp_path).release()
    assert list((tmp_path / HOLDERS).iterdir()) == []  # each holder took its file away


def test_a_refusal_names_the_processes_still_running_not_those_that_crashed(
        tmp_path: Path) -> None:
    """A holder killed with SIGKILL leaves its file behind: nothing holds its lock, so it
    is left out of the next refusal, and removed."""
    taken = subprocess.run(
        [sys.executable, "-c", "import os, sys\n"
         "from pathlib import Path\n"
         "from gametable.server.folderlock import FolderLock\n"
         "FolderLock.take(Path(sys.argv[1]), shared=True)\n"
         "os._exit(0)  # no release, as after kill -9\n", str(tmp_path)],
        capture_output=True, text=True, timeout=60, check=False)
    assert taken.returncode == 0, taken.stderr
    assert len(list((tmp_path / HOLDERS).iterdir())) == 1
    running = FolderLock.take(tmp_path, shared=True)
    with pytest.raises(FolderInUse) as refused:
        FolderLock.take(tmp_path)
    assert f"sharing Redis ({this_process()}) are serving" in str(refused.value)
    assert len(list((tmp_path / HOLDERS).iterdir())) == 1  # the crashed one's is gone
    running.release()


def test_a_clusters_process_is_refused_beside_a_process_without_redis(tmp_path: Path
                                                                      ) -> None:
    alone = FolderLock.take(tmp_path)
    with pytest.raises(FolderInUse, match=rf"a gametable server without --redis \({ME}\) "
                                          "is serving the data folder"):
        FolderLock.take(tmp_path, shared=True)
    alone.release()
    FolderLock.take(tmp_path, shared=True).release()


def test_a_file_system_without_flock_is_said_as_such_not_as_another_server(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Any refusal of flock read as "another gametable server is serving": on a file
    system without locks (NFS without its lock daemon) no server could start, and the
    message named one that did not exist."""
    def no_locks(descriptor: int, operation: int) -> None:
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))

    monkeypatch.setattr(fcntl, "flock", no_locks)
    with pytest.raises(FolderUnlockable, match=r"serve\.lock cannot be locked: No locks"):
        FolderLock.take(tmp_path)


def read_only_lock_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``serve.lock`` open as on a read-only file system: read-only, or not at all."""
    real_open = os.open

    def read_only(path: str, flags: int, mode: int = 0o777) -> int:
        if str(path).endswith("serve.lock") and flags & (os.O_RDWR | os.O_WRONLY):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS))
        return real_open(path, flags, mode)

    monkeypatch.setattr(os, "open", read_only)


def test_a_read_only_folder_is_said_as_such(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A read-only data folder served PostgreSQL's tables before the lock: the lock file
    that cannot be written is told (the server goes on, unlocked), not a fault."""
    read_only_lock_file(monkeypatch)
    with pytest.raises(FolderUnlockable, match=r"serve\.lock cannot be written: Read-only"):
        FolderLock.take(tmp_path)


def test_a_read_only_folder_with_a_lock_file_is_still_locked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder made read-only after a server had served it keeps its lock file: the lock
    is taken on it read-only (a second server was let in, unlocked)."""
    FolderLock.take(tmp_path).release()  # the lock file of an earlier server
    read_only_lock_file(monkeypatch)
    first = FolderLock.take(tmp_path)
    with pytest.raises(FolderInUse, match="is serving the data folder"):
        FolderLock.take(tmp_path)
    first.release()


def test_another_users_lock_file_refuses_the_folder_as_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A lock file this process may not even read (the folder of a server run by another
    user) refuses the folder in one line, as before the lock: it was served unlocked
    with a warning, and then failed on the folder's secret key with a traceback."""
    real_open = os.open

    def not_ours(path: str, flags: int, mode: int = 0o777) -> int:
        if str(path).endswith("serve.lock"):
            raise OSError(errno.EACCES, os.strerror(errno.EACCES))
        return real_open(path, flags, mode)

    monkeypatch.setattr(os, "open", not_ours)
    with pytest.raises(StorageError, match=r"the data folder .* cannot be used: "
                                           r"serve\.lock: Permission denied") as refused:
        FolderLock.take(tmp_path)
    assert not isinstance(refused.value, FolderUnlockable)
