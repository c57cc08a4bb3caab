"""Every file operation of the interpreter, behind one small interface with two backends.

The interpreter and its commands never call ``os``, ``open`` or ``os.path``'s
filesystem-touching functions directly: they call this module's functions
(``fs.stat``, ``fs.open``, ``fs.scandir``...), which forward to the backend of the current
run. ``run_script`` installs the backend for the run's duration:

- ``RealFS``: a real directory (the one ``run_script(root=...)`` is given, through
  ``Shell.host_path``); the in-process tests and the fidelity cases run on it;
- ``memfs.MemoryFS``: a tree in the interpreter's own memory, loaded from a snapshot and
  read back as one diff (the guest runs on it: no WASI file operation per entry).

Both raise ``OSError`` with the errno the kernel would give, so commands word their
messages from ``errno`` alone and cannot tell the backends apart. Paths are the host paths
``Shell.host_path`` returns; pure path arithmetic (``os.path.join``, ``normpath``...) touches
no filesystem and stays with ``os.path``.

The backend lives in a ``ContextVar``: a thread (or a run nested in another) sees its own,
and a caller that installed none gets ``RealFS``.
"""

from __future__ import annotations

import builtins
import contextvars
import os
import stat as st
from contextlib import contextmanager
from typing import IO, Any, BinaryIO, ContextManager, Iterator, Literal, Protocol, TextIO, overload


class DirEntry(Protocol):
    """What ``scandir`` yields: the part of ``os.DirEntry`` the commands use."""

    @property
    def name(self) -> str: ...

    @property
    def path(self) -> str: ...

    def is_dir(self, *, follow_symlinks: bool = True) -> bool: ...

    def is_file(self, *, follow_symlinks: bool = True) -> bool: ...

    def is_symlink(self) -> bool: ...

    def stat(self, *, follow_symlinks: bool = True) -> os.stat_result: ...

    def inode(self) -> int: ...


class Backend(Protocol):
    """The file operations a run may perform; ``os``'s names, signatures and errors."""

    def open(self, path: str, mode: str = "r", buffering: int = -1, encoding: str | None = None,
             errors: str | None = None) -> IO[Any]: ...

    def open_rw(self, path: str) -> BinaryIO:
        """Read and write, created (0644) if missing, never truncated, unbuffered (``<>``)."""

    def create_exclusive(self, path: str, mode: int) -> None:
        """Create an empty file that must not exist yet (``O_CREAT | O_EXCL``)."""

    def fstat(self, handle: IO[Any]) -> os.stat_result: ...

    def stat(self, path: str) -> os.stat_result: ...

    def lstat(self, path: str) -> os.stat_result: ...

    def isdir(self, path: str) -> bool:
        """``os.path.isdir``: a directory, links followed; False for any error."""

    def scandir(self, path: str) -> ContextManager[Iterator[DirEntry]]: ...

    def listdir(self, path: str) -> list[str]: ...

    def mkdir(self, path: str, mode: int = 0o777) -> None: ...

    def rmdir(self, path: str) -> None: ...

    def unlink(self, path: str) -> None: ...

    def replace(self, src: str, dst: str) -> None: ...

    def symlink(self, target: str, path: str) -> None: ...

    def readlink(self, path: str) -> str: ...

    def link(self, src: str, dst: str) -> None: ...

    def utime(self, path: str, times: tuple[float, float] | None = None, *,
              ns: tuple[int, int] | None = None, follow_symlinks: bool = True) -> None: ...

    def chmod(self, path: str, mode: int) -> None: ...

    def access(self, path: str, mode: int) -> bool: ...

    def realpath(self, path: str) -> str: ...


class RealFS:
    """A real directory: ``os`` itself."""

    def open(self, path: str, mode: str = "r", buffering: int = -1, encoding: str | None = None,
             errors: str | None = None) -> IO[Any]:
        return builtins.open(path, mode, buffering, encoding, errors)

    def open_rw(self, path: str) -> BinaryIO:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        return os.fdopen(fd, "r+b", buffering=0)

    def create_exclusive(self, path: str, mode: int) -> None:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, mode))

    def fstat(self, handle: IO[Any]) -> os.stat_result:
        return os.fstat(handle.fileno())

    def stat(self, path: str) -> os.stat_result:
        return os.stat(path)

    def lstat(self, path: str) -> os.stat_result:
        return os.lstat(path)

    def isdir(self, path: str) -> bool:
        return os.path.isdir(path)

    def scandir(self, path: str) -> ContextManager[Iterator[DirEntry]]:
        return os.scandir(path)

    def listdir(self, path: str) -> list[str]:
        return os.listdir(path)

    def mkdir(self, path: str, mode: int = 0o777) -> None:
        os.mkdir(path, mode)

    def rmdir(self, path: str) -> None:
        os.rmdir(path)

    def unlink(self, path: str) -> None:
        os.unlink(path)

    def replace(self, src: str, dst: str) -> None:
        os.replace(src, dst)

    def symlink(self, target: str, path: str) -> None:
        os.symlink(target, path)

    def readlink(self, path: str) -> str:
        return os.readlink(path)

    def link(self, src: str, dst: str) -> None:
        os.link(src, dst)

    def utime(self, path: str, times: tuple[float, float] | None = None, *,
              ns: tuple[int, int] | None = None, follow_symlinks: bool = True) -> None:
        if ns is not None:
            os.utime(path, ns=ns, follow_symlinks=follow_symlinks)
        else:
            os.utime(path, times, follow_symlinks=follow_symlinks)

    def chmod(self, path: str, mode: int) -> None:
        os.chmod(path, mode)

    def access(self, path: str, mode: int) -> bool:
        return os.access(path, mode)

    def realpath(self, path: str) -> str:
        return os.path.realpath(path)


_REAL = RealFS()
_backend: contextvars.ContextVar[Backend] = contextvars.ContextVar("bash_fs", default=_REAL)


@contextmanager
def installed(backend: Backend) -> Iterator[Backend]:
    """``backend`` serves every file operation of this context until the block ends."""
    token = _backend.set(backend)
    try:
        yield backend
    finally:
        _backend.reset(token)


def current() -> Backend:
    return _backend.get()


BinaryMode = Literal["rb", "wb", "ab", "xb", "r+b", "w+b", "a+b"]
TextMode = Literal["r", "w", "a", "x", "rt", "wt", "at"]


# The operations, forwarded. Written out (not generated) so mypy checks every caller.
@overload
def open(path: str, mode: BinaryMode, buffering: int = -1, encoding: None = None,  # noqa: A001
         errors: None = None) -> BinaryIO: ...


@overload
def open(path: str, mode: TextMode = "r", buffering: int = -1,  # noqa: A001
         encoding: str | None = None, errors: str | None = None) -> TextIO: ...


@overload
def open(path: str, mode: str, buffering: int = -1, encoding: str | None = None,  # noqa: A001
         errors: str | None = None) -> IO[Any]: ...


def open(path: str, mode: str = "r", buffering: int = -1, encoding: str | None = None,  # noqa: A001
         errors: str | None = None) -> IO[Any]:
    return _backend.get().open(path, mode, buffering, encoding, errors)


def open_rw(path: str) -> BinaryIO:
    return _backend.get().open_rw(path)


def create_exclusive(path: str, mode: int = 0o600) -> None:
    _backend.get().create_exclusive(path, mode)


def fstat(handle: IO[Any]) -> os.stat_result:
    return _backend.get().fstat(handle)


def stat(path: str) -> os.stat_result:
    return _backend.get().stat(path)


def lstat(path: str) -> os.stat_result:
    return _backend.get().lstat(path)


def scandir(path: str) -> ContextManager[Iterator[DirEntry]]:
    return _backend.get().scandir(path)


def listdir(path: str) -> list[str]:
    return _backend.get().listdir(path)


def mkdir(path: str, mode: int = 0o777) -> None:
    _backend.get().mkdir(path, mode)


def makedirs(path: str, mode: int = 0o777, exist_ok: bool = False) -> None:
    """``os.makedirs`` over the current backend."""
    head, tail = os.path.split(path)
    if not tail:
        head, tail = os.path.split(head)
    if head and tail and not lexists(head):
        try:
            makedirs(head, exist_ok=exist_ok)
        except FileExistsError:
            pass  # made meanwhile, as os.makedirs tolerates
    try:
        mkdir(path, mode)
    except OSError:
        if not exist_ok or not isdir(path):
            raise


def rmdir(path: str) -> None:
    _backend.get().rmdir(path)


def unlink(path: str) -> None:
    _backend.get().unlink(path)


def replace(src: str, dst: str) -> None:
    _backend.get().replace(src, dst)


def symlink(target: str, path: str) -> None:
    _backend.get().symlink(target, path)


def readlink(path: str) -> str:
    return _backend.get().readlink(path)


def link(src: str, dst: str) -> None:
    _backend.get().link(src, dst)


def utime(path: str, times: tuple[float, float] | None = None, *,
          ns: tuple[int, int] | None = None, follow_symlinks: bool = True) -> None:
    _backend.get().utime(path, times, ns=ns, follow_symlinks=follow_symlinks)


def chmod(path: str, mode: int) -> None:
    _backend.get().chmod(path, mode)


def access(path: str, mode: int) -> bool:
    return _backend.get().access(path, mode)


def realpath(path: str) -> str:
    return _backend.get().realpath(path)


def exists(path: str) -> bool:
    try:
        stat(path)
    except (OSError, ValueError):
        return False
    return True


def lexists(path: str) -> bool:
    try:
        lstat(path)
    except (OSError, ValueError):
        return False
    return True


def isdir(path: str) -> bool:
    return _backend.get().isdir(path)


def isfile(path: str) -> bool:
    try:
        return st.S_ISREG(stat(path).st_mode)
    except (OSError, ValueError):
        return False


def islink(path: str) -> bool:
    try:
        return st.S_ISLNK(lstat(path).st_mode)
    except (OSError, ValueError):
        return False


def walk(top: str) -> Iterator[tuple[str, list[str], list[str]]]:
    """``os.walk(top)``: top-down, symlinks to directories listed but not followed, and
    unreadable directories skipped."""
    try:
        with scandir(top) as it:
            entries = list(it)
    except OSError:
        return
    dirs: list[str] = []
    files: list[str] = []
    for entry in entries:
        try:
            is_dir = entry.is_dir()
        except OSError:
            is_dir = False
        (dirs if is_dir else files).append(entry.name)
    yield top, dirs, files
    for name in dirs:
        path = os.path.join(top, name)
        if not islink(path):
            yield from walk(path)
