"""The interpreter's in-memory filesystem: a tree loaded from a snapshot, read back as one diff.

The guest runs bash over this tree instead of a preopened directory: the host sends the
workspace's files in the request, the script works on them here (no WASI file operation,
each of which costs about 0.1 ms through wasmtime's thread pool), and ``diff`` returns
what changed in one piece for the host to write back.

What it models: regular files (bytes, mode, mtimes, hard links sharing one inode),
directories, and the symlinks a script makes (followed as the kernel follows them, 40 hops
at most). Errors are ``OSError`` with the errno Linux gives for the same call, so commands
print the same messages over either backend (``tests/bash/test_memfs.py`` runs the same
operations on both and compares).

Limits are enforced as the script writes, not found afterwards: past ``max_bytes`` of
content (each entry counted at least ``ENTRY_BYTES``, as the host's tree measure counts it)
or a directory deeper than ``max_depth``, the operation raises ``LimitExceeded``, which
stops the script, and ``exceeded`` says which limit tripped; every later write fails the
same way, so nothing a half-stopped script does afterwards can count.
"""

from __future__ import annotations

import errno
import io
import os
import stat as st
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, Any, BinaryIO, ContextManager, cast

from .errors import LimitExceeded

ENTRY_BYTES = 1024
"""What one entry costs at least against ``max_bytes`` (what tmpfs spends on an inode and
its name), so a script making millions of empty files is bounded too."""
MAX_SYMLINK_HOPS = 40
OWNER = 1000
DIR_SIZE = 4096
UMASK = 0o022


class _Node:
    __slots__ = ("ino", "mode", "atime_ns", "mtime_ns", "ctime_ns")

    def __init__(self, ino: int, mode: int, now: int) -> None:
        self.ino = ino
        self.mode = mode
        self.atime_ns = self.mtime_ns = self.ctime_ns = now


class _File(_Node):
    __slots__ = ("data", "nlink", "generation")

    def __init__(self, ino: int, mode: int, now: int, data: bytes = b"") -> None:
        # _Node's fields set here, not through super(): every loaded file and directory is
        # made this way, and the call was a fifth of a node's cost
        self.ino = ino
        self.mode = st.S_IFREG | (mode & 0o7777)
        self.atime_ns = self.mtime_ns = self.ctime_ns = now
        self.data = bytearray(data)
        self.nlink = 0
        self.generation = 0
        """Bumped by every change of content or mode: the diff's "was it touched"."""


class _Dir(_Node):
    __slots__ = ("entries",)

    def __init__(self, ino: int, mode: int, now: int) -> None:
        self.ino = ino  # _Node's fields, as _File sets them
        self.mode = st.S_IFDIR | (mode & 0o7777)
        self.atime_ns = self.mtime_ns = self.ctime_ns = now
        self.entries: dict[str, _Node] = {}


class _Link(_Node):
    __slots__ = ("target",)

    def __init__(self, ino: int, now: int, target: str) -> None:
        super().__init__(ino, st.S_IFLNK | 0o777, now)
        self.target = target


def _error(code: int, *paths: str) -> OSError:
    if len(paths) == 2:
        return OSError(code, os.strerror(code), paths[0], None, paths[1])
    return OSError(code, os.strerror(code), *paths)


def _parts(path: str) -> list[str]:
    return [p for p in path.split("/") if p and p != "."]


def _normal(path: str) -> str:
    """``path`` as an absolute path without empty or ``.`` components (``..`` kept, as
    ``_parts`` keeps it); the snapshot's paths already are, and are returned as they are."""
    if path.startswith("/") and "//" not in path and "/./" not in path and not path.endswith(("/", "/.")):
        return path
    return "/" + "/".join(_parts(path))


@dataclass(frozen=True)
class Diff:
    """What a run changed, relative to what was loaded (paths absolute, scratch left out)."""

    files: dict[str, bytes]
    """Created or changed files, with their whole content."""
    deleted: list[str]
    dirs_created: list[str]
    dirs_deleted: list[str]
    symlinks: list[str]
    """Symlinks the script left (never written back; the host reports them refused)."""


class MemoryFS:
    """An in-memory tree speaking ``fs.Backend``; see the module docstring."""

    def __init__(self, *, max_bytes: int | None = None, max_depth: int | None = None,
                 clock: Callable[[], int] = time.time_ns) -> None:
        self._clock = clock
        self._next_ino = 2
        self.root = _Dir(self._ino(), 0o755, clock())
        self.used = ENTRY_BYTES
        self.max_bytes = max_bytes
        self.max_depth = max_depth
        self.exceeded: tuple[str, int, int] | None = None
        """``(quota, limit, attempted)`` once a limit tripped; the run's changes are void."""
        self._loaded_files: dict[str, tuple[_File, int]] = {}
        self._loaded_dirs: set[str] = set()
        self.changes = 0
        """Bumped by every change to the tree (names, content, modes): equal to its value
        after ``load``, nothing changed and ``diff`` need not walk."""
        self._loaded_at = 0

    # -- loading and reading back --------------------------------------------------------
    def load(self, directories: list[str], files: list[tuple[str, bytes, int, int]]) -> None:
        """Add the snapshot: directories (any order), then ``(path, content, mode, mtime_ns)``.

        Every bash call starts here, so it is kept lean: the clock is read once, and each
        directory is found by its path in a table of those made, not walked from the root
        (in the guest this took a quarter of a ``true``'s call with three files)."""
        now = self._clock()
        made: dict[str, _Dir] = {"/": self.root}
        for path in sorted({_normal(p) for p in directories}, key=lambda p: p.count("/")):
            self._loaded_dir(path, made, now)
            self._loaded_dirs.add(path)
        for path, content, mode, mtime_ns in files:
            path = _normal(path)
            head, _, name = path.rpartition("/")
            parent = made.get(head or "/")
            if parent is None:  # a directory not listed: found as the kernel would find it
                parent = made[head or "/"] = self._parent(path)[0]
            node = _File(self._ino(), mode, mtime_ns, content)  # all three times mtime_ns
            self._attach(parent, name, node, path, now)
            self._charge(max(len(content), ENTRY_BYTES))  # _cost's, inline
            self._loaded_files[path] = (node, node.generation)
        self._loaded_at = self.changes

    def _loaded_dir(self, path: str, made: dict[str, _Dir], now: int) -> _Dir:
        """The directory at the normal path ``path``, made (with its parents) if missing."""
        found = made.get(path)
        if found is not None:
            return found
        head, _, name = path.rpartition("/")
        parent = made.get(head or "/") or self._loaded_dir(head or "/", made, now)
        child = parent.entries.get(name)
        if child is None:
            child = parent.entries[name] = _Dir(self._ino(), 0o755, now)
            self._charge(ENTRY_BYTES)
        elif not isinstance(child, _Dir):
            raise _error(errno.ENOTDIR, path)
        made[path] = child
        return child

    def diff(self, skip: tuple[str, ...] = ()) -> Diff:
        """The changes since ``load``; top-level names in ``skip`` (scratch) are left out."""
        if self.changes == self._loaded_at:
            return Diff({}, [], [], [], [])
        files: dict[str, bytes] = {}
        dirs: set[str] = set()
        seen_files: set[str] = set()
        symlinks: list[str] = []
        pending: list[tuple[str, _Dir]] = [("", self.root)]
        while pending:
            prefix, node = pending.pop()
            for name, child in node.entries.items():
                path = f"{prefix}/{name}"
                if not prefix and path in skip:
                    continue
                if isinstance(child, _Dir):
                    dirs.add(path)
                    pending.append((path, child))
                elif isinstance(child, _Link):
                    symlinks.append(path)
                elif isinstance(child, _File):
                    seen_files.add(path)
                    loaded = self._loaded_files.get(path)
                    if loaded is None or loaded[0] is not child or loaded[1] != child.generation:
                        files[path] = bytes(child.data)
        def kept(path: str) -> bool:
            return "/" + path.split("/", 2)[1] not in skip

        deleted = sorted(p for p in self._loaded_files if p not in seen_files and kept(p))
        return Diff(files, deleted, sorted(dirs - self._loaded_dirs),
                    sorted(d for d in self._loaded_dirs - dirs if kept(d)), sorted(symlinks))

    # -- accounting ----------------------------------------------------------------------
    def _ino(self) -> int:
        self._next_ino += 1
        return self._next_ino

    @staticmethod
    def _cost(size: int) -> int:
        return max(size, ENTRY_BYTES)

    def _charge(self, delta: int) -> None:
        if self.exceeded is not None:
            raise LimitExceeded(self._exceeded_message())
        if self.max_bytes is not None and delta > 0 and self.used + delta > self.max_bytes:
            self.exceeded = ("tree_growth_bytes", self.max_bytes, self.used + delta)
            raise LimitExceeded(self._exceeded_message())
        self.used += delta

    def _exceeded_message(self) -> str:
        assert self.exceeded is not None
        quota, limit, attempted = self.exceeded
        if quota == "max_dir_depth":
            return f"directories nested deeper than {limit} levels are refused; the script was stopped"
        return (f"the script's files would hold {attempted} bytes, over the limit of {limit} "
                "(tree_growth_bytes); the script was stopped")

    def _check_depth(self, depth: int) -> None:
        if self.exceeded is not None:
            raise LimitExceeded(self._exceeded_message())
        if self.max_depth is not None and depth > self.max_depth:
            self.exceeded = ("max_dir_depth", self.max_depth, depth)
            raise LimitExceeded(self._exceeded_message())

    # -- path resolution -----------------------------------------------------------------
    def _resolve(self, path: str, follow: bool = True) -> tuple[_Node, list[str]]:
        """The node at ``path`` and its real location's components."""
        if "\0" in path:
            raise ValueError("embedded null byte")
        if path == "":
            raise _error(errno.ENOENT, path)
        todo = _parts(path)
        todo.reverse()
        stack: list[_Dir] = [self.root]
        names: list[str] = []
        node: _Node = self.root
        hops = 0
        must_be_dir = path.endswith("/") or path.endswith("/.")
        while todo:
            name = todo.pop()
            if not isinstance(node, _Dir):
                raise _error(errno.ENOTDIR, path)
            if name == "..":
                if len(stack) > 1:
                    stack.pop()
                    names.pop()
                node = stack[-1]
                continue
            child = node.entries.get(name)
            if child is None:
                raise _error(errno.ENOENT, path)
            if isinstance(child, _Link) and (todo or follow or must_be_dir):
                hops += 1
                if hops > MAX_SYMLINK_HOPS:
                    raise _error(errno.ELOOP, path)
                if child.target.startswith("/"):
                    stack, names = [self.root], []
                    node = self.root
                todo.extend(reversed(_parts(child.target)))
                if not child.target:
                    raise _error(errno.ENOENT, path)
                continue
            node = child
            if isinstance(child, _Dir):
                stack.append(child)
            names.append(name)
        if must_be_dir and not isinstance(node, _Dir):
            raise _error(errno.ENOTDIR, path)
        return node, names

    def _parent(self, path: str) -> tuple[_Dir, str]:
        """The directory that holds (or would hold) ``path``'s last name, and that name."""
        parent, name, _ = self._parent_at(path)
        return parent, name

    def _parent_at(self, path: str) -> tuple[_Dir, str, int]:
        """``_parent``, and how deep that directory really is (the root is 0)."""
        if "\0" in path:
            raise ValueError("embedded null byte")
        stripped = path.rstrip("/")
        head, _, name = stripped.rpartition("/")
        if not stripped:
            return self.root, "", 0
        parent, names = self._resolve(head or "/")
        if not isinstance(parent, _Dir):
            raise _error(errno.ENOTDIR, path)
        if len(name.encode("utf-8", "surrogateescape")) > 255:
            raise _error(errno.ENAMETOOLONG, path)
        return parent, name, len(names)

    def _attach(self, parent: _Dir, name: str, node: _Node, path: str, now: int | None = None) -> None:
        if name in ("", ".", ".."):
            raise _error(errno.EEXIST, path)
        if name in parent.entries:
            raise _error(errno.EEXIST, path)
        parent.entries[name] = node
        self.changes += 1
        if isinstance(node, _File):
            node.nlink += 1
        parent.mtime_ns = parent.ctime_ns = self._clock() if now is None else now

    # -- fs.Backend ----------------------------------------------------------------------
    def stat(self, path: str) -> os.stat_result:
        return self._stat_of(self._resolve(path)[0])

    def lstat(self, path: str) -> os.stat_result:
        return self._stat_of(self._resolve(path, follow=False)[0])

    def isdir(self, path: str) -> bool:
        # without the stat result ``stat`` would build (every bash call asks this of its cwd)
        try:
            return isinstance(self._resolve(path)[0], _Dir)
        except (OSError, ValueError):
            return False

    def fstat(self, handle: IO[Any]) -> os.stat_result:
        raw = getattr(handle, "raw", handle)
        node = getattr(raw, "node", None)
        if not isinstance(node, _Node):
            raise io.UnsupportedOperation("fileno")
        return self._stat_of(node)

    @staticmethod
    def _stat_of(node: _Node) -> os.stat_result:
        if isinstance(node, _File):
            size, nlink = len(node.data), max(node.nlink, 1)
        elif isinstance(node, _Link):
            size, nlink = len(node.target.encode("utf-8", "surrogateescape")), 1
        else:
            size, nlink = DIR_SIZE, 2 + sum(isinstance(c, _Dir) for c in cast(_Dir, node).entries.values())
        times = (node.atime_ns, node.mtime_ns, node.ctime_ns)
        return os.stat_result(
            (node.mode, node.ino, 1, nlink, OWNER, OWNER, size, *(t // 10**9 for t in times)),
            {"st_atime": times[0] / 1e9, "st_mtime": times[1] / 1e9, "st_ctime": times[2] / 1e9,
             "st_atime_ns": times[0], "st_mtime_ns": times[1], "st_ctime_ns": times[2],
             "st_blksize": 4096, "st_blocks": -(-size // 4096) * 8, "st_rdev": 0})

    def scandir(self, path: str) -> ContextManager[Iterator[_Entry]]:
        node, names = self._resolve(path)
        if not isinstance(node, _Dir):
            raise _error(errno.ENOTDIR, path)
        base = path if path.endswith("/") else path + "/"
        entries = [_Entry(self, name, base + name, child) for name, child in list(node.entries.items())]
        return _listing(entries)

    def listdir(self, path: str) -> list[str]:
        node, _ = self._resolve(path)
        if not isinstance(node, _Dir):
            raise _error(errno.ENOTDIR, path)
        return list(node.entries)

    def mkdir(self, path: str, mode: int = 0o777) -> None:
        parent, name, depth = self._parent_at(path)
        if not name or name in (".", "..") or name in parent.entries:
            raise _error(errno.EEXIST, path)
        self._check_depth(depth + 1)
        self._charge(ENTRY_BYTES)
        self._attach(parent, name, _Dir(self._ino(), mode & ~UMASK, self._clock()), path)

    def rmdir(self, path: str) -> None:
        parent, name = self._parent(path)
        if not name:
            raise _error(errno.EBUSY, path)
        if name in (".", ".."):
            raise _error(errno.EINVAL if name == "." else errno.ENOTEMPTY, path)
        node = parent.entries.get(name)
        if node is None:
            raise _error(errno.ENOENT, path)
        if not isinstance(node, _Dir):
            raise _error(errno.ENOTDIR, path)
        if node.entries:
            raise _error(errno.ENOTEMPTY, path)
        del parent.entries[name]
        self.changes += 1
        parent.mtime_ns = parent.ctime_ns = self._clock()
        self.used -= ENTRY_BYTES

    def unlink(self, path: str) -> None:
        parent, name = self._parent(path)
        node = parent.entries.get(name) if name else self.root
        if node is None:
            raise _error(errno.ENOENT, path)
        if isinstance(node, _Dir):
            raise _error(errno.EISDIR, path)
        if path.endswith("/"):
            raise _error(errno.ENOTDIR, path)
        self._detach(parent, name)

    def _detach(self, parent: _Dir, name: str) -> None:
        node = parent.entries.pop(name)
        self.changes += 1
        parent.mtime_ns = parent.ctime_ns = self._clock()
        if isinstance(node, _File):
            node.nlink -= 1
            node.ctime_ns = self._clock()
            self.used -= self._cost(len(node.data)) if node.nlink == 0 else ENTRY_BYTES
        else:
            self.used -= ENTRY_BYTES

    def replace(self, src: str, dst: str) -> None:
        sparent, sname = self._parent(src)
        node = sparent.entries.get(sname) if sname else None
        if node is None:
            raise _error(errno.ENOENT if sname else errno.EBUSY, src, dst)
        dparent, dname, ddepth = self._parent_at(dst)
        if not dname or dname in (".", ".."):
            raise _error(errno.EBUSY, src, dst)
        if dparent is sparent and dname == sname:
            return
        existing = dparent.entries.get(dname)
        if isinstance(node, _Dir):
            if self._contains(node, dparent):
                raise _error(errno.EINVAL, src, dst)
            if existing is not None and not isinstance(existing, _Dir):
                raise _error(errno.ENOTDIR, src, dst)
            if isinstance(existing, _Dir) and existing.entries:
                raise _error(errno.ENOTEMPTY, src, dst)
            self._check_depth(ddepth + self._height(node))
        elif isinstance(existing, _Dir):
            raise _error(errno.EISDIR, src, dst)
        if existing is not None:
            self._detach(dparent, dname)
        del sparent.entries[sname]
        dparent.entries[dname] = node
        self.changes += 1
        now = self._clock()
        sparent.mtime_ns = sparent.ctime_ns = dparent.mtime_ns = dparent.ctime_ns = node.ctime_ns = now

    @staticmethod
    def _contains(node: _Dir, inner: _Dir) -> bool:
        pending = [node]
        while pending:
            current = pending.pop()
            if current is inner:
                return True
            pending.extend(c for c in current.entries.values() if isinstance(c, _Dir))
        return False

    @staticmethod
    def _height(node: _Dir) -> int:
        best = 0
        pending = [(node, 1)]
        while pending:
            current, height = pending.pop()
            best = max(best, height)
            pending.extend((c, height + 1) for c in current.entries.values() if isinstance(c, _Dir))
        return best

    def symlink(self, target: str, path: str) -> None:
        parent, name = self._parent(path)
        if not name or name in parent.entries:
            raise _error(errno.EEXIST, path)
        self._charge(self._cost(len(target)))
        self._attach(parent, name, _Link(self._ino(), self._clock(), target), path)

    def readlink(self, path: str) -> str:
        node, _ = self._resolve(path, follow=False)
        if not isinstance(node, _Link):
            raise _error(errno.EINVAL, path)
        return node.target

    def link(self, src: str, dst: str) -> None:
        node, _ = self._resolve(src, follow=False)
        if isinstance(node, _Dir):
            raise _error(errno.EPERM, src, dst)
        parent, name = self._parent(dst)
        if not name or name in parent.entries:
            raise _error(errno.EEXIST, src, dst)
        if isinstance(node, _Link):  # linkat without AT_SYMLINK_FOLLOW: a second name for the link
            node = _Link(self._ino(), self._clock(), node.target)
        self._charge(ENTRY_BYTES)
        self._attach(parent, name, node, dst)
        node.ctime_ns = self._clock()

    def utime(self, path: str, times: tuple[float, float] | None = None, *,
              ns: tuple[int, int] | None = None, follow_symlinks: bool = True) -> None:
        node, _ = self._resolve(path, follow=follow_symlinks)
        now = self._clock()
        if ns is not None:
            node.atime_ns, node.mtime_ns = ns
        elif times is not None:
            node.atime_ns, node.mtime_ns = int(times[0] * 1e9), int(times[1] * 1e9)
        else:
            node.atime_ns = node.mtime_ns = now
        node.ctime_ns = now

    def chmod(self, path: str, mode: int) -> None:
        node, _ = self._resolve(path)
        node.mode = st.S_IFMT(node.mode) | (mode & 0o7777)
        node.ctime_ns = self._clock()
        self.changes += 1
        if isinstance(node, _File):
            node.generation += 1

    def access(self, path: str, mode: int) -> bool:
        try:
            node, _ = self._resolve(path)
        except (OSError, ValueError):
            return False
        wanted = ((mode & os.R_OK) and 0o400) | ((mode & os.W_OK) and 0o200) | ((mode & os.X_OK) and 0o100)
        return node.mode & wanted == wanted

    def realpath(self, path: str) -> str:
        """``os.path.realpath`` (not strict): links resolved as far as the path exists."""
        todo = _parts(path if path.startswith("/") else "/" + path)
        todo.reverse()
        done: list[str] = []
        hops = 0
        while todo:
            name = todo.pop()
            if name == "..":
                if done:
                    done.pop()
                continue
            candidate = "/" + "/".join([*done, name])
            try:
                node, _ = self._resolve(candidate, follow=False)
            except (OSError, ValueError):
                node = None
            if isinstance(node, _Link) and hops < MAX_SYMLINK_HOPS:
                hops += 1
                if node.target.startswith("/"):
                    done = []
                todo.extend(reversed(_parts(node.target)))
                continue
            done.append(name)
        return "/" + "/".join(done)

    def create_exclusive(self, path: str, mode: int) -> None:
        self._create(path, mode, exclusive=True)

    def _create(self, path: str, mode: int, exclusive: bool) -> _File:
        parent, name = self._parent(path)
        existing = parent.entries.get(name) if name else self.root
        if existing is not None:
            if exclusive:
                raise _error(errno.EEXIST, path)
            if isinstance(existing, _Link):  # O_CREAT through a dangling link makes its target
                node, _ = self._resolve_or_create(path)
                return node
            if isinstance(existing, _Dir):
                raise _error(errno.EISDIR, path)
            return cast(_File, existing)
        if path.endswith("/"):
            raise _error(errno.EISDIR, path)
        self._charge(ENTRY_BYTES)
        node = _File(self._ino(), mode & ~UMASK, self._clock())
        self._attach(parent, name, node, path)
        return node

    def _resolve_or_create(self, path: str) -> tuple[_File, str]:
        try:
            node, names = self._resolve(path)
        except FileNotFoundError:
            link = self.readlink(path)
            base = path.rstrip("/").rpartition("/")[0] or "/"
            target = link if link.startswith("/") else f"{base.rstrip('/')}/{link}"
            return self._create(target, 0o644, exclusive=False), target
        if isinstance(node, _Dir):
            raise _error(errno.EISDIR, path)
        return cast(_File, node), "/" + "/".join(names)

    def open(self, path: str, mode: str = "r", buffering: int = -1, encoding: str | None = None,
             errors: str | None = None) -> IO[Any]:
        kind = mode.replace("b", "").replace("t", "")
        plus = "+" in kind
        base = kind.replace("+", "")
        if base not in ("r", "w", "a", "x") or len(base) != 1:
            raise ValueError(f"invalid mode: {mode!r}")
        if base == "r":
            node, _ = self._resolve(path)
            if isinstance(node, _Dir):
                raise _error(errno.EISDIR, path)
            file = cast(_File, node)
        else:
            file = self._create(path, 0o644, exclusive=base == "x")
            if base == "w":
                self._set_size(file, 0)
        raw = _Raw(self, file, readable=base == "r" or plus, writable=base != "r" or plus,
                   append=base == "a", name=path)
        if "b" in mode:
            if buffering == 0:
                return cast(BinaryIO, raw)
            if raw.readable() and raw.writable():
                return cast(BinaryIO, io.BufferedRandom(raw))
            return cast(BinaryIO, io.BufferedReader(raw) if raw.readable() else io.BufferedWriter(raw))
        buffered: Any = io.BufferedRandom(raw) if plus else (
            io.BufferedReader(raw) if base == "r" else io.BufferedWriter(raw))
        return io.TextIOWrapper(buffered, encoding=encoding or "utf-8", errors=errors)

    def open_rw(self, path: str) -> BinaryIO:
        file = self._create(path, 0o644, exclusive=False)
        return cast(BinaryIO, _Raw(self, file, readable=True, writable=True, append=False, name=path))

    # -- content -------------------------------------------------------------------------
    def _set_size(self, node: _File, size: int) -> None:
        old = len(node.data)
        if size != old:
            self._charge(self._cost(size) - self._cost(old))
            if size < old:
                del node.data[size:]
            else:
                node.data.extend(bytes(size - old))
        node.generation += 1
        self.changes += 1
        node.mtime_ns = node.ctime_ns = self._clock()

    def _write_at(self, node: _File, pos: int, data: bytes | bytearray | memoryview) -> None:
        end = pos + len(data)
        if end > len(node.data):
            self._charge(self._cost(end) - self._cost(len(node.data)))
            if pos > len(node.data):
                node.data.extend(bytes(pos - len(node.data)))
        node.data[pos:end] = data
        node.generation += 1
        self.changes += 1
        node.mtime_ns = node.ctime_ns = self._clock()


class _Raw(io.RawIOBase):
    """An open file of the tree: reads and writes go straight to the node's bytes."""

    def __init__(self, fs: MemoryFS, node: _File, *, readable: bool, writable: bool, append: bool,
                 name: str) -> None:
        super().__init__()
        self.fs = fs
        self.node = node
        self._readable = readable
        self._writable = writable
        self._append = append
        self.name = name
        self.pos = 0
        self.fake_fd: int | None = None
        """The number ``fs_os.open`` handed out for this file, if it was opened that way."""

    def readable(self) -> bool:
        return self._readable

    def writable(self) -> bool:
        return self._writable

    def seekable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if not self._readable:
            raise io.UnsupportedOperation("read")
        view = memoryview(buffer).cast("B")
        chunk = self.node.data[self.pos:self.pos + len(view)]
        view[:len(chunk)] = chunk
        self.pos += len(chunk)
        return len(chunk)

    def readall(self) -> bytes:
        if not self._readable:
            raise io.UnsupportedOperation("read")
        chunk = bytes(self.node.data[self.pos:])
        self.pos += len(chunk)
        return chunk

    def write(self, data: Any) -> int:
        if not self._writable:
            raise io.UnsupportedOperation("write")
        view = memoryview(data).cast("B")
        if self._append:
            self.pos = len(self.node.data)
        self.fs._write_at(self.node, self.pos, view)
        self.pos += len(view)
        return len(view)

    def seek(self, offset: int, whence: int = 0) -> int:
        base = {0: 0, 1: self.pos, 2: len(self.node.data)}[whence]
        if base + offset < 0:
            raise OSError(errno.EINVAL, os.strerror(errno.EINVAL))
        self.pos = base + offset
        return self.pos

    def tell(self) -> int:
        return self.pos

    def truncate(self, size: int | None = None) -> int:
        if not self._writable:
            raise io.UnsupportedOperation("truncate")
        self.fs._set_size(self.node, self.pos if size is None else size)
        return len(self.node.data)

    def fileno(self) -> int:
        if self.fake_fd is None:
            raise io.UnsupportedOperation("fileno")
        return self.fake_fd


class _Entry:
    """A ``scandir`` entry of the tree (``fs.DirEntry``)."""

    __slots__ = ("_fs", "name", "path", "_node")

    def __init__(self, fs: MemoryFS, name: str, path: str, node: _Node) -> None:
        self._fs = fs
        self.name = name
        self.path = path
        self._node = node

    def _target(self, follow: bool) -> _Node | None:
        if not follow or not isinstance(self._node, _Link):
            return self._node
        try:
            return self._fs._resolve(self.path)[0]
        except FileNotFoundError:
            return None  # a dangling link is neither, as os.DirEntry says; a loop raises

    def is_dir(self, *, follow_symlinks: bool = True) -> bool:
        return isinstance(self._target(follow_symlinks), _Dir)

    def is_file(self, *, follow_symlinks: bool = True) -> bool:
        return isinstance(self._target(follow_symlinks), _File)

    def is_symlink(self) -> bool:
        return isinstance(self._node, _Link)

    def stat(self, *, follow_symlinks: bool = True) -> os.stat_result:
        return self._fs.stat(self.path) if follow_symlinks else self._fs._stat_of(self._node)

    def inode(self) -> int:
        return self._node.ino


@contextmanager
def _listing(entries: list[_Entry]) -> Iterator[Iterator[_Entry]]:
    yield iter(entries)
