"""File-system primitives: read a source file without touching it, write an output atomically.

Reading never changes SRC: files and directories are opened with ``O_NOATIME`` where the kernel
allows it (so even the access time stays), ``O_NOFOLLOW`` (a symlink swapped in after the walk is
refused, not followed) and ``O_NONBLOCK`` (a FIFO swapped in after the walk cannot block the open;
``fstat`` then rejects it). Writes go to a temporary file in the destination directory, get the
source's permission bits and timestamps, are made durable, and are renamed into place, so an output
name only ever holds a complete file. A batch of temporary files (:class:`CommitGroup`) is made durable
by one ``syncfs(2)`` per file system where the kernel and the file system make that call wait for every
file's data and report write-back errors (:func:`batch_syncfs_usable`), else by one ``fsync`` per file;
then the renames, and once at the end of a run one ``fsync`` per directory that received a rename
(:func:`sync_directories`; a rename is durable only once its directory is, rename(2)).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import platform
import stat
from collections.abc import Callable, Iterable

__all__ = [
    "FATAL_ERRNOS",
    "TEMP_MARK",
    "NotRegularFile",
    "atomic_write",
    "batch_syncfs_usable",
    "is_fatal",
    "open_dir_noatime",
    "read_source",
    "remove_stale_temps",
    "sync_directories",
]

_NOATIME = getattr(os, "O_NOATIME", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
#: temporary output files are named ``.<name>.mojifix-tmp-<pid>``; a run (or --resume) removes
#: leftovers of a killed run before writing.
TEMP_MARK = b".mojifix-tmp-"
#: temporary files a :class:`CommitGroup` keeps open for its commit to fsync (a batch is at most 64
#: files, each with up to two quarantine side files): far below the usual 1024-descriptor limit
GROUP_OPEN_FILES = 256
#: errors after which continuing would only fail again: stop the run (exit code 2); the CLI also uses
#: them to tell a failed standard output from a failed named file
FATAL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO})
#: file systems (type names as /proc/self/mountinfo gives them) whose syncfs(2) writes back every dirty
#: file's data and metadata and waits for it, committing the journal and flushing the device cache as
#: fsync(2) of each file would (their ``sync_fs`` operations: ext4 and ext3 commit the jbd2 journal and
#: issue a flush, XFS forces its log, btrfs commits the transaction). Any other file system (FUSE, NFS,
#: overlayfs, vfat...) gets one fsync per file: there syncfs may do less. tmpfs is not listed: it has
#: nothing to write, and its fsync (0.2 us here) costs less than one syncfs (90 us) for a whole batch.
SYNCFS_FILE_SYSTEMS = frozenset({"ext3", "ext4", "xfs", "btrfs"})
#: the first Linux release whose syncfs(2) returns write-back errors (errseq on the super block, 5.8);
#: before it syncfs returned 0 whatever failed, so an I/O error would go unseen: fsync per file then
SYNCFS_REPORTS_ERRORS = (5, 8)


class NotRegularFile(OSError):
    """The path is not (or no longer) a regular file: FIFO, socket, device or directory."""


def is_fatal(exc: BaseException) -> bool:
    """True for I/O errors that end the whole run (disk full, quota, read-only file system, EIO)."""
    return isinstance(exc, OSError) and exc.errno in FATAL_ERRNOS


def _open_noatime(path: bytes, flags: int) -> int:
    try:
        return os.open(path, flags | _NOATIME)
    except PermissionError:
        if not _NOATIME:
            raise
        return os.open(path, flags)  # O_NOATIME needs ownership; fall back to a plain open


def open_dir_noatime(path: bytes) -> int:
    """A directory descriptor opened without updating the directory's access time."""
    return _open_noatime(path, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC)


def read_source(path: bytes, max_size: int | None = None) -> tuple[bytes | None, os.stat_result]:
    """Read a whole regular file in one read; returns (None, stat) when it is larger than ``max_size``."""
    fd = _open_noatime(path, os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW | _CLOEXEC)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFile(errno.EINVAL, "not a regular file", os.fsdecode(path))
        if max_size is not None and st.st_size > max_size:
            return None, st
        # os.read to the end of the file (its size from fstat, +1 to see that it ends there; a file
        # that grew since is read on), without a buffered file object per file
        parts = [os.read(fd, st.st_size + 1)]
        if len(parts[0]) == st.st_size:
            return parts[0], st  # all fstat's bytes and no more: the end (no second read to see b"")
        while parts[-1]:
            parts.append(os.read(fd, 1 << 20))
        return b"".join(parts), st
    finally:
        os.close(fd)


def open_source(path: bytes) -> tuple[int, os.stat_result]:
    """Open a regular file for streaming; the caller closes the descriptor."""
    fd = _open_noatime(path, os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW | _CLOEXEC)
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise NotRegularFile(errno.EINVAL, "not a regular file", os.fsdecode(path))
    return fd, st


def temp_name(dest: bytes) -> bytes:
    head, tail = os.path.split(dest)
    return os.path.join(head, b"." + tail + TEMP_MARK + str(os.getpid()).encode())


def _makedirs(directory: bytes) -> None:
    if directory:
        os.makedirs(directory, exist_ok=True)


class AtomicWriter:
    """Write chunks to a temporary file next to ``dest``; ``commit()`` fsyncs it and renames it into place
    (or leaves the rename to a :class:`CommitGroup`).

    Used as a context manager: leaving the block without ``commit()`` (an exception, a failed
    verification) removes the temporary file, so no partial output ever remains under any name.
    """

    def __init__(self, dest: bytes, st: os.stat_result | None = None, fsync: bool = True) -> None:
        self.dest = dest
        self.st = st
        self.fsync = fsync
        self.tmp = temp_name(dest)
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _CLOEXEC | _NOFOLLOW
        try:
            self.fd: int | None = os.open(self.tmp, flags, 0o600)
        except FileNotFoundError:  # the directory does not exist yet (checking first costs a stat per file)
            _makedirs(os.path.dirname(dest))
            self.fd = os.open(self.tmp, flags, 0o600)

    def write(self, data: bytes | memoryview) -> None:
        assert self.fd is not None
        view = memoryview(data)
        while view:
            n = os.write(self.fd, view)
            view = view[n:]

    def commit(self, group: CommitGroup | None = None) -> None:
        """Finish the temporary file: fsync and rename it now (and fsync its directory), or (with
        ``group``) hand it, still open, to a group commit that fsyncs and renames it later."""
        assert self.fd is not None
        fd, self.fd = self.fd, None
        try:
            if self.st is not None:
                os.fchmod(fd, stat.S_IMODE(self.st.st_mode))
                os.utime(fd, ns=(self.st.st_atime_ns, self.st.st_mtime_ns))  # after the last write
        except BaseException:
            os.close(fd)
            raise
        if group is not None:
            group.add(fd, self.tmp, self.dest, self.fsync)
            self.tmp = b""  # the group owns it now
            return
        try:
            if self.fsync:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.rename(self.tmp, self.dest)
        if self.fsync:
            sync_directories((os.path.dirname(self.dest),))

    def abort(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        if self.tmp:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.tmp)

    def __enter__(self) -> AtomicWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None or (self.tmp and os.path.lexists(self.tmp)):
            self.abort()


class CommitGroup:
    """Finished temporary files, made durable and renamed into place together by ``commit()``.

    The files stay open until then, so that the commit (a background thread with one worker) makes
    them durable while the next batch is examined (the calls release the GIL): one ``syncfs(2)`` per
    file system for the whole group where :func:`batch_syncfs_usable` says it keeps fsync's promise,
    else one fsync per file (0.4-1.7 ms each on the benchmark machine's ext4 under load, against
    3-31 ms for one syncfs of a 64-file batch: ``strace -c -f -w``, docs/convert.md). At most
    :data:`GROUP_OPEN_FILES` stay open; older ones are fsynced and closed at once. The renames follow,
    and wait until a batch's records may be reported (the manifest never names an output before its
    rename); ``directories`` collects where they went, for the one :func:`sync_directories` at the end
    of a run that makes the renames durable. ``abort()`` removes the temporary files that were not
    renamed.
    """

    def __init__(self) -> None:
        self.pending: list[tuple[int | None, bytes, bytes, bool]] = []  # (open fd, tmp, dest, fsync)
        self.open_files = 0
        self.directories: set[bytes] = set()

    def add(self, fd: int, tmp: bytes, dest: bytes, fsync: bool = True) -> None:
        """Take over the open temporary file ``fd`` at ``tmp``, to be renamed to ``dest``."""
        self.pending.append((fd, tmp, dest, fsync))
        self.open_files += 1
        if self.open_files > GROUP_OPEN_FILES:
            i = next(i for i, pending in enumerate(self.pending) if pending[0] is not None)
            self._close(i, self.pending[i][3])

    def commit(self) -> None:
        """Make every open temporary file durable (:meth:`_make_durable`), then rename each into place."""
        self._make_durable()
        while self.pending:
            _fd, tmp, dest, _fsync = self.pending[0]
            os.rename(tmp, dest)
            self.directories.add(os.path.dirname(dest))
            self.pending.pop(0)

    def _make_durable(self) -> None:
        """One syncfs per file system of the open files that ask for durability, where it is usable (on
        the descriptor opened first, so that its write-back errors since then are all reported), else
        one fsync each; then close them."""
        by_device: dict[int, list[int]] = {}
        for fd, _tmp, _dest, fsync in self.pending:
            if fd is not None and fsync:
                by_device.setdefault(os.fstat(fd).st_dev, []).append(fd)
        synced: set[int] = set()
        for device, fds in by_device.items():
            if len(fds) > 1 and batch_syncfs_usable(device):
                syncfs(fds[0])
                synced.update(fds)
        for i, (fd, _tmp, _dest, fsync) in enumerate(self.pending):
            if fd is not None:
                self._close(i, fsync and fd not in synced)

    def _close(self, i: int, fsync: bool) -> None:
        """Finish the open temporary file of pending entry ``i`` (:func:`_finish`, with an fsync when
        ``fsync``); the entry stays, to be renamed at commit."""
        fd, tmp, dest, wanted = self.pending[i]
        self.pending[i] = (None, tmp, dest, wanted)
        self.open_files -= 1
        _finish(fd, fsync)

    def abort(self) -> None:
        for fd, tmp, _, _ in self.pending:
            if fd is not None:
                os.close(fd)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        self.pending.clear()
        self.open_files = 0


def _finish(fd: int, fsync: bool) -> None:
    """fsync (when asked) and close a finished temporary file."""
    try:
        if fsync:
            os.fsync(fd)
    finally:
        os.close(fd)


@functools.cache  # the C library's function: the same for the whole process
def _libc_syncfs() -> Callable[[int], int] | None:
    """The C library's ``syncfs`` when this is Linux >= :data:`SYNCFS_REPORTS_ERRORS`, else None (Python's
    ``os`` has no syncfs; ctypes is imported only here, at the first group commit)."""
    import ctypes

    if platform.system() != "Linux":
        return None
    release = tuple(int(p) for p in platform.release().split("-")[0].split(".")[:2] if p.isdigit())
    if release < SYNCFS_REPORTS_ERRORS:
        return None
    try:
        fn = ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_int]
    fn.restype = ctypes.c_int
    return fn  # type: ignore[no-any-return]


def file_system_type(device: int) -> str | None:
    """The type of the file system mounted from ``device`` (an ``st_dev``), from /proc/self/mountinfo,
    or None when no mount names it (btrfs subvolumes' anonymous devices, no /proc)."""
    want = f"{os.major(device)}:{os.minor(device)}"
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                fields = line.split()
                if len(fields) > 2 and fields[2] == want and " - " in line:
                    return line.split(" - ", 1)[1].split()[0]
    except OSError:
        return None
    return None


@functools.cache  # per device, once a process: the mount table is read once, not at every group commit
def batch_syncfs_usable(device: int) -> bool:
    """True when one ``syncfs`` on the file system of ``device`` makes its files as durable as an fsync
    of each would, with errors reported: Linux >= 5.8 and a file system of :data:`SYNCFS_FILE_SYSTEMS`."""
    return _libc_syncfs() is not None and file_system_type(device) in SYNCFS_FILE_SYSTEMS


def syncfs(fd: int) -> None:
    """syncfs(2) on the file system holding ``fd``: raises OSError as fsync would."""
    import ctypes

    fn = _libc_syncfs()
    assert fn is not None, "syncfs called where batch_syncfs_usable is False"
    if fn(fd) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))


def sync_directories(directories: Iterable[bytes]) -> None:
    """fsync each directory once, so the renames into it survive a crash (rename(2) is durable only
    once its directory is)."""
    for directory in sorted(set(directories)):
        fd = os.open(directory or b".", os.O_RDONLY | _DIRECTORY | _CLOEXEC)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def atomic_write(
    dest: bytes,
    data: bytes,
    st: os.stat_result | None = None,
    fsync: bool = True,
    group: CommitGroup | None = None,
) -> None:
    """Write ``data`` to ``dest`` atomically (temp file in the same directory, fsync, rename, fsync of
    the directory), or leave the finished temporary file to ``group``."""
    with AtomicWriter(dest, st, fsync) as w:
        w.write(data)
        w.commit(group)


def remove_stale_temps(root: bytes) -> int:
    """Remove temporary files a killed run left under ``root``; returns how many."""
    removed = 0
    if not os.path.isdir(root):
        return 0
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            if TEMP_MARK in name:
                os.unlink(os.path.join(dirpath, name))
                removed += 1
    return removed
