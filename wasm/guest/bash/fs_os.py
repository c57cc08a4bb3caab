"""An ``os`` for the libraries the interpreter embeds, answered by the current ``fs`` backend.

``git`` is built on dulwich, which does its own file I/O with ``os``, ``os.path`` and
``open`` (loose objects, refs, the index, config and ignore files, lock files). Its modules
are given this namespace as their ``os`` and its ``open`` as their ``open``
(``install``), so a repository lives wherever the run's files live: on the real directory
under ``fs.RealFS``, in the tree under ``memfs.MemoryFS``. Names it does not override
(``environ``, ``fsencode``, the ``O_*`` flags...) are the real ``os``'s.

Paths may be ``bytes`` (dulwich's refs are); they are decoded with ``os.fsdecode`` and
results given back in the caller's type. Descriptors: over memory, ``open`` hands out
numbers from a private table (never a real descriptor), which ``fdopen``, ``close`` and
``fsync`` understand; over the real directory everything is the real call.
"""

from __future__ import annotations

import errno
import os
import posixpath
import sqlite3
import sys
from types import ModuleType
from typing import IO, Any, AnyStr

from . import fs

_FAKE_BASE = 1 << 24
_fds: dict[int, tuple[str, int]] = {}
_next_fd = [_FAKE_BASE]


def _real() -> bool:
    return isinstance(fs.current(), fs.RealFS)


def _s(path: Any) -> str:
    return os.fsdecode(os.fspath(path))


def _like(template: Any, value: str) -> Any:
    return os.fsencode(value) if isinstance(template, bytes) else value


class _Path:
    """``os.path`` with the filesystem-touching functions forwarded to ``fs``."""

    def __getattr__(self, name: str) -> Any:
        return getattr(posixpath, name)

    def exists(self, path: Any) -> bool:
        return fs.exists(_s(path))

    def lexists(self, path: Any) -> bool:
        return fs.lexists(_s(path))

    def isdir(self, path: Any) -> bool:
        return fs.isdir(_s(path))

    def isfile(self, path: Any) -> bool:
        return fs.isfile(_s(path))

    def islink(self, path: Any) -> bool:
        return fs.islink(_s(path))

    def getmtime(self, path: Any) -> float:
        return fs.stat(_s(path)).st_mtime

    def getsize(self, path: Any) -> int:
        return fs.stat(_s(path)).st_size

    def realpath(self, path: AnyStr) -> AnyStr:
        return _like(path, fs.realpath(_s(path)))  # type: ignore[no-any-return]


class _Os:
    """``os`` with its file operations forwarded to ``fs``."""

    path = _Path()

    def __getattr__(self, name: str) -> Any:
        return getattr(os, name)

    def stat(self, path: Any, *, follow_symlinks: bool = True) -> os.stat_result:
        if isinstance(path, int):
            return self.fstat(path)
        return fs.stat(_s(path)) if follow_symlinks else fs.lstat(_s(path))

    def lstat(self, path: Any) -> os.stat_result:
        return fs.lstat(_s(path))

    def fstat(self, fd: int) -> os.stat_result:
        if fd in _fds:
            return fs.stat(_fds[fd][0])
        return os.fstat(fd)

    def listdir(self, path: Any = ".") -> list[Any]:
        return [_like(path, name) for name in fs.listdir(_s(path))]

    def scandir(self, path: Any = ".") -> Any:
        return fs.scandir(_s(path))

    def walk(self, top: Any, topdown: bool = True, onerror: Any = None,
             followlinks: bool = False) -> Any:
        for dirpath, dirs, files in fs.walk(_s(top)):
            yield _like(top, dirpath), [_like(top, d) for d in dirs], [_like(top, f) for f in files]

    def mkdir(self, path: Any, mode: int = 0o777) -> None:
        fs.mkdir(_s(path), mode)

    def makedirs(self, path: Any, mode: int = 0o777, exist_ok: bool = False) -> None:
        fs.makedirs(_s(path), mode, exist_ok)

    def rmdir(self, path: Any) -> None:
        fs.rmdir(_s(path))

    def unlink(self, path: Any) -> None:
        fs.unlink(_s(path))

    remove = unlink

    def rename(self, src: Any, dst: Any) -> None:
        if not _real() and fs.lexists(_s(dst)) and fs.isdir(_s(dst)) != fs.isdir(_s(src)):
            raise OSError(errno.EISDIR if fs.isdir(_s(dst)) else errno.ENOTDIR, "rename", _s(dst))
        fs.replace(_s(src), _s(dst))

    def replace(self, src: Any, dst: Any) -> None:
        fs.replace(_s(src), _s(dst))

    def chmod(self, path: Any, mode: int) -> None:
        fs.chmod(_s(path), mode)

    def utime(self, path: Any, times: Any = None, *, ns: Any = None) -> None:
        fs.utime(_s(path), times, ns=ns)

    def readlink(self, path: AnyStr) -> AnyStr:
        return _like(path, fs.readlink(_s(path)))  # type: ignore[no-any-return]

    def symlink(self, target: Any, path: Any) -> None:
        fs.symlink(_s(target), _s(path))

    def open(self, path: Any, flags: int, mode: int = 0o777) -> int:
        if _real():
            return os.open(path, flags, mode)
        name = _s(path)
        if flags & os.O_NOFOLLOW and fs.islink(name):
            raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), name)
        if flags & os.O_CREAT and flags & os.O_EXCL:
            fs.create_exclusive(name, mode & 0o7777)
        elif flags & os.O_CREAT:
            fs.open(name, "ab").close()
        elif not fs.exists(name):
            raise OSError(errno.ENOENT, os.strerror(errno.ENOENT), name)
        if flags & os.O_TRUNC:
            fs.open(name, "wb").close()
        _next_fd[0] += 1
        _fds[_next_fd[0]] = (name, flags)
        return _next_fd[0]

    def fdopen(self, fd: int, mode: str = "r", buffering: int = -1) -> IO[Any]:
        if fd not in _fds:
            return os.fdopen(fd, mode, buffering)
        name, _ = _fds.pop(fd)
        # Made (and truncated, if asked) by ``open`` already: never truncate again here.
        handle = fs.open(name, mode.replace("w", "r+") if "w" in mode else mode, buffering)
        raw = getattr(handle, "raw", handle)
        if hasattr(raw, "fake_fd"):
            raw.fake_fd = fd  # what GitFile hands fsync
        return handle

    def close(self, fd: int) -> None:
        if _fds.pop(fd, None) is None and fd < _FAKE_BASE:
            os.close(fd)

    def fsync(self, fd: int) -> None:
        if _real():
            os.fsync(fd)


OS = _Os()


def open_(file: Any, mode: str = "r", buffering: int = -1, encoding: str | None = None,
          errors: str | None = None, newline: str | None = None, closefd: bool = True) -> IO[Any]:
    """The builtin ``open`` over ``fs``."""
    if isinstance(file, int):
        return OS.fdopen(file, mode, buffering)
    return fs.open(_s(file), mode, buffering, encoding, errors)


_DULWICH = ("file", "object_store", "pack", "refs", "index", "config", "ignore", "objects", "repo",
            "line_ending", "attrs")


def install() -> None:
    """Give dulwich's file-handling modules this ``os`` and ``open``."""
    for name in _DULWICH:
        module = sys.modules.get(f"dulwich.{name}")
        if isinstance(module, ModuleType):
            if getattr(module, "os", None) is os:
                module.os = OS  # type: ignore[attr-defined]
            module.open = open_  # type: ignore[attr-defined]


_SQLITE: dict[int, tuple[str, bytes | None]] = {}


def connect_sqlite(path: str, readonly: bool) -> sqlite3.Connection:
    """``sqlite3.connect`` of a database file over the current backend. Over memory the
    file's bytes are loaded into an in-memory database (``deserialize``), and
    ``close_sqlite`` stores it back if the script changed it."""
    if _real():
        if readonly:
            return sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        return sqlite3.connect(path)
    original: bytes | None = None
    if fs.exists(path):
        if fs.isdir(path):
            raise sqlite3.OperationalError("unable to open database file")
        with fs.open(path, "rb") as handle:
            original = handle.read()
    elif readonly:
        raise sqlite3.OperationalError("unable to open database file")
    db = sqlite3.connect(":memory:")
    if original:
        db.deserialize(original)
    _SQLITE[id(db)] = ("" if readonly else path, original)
    return db


def close_sqlite(db: sqlite3.Connection) -> None:
    path, original = _SQLITE.pop(id(db), ("", None))
    try:
        if path:
            db.commit()
            data = db.serialize()
            # sqlite makes the file on open, even when nothing is written to it.
            if data != (original or b"") or original is None:
                with fs.open(path, "wb") as handle:
                    handle.write(data)
    finally:
        db.close()
