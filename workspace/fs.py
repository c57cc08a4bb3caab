"""Named workspaces in one SQLite database: the filesystem operations and blob spillover.

``WorkspaceStore`` owns the connection, the blob directory and the write lock;
``Workspace`` is a cheap handle naming one workspace in it. Every operation runs in one
SQLite transaction (``BEGIN IMMEDIATE`` for writes, so two processes never interleave).

Invariants the code relies on:
- every row's ``parent_path`` names a directory row, so a row that exists never has a
  symlink or a file among its ancestors (path resolution leans on this);
- entry ``version`` values come from the workspace's ``seq`` counter and are never reused;
- a row never points at a missing blob. A blob is written and fsynced *before* the row that
  references it commits; a blob made unreachable is deleted only *after* its commit. A crash
  in between leaves an unreferenced blob, which ``collect_orphans`` removes.
"""

from __future__ import annotations

import asyncio
import contextvars
import errno
import logging
import os
import re
import sqlite3
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import aiosqlite

from . import _paths
from ._text import decode, unified_diff
from .errors import (
    AlreadyExists,
    Conflict,
    InvalidArgument,
    IsDirectory,
    LimitExceeded,
    NameTooLong,
    NotDirectory,
    NotEmpty,
    NotFound,
    PermissionDenied,
    SymlinkLoop,
    WorkspaceError,
)
from .schema import configure_connection, migrate

if TYPE_CHECKING:
    from .snapshot import Snapshot

__all__ = [
    "DEFAULT_SPILL_THRESHOLD",
    "MAX_DIR_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_SYMLINK_HOPS",
    "ChangeEvent",
    "EntryType",
    "Stat",
    "Workspace",
    "WorkspaceStore",
]

_log = logging.getLogger(__name__)

operation_key: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "workspace_operation_key", default=None)
"""Set around a write to tag it: the store then records the key in the write's own
transaction (see :meth:`WorkspaceStore.operation_applied`), so a caller that crashed after
the commit but before it noted the outcome can tell the write happened and not repeat it."""

DEFAULT_SPILL_THRESHOLD = 1_500_000
MAX_FILE_BYTES = 100 * 1024 * 1024
MAX_SYMLINK_HOPS = 40
MAX_DIR_DEPTH = 100
_WORKSPACE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}\Z")

EntryType = Literal["file", "directory", "symlink"]
_T = TypeVar("_T")
_COLUMNS = (
    "path, parent_path, name, type, mime_type, size, storage, blob_key, target,"
    " version, created_at, modified_at"
)


@dataclass(frozen=True, slots=True)
class Stat:
    """What is stored about one entry (never its content)."""

    path: str
    name: str
    type: EntryType
    mime_type: str
    size: int
    created_at: float
    modified_at: float
    version: int
    storage: str = "inline"
    target: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class ChangeEvent:
    """Emitted to observers after a change commits."""

    type: Literal["create", "update", "delete"]
    path: str
    entry_type: EntryType


@dataclass(slots=True)
class _Row:
    path: str
    parent_path: str | None
    name: str
    type: EntryType
    mime_type: str
    size: int
    storage: str
    blob_key: str | None
    target: str | None
    version: int
    created_at: float
    modified_at: float
    content: bytes | None = None

    def stat(self) -> Stat:
        return Stat(
            self.path, self.name, self.type, self.mime_type, self.size, self.created_at,
            self.modified_at, self.version, self.storage, self.target,
        )  # fmt: skip


def _row(values: Sequence[Any]) -> _Row:
    return _Row(*values)


def _root_row(created_at: float = 0.0) -> _Row:
    return _Row("/", None, "", "directory", "inode/directory", 0, "inline", None, None, 0, created_at, created_at)


def _check_name(name: str) -> str:
    if not isinstance(name, str) or not _WORKSPACE_NAME.match(name):
        raise InvalidArgument(
            "workspace names are 1-128 characters of letters, digits, '.', '_' or '-', "
            "starting with a letter or digit",
            repr(name)[:140],
        )
    return name


class _Txn:
    """One transaction on one workspace: the primitives every operation is built from."""

    def __init__(self, store: WorkspaceStore, name: str, writable: bool) -> None:
        self.store = store
        self.conn = store._conn
        self.name = name
        self.writable = writable
        self.ws_id: int | None = None
        self._seq = 0
        # Versions up to this one are already recorded in workspaces.seq.
        self._recorded_seq = 0
        self.events: list[ChangeEvent] = []
        self.new_blobs: list[str] = []
        self.dead_blobs: list[str] = []
        # Directories this transaction has seen exist; saves re-reading them in mkdirs.
        self.known_dirs: set[str] = set()

    async def load(self) -> None:
        if self.writable:
            # Reserve the first version in the same statement that finds the workspace: a
            # one-entry write then needs no second update of seq (unused versions are gaps).
            sql = "UPDATE workspaces SET seq = seq + 1 WHERE name = ? RETURNING id, seq - 1"
        else:
            sql = "SELECT id, seq FROM workspaces WHERE name = ?"
        async with self.conn.execute(sql, (self.name,)) as cur:
            found = await cur.fetchone()
        if found is not None:
            self.ws_id, self._seq = int(found[0]), int(found[1])
            self._recorded_seq = self._seq + 1 if self.writable else self._seq

    async def ensure_workspace(self) -> int:
        """The workspace id, creating the workspace (and its root row) on first write."""
        if self.ws_id is not None:
            return self.ws_id
        assert self.writable, "read transactions never create workspaces"
        now = time.time()
        async with self.conn.execute(
            "INSERT INTO workspaces (name, created_at, seq) VALUES (?, ?, 0) RETURNING id", (self.name, now)
        ) as cur:
            found = await cur.fetchone()
        assert found is not None
        self.ws_id = int(found[0])
        root = _root_row(now)
        root.version = self.next_version()
        await self._insert(root)
        return self.ws_id

    def next_version(self) -> int:
        self._seq += 1
        return self._seq

    async def finish(self) -> None:
        if self._seq > self._recorded_seq and self.ws_id is not None:
            await self.conn.execute("UPDATE workspaces SET seq = ? WHERE id = ?", (self._seq, self.ws_id))

    # --- lookups -------------------------------------------------------------------------

    async def row(self, path: str, *, content: bool = False) -> _Row | None:
        if self.ws_id is None:
            return _root_row() if path == "/" else None
        cols = _COLUMNS + (", content" if content else "")
        async with self.conn.execute(
            f"SELECT {cols} FROM workspace_entries WHERE workspace_id = ? AND path = ?", (self.ws_id, path)
        ) as cur:
            found = await cur.fetchone()
        return _row(found) if found is not None else None

    async def rows_in(self, paths: Sequence[str]) -> dict[str, _Row]:
        if not paths:
            return {}
        if self.ws_id is None:
            return {"/": _root_row()} if "/" in paths else {}
        out: dict[str, _Row] = {}
        for start in range(0, len(paths), 500):
            chunk = paths[start : start + 500]
            marks = ",".join("?" * len(chunk))
            async with self.conn.execute(
                f"SELECT {_COLUMNS} FROM workspace_entries WHERE workspace_id = ? AND path IN ({marks})",
                (self.ws_id, *chunk),
            ) as cur:
                for found in await cur.fetchall():
                    r = _row(found)
                    out[r.path] = r
        return out

    async def subtree(self, root: str, *, content: bool = False) -> list[_Row]:
        """Rows strictly below ``root``, by path (a range scan, never LIKE)."""
        if self.ws_id is None:
            return []
        lo, hi = _paths.subtree_bounds(root)
        cols = _COLUMNS + (", content" if content else "")
        async with self.conn.execute(
            f"SELECT {cols} FROM workspace_entries WHERE workspace_id = ? AND path >= ? AND path < ?"
            " ORDER BY path",
            (self.ws_id, lo, hi),
        ) as cur:
            return [_row(r) for r in await cur.fetchall()]

    async def has_children(self, path: str) -> bool:
        if self.ws_id is None:
            return False
        lo, hi = _paths.subtree_bounds(path)
        async with self.conn.execute(
            "SELECT 1 FROM workspace_entries WHERE workspace_id = ? AND path >= ? AND path < ? LIMIT 1",
            (self.ws_id, lo, hi),
        ) as cur:
            return await cur.fetchone() is not None

    async def resolve(
        self, path: str, *, follow_last: bool = True, content: bool = False
    ) -> tuple[str, _Row | None, str | None]:
        """Resolve symlinks in ``path``; return ``(real_path, row_or_None, file_ancestor)``.

        ``file_ancestor`` is set when the path is missing because a file sits where a
        directory should be (callers turn it into ENOTDIR or "not found").
        """
        hops = 0
        while True:
            found = await self.row(path, content=content)
            if found is not None:
                if found.type != "symlink" or not follow_last:
                    if self.ws_id is not None:
                        # A stored row's ancestors are all directory rows (module invariant).
                        self.known_dirs.update(_paths.ancestors(path))
                        if found.type == "directory":
                            self.known_dirs.add(path)
                    return path, found, None
                hops += 1
                if hops > MAX_SYMLINK_HOPS:
                    raise SymlinkLoop(f"more than {MAX_SYMLINK_HOPS} symbolic links", path)
                path = _link_destination(found)
                continue
            chain = _paths.ancestors(path)
            existing = await self.rows_in(chain)
            deepest = next((existing[a] for a in reversed(chain) if a in existing), None)
            if deepest is None or deepest.type == "directory":
                if deepest is not None and self.ws_id is not None:
                    self.known_dirs.update(a for a in chain if a in existing)
                return path, None, None
            if deepest.type == "file":
                return path, None, deepest.path
            hops += 1
            if hops > MAX_SYMLINK_HOPS:
                raise SymlinkLoop(f"more than {MAX_SYMLINK_HOPS} symbolic links", path)
            path = _paths.normalize(_link_destination(deepest) + path[len(deepest.path) :])

    async def content_of(self, r: _Row) -> bytes:
        if r.storage == "blob":
            assert r.blob_key is not None
            return await asyncio.to_thread(self.store._read_blob, r.blob_key)
        if r.content is not None:
            return bytes(r.content)
        async with self.conn.execute(
            "SELECT content FROM workspace_entries WHERE workspace_id = ? AND path = ?", (self.ws_id, r.path)
        ) as cur:
            found = await cur.fetchone()
        return bytes(found[0]) if found is not None and found[0] is not None else b""

    async def contents(self, paths: Sequence[str]) -> dict[str, bytes]:
        """Bytes of the files at these exact paths (no following); others are left out."""
        out: dict[str, bytes] = {}
        if self.ws_id is None:
            return out
        for start in range(0, len(paths), 500):
            chunk = paths[start : start + 500]
            marks = ",".join("?" * len(chunk))
            async with self.conn.execute(
                f"SELECT path, storage, blob_key, content FROM workspace_entries WHERE workspace_id = ?"
                f" AND type = 'file' AND path IN ({marks})",
                (self.ws_id, *chunk),
            ) as cur:
                rows = await cur.fetchall()
            blobs: list[tuple[str, str]] = []
            for path, storage, key, content in rows:
                if storage == "blob":
                    blobs.append((path, key))
                else:
                    out[path] = bytes(content) if content is not None else b""
            if blobs:
                out.update(await asyncio.to_thread(self.store._read_blobs, blobs))
        return out

    # --- mutations -----------------------------------------------------------------------

    async def _insert(self, r: _Row) -> None:
        await self.conn.execute(
            "INSERT INTO workspace_entries (workspace_id, path, parent_path, name, type, mime_type,"
            " size, storage, blob_key, target, content, version, created_at, modified_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                self.ws_id, r.path, r.parent_path, r.name, r.type, r.mime_type, r.size, r.storage,
                r.blob_key, r.target, r.content, r.version, r.created_at, r.modified_at,
            ),
        )  # fmt: skip

    async def mkdirs(self, path: str) -> list[str]:
        """Create ``path`` and its missing ancestors as directories; return those created."""
        if _paths.depth(path) > MAX_DIR_DEPTH:
            raise SymlinkLoop(f"directory nesting deeper than {MAX_DIR_DEPTH} levels", path)
        await self.ensure_workspace()
        if path in self.known_dirs:
            return []
        chain = [*_paths.ancestors(path), path] if path != "/" else ["/"]
        existing = await self.rows_in(chain)
        created: list[str] = []
        for p in chain:
            found = existing.get(p)
            if found is not None:
                if found.type != "directory":
                    raise NotDirectory("not a directory", p)
                continue
            now = time.time()
            await self._insert(
                _Row(p, _paths.parent(p), _paths.basename(p), "directory", "inode/directory", 0, "inline",
                     None, None, self.next_version(), now, now)
            )  # fmt: skip
            self.events.append(ChangeEvent("create", p, "directory"))
            created.append(p)
        self.known_dirs.update(chain)
        return created

    async def put_file(self, path: str, data: bytes, mime: str, existing: _Row | None) -> _Row:
        """Insert or overwrite the file row at a resolved ``path`` whose parent exists."""
        if len(data) > MAX_FILE_BYTES:
            raise LimitExceeded(f"file is {len(data)} bytes; the limit is {MAX_FILE_BYTES}", path)
        await self.ensure_workspace()
        now = time.time()
        storage, key = "inline", None
        content: bytes | None = data
        if self.store._spills(len(data)):
            key = uuid.uuid4().hex
            # Registered before writing so a failed or cancelled write is still cleaned up.
            self.new_blobs.append(key)
            try:
                await asyncio.to_thread(self.store._write_blob, key, data)
            except OSError as exc:
                code = errno.errorcode.get(exc.errno or 0, "EIO")
                raise WorkspaceError(f"could not store the file's blob: {exc.strerror}", path, code=code) from exc
            storage, content = "blob", None
        version = self.next_version()
        if existing is not None:
            await self.conn.execute(
                "UPDATE workspace_entries SET mime_type = ?, size = ?, storage = ?, blob_key = ?,"
                " content = ?, version = ?, modified_at = ? WHERE workspace_id = ? AND path = ?",
                (mime, len(data), storage, key, content, version, now, self.ws_id, path),
            )
            if existing.blob_key:
                self.dead_blobs.append(existing.blob_key)
            self.events.append(ChangeEvent("update", path, "file"))
            created_at = existing.created_at
        else:
            created_at = now
            await self._insert(
                _Row(path, _paths.parent(path), _paths.basename(path), "file", mime, len(data), storage, key,
                     None, version, now, now, content)
            )  # fmt: skip
            self.events.append(ChangeEvent("create", path, "file"))
        return _Row(path, _paths.parent(path), _paths.basename(path), "file", mime, len(data), storage, key,
                    None, version, created_at, now)  # fmt: skip

    async def delete_rows(self, rows: Iterable[_Row]) -> None:
        assert self.ws_id is not None
        self.known_dirs.clear()
        for r in sorted(rows, key=lambda r: r.path, reverse=True):
            await self.conn.execute(
                "DELETE FROM workspace_entries WHERE workspace_id = ? AND path = ?", (self.ws_id, r.path)
            )
            if r.blob_key:
                self.dead_blobs.append(r.blob_key)
            self.events.append(ChangeEvent("delete", r.path, r.type))

    async def delete_tree(self, r: _Row) -> None:
        """Delete ``r`` and, for a directory, everything below it."""
        if r.type == "directory":
            below = await self.subtree(r.path)
            lo, hi = _paths.subtree_bounds(r.path)
            # One range delete (never LIKE: "%" and "_" in names are ordinary characters).
            await self.conn.execute(
                "DELETE FROM workspace_entries WHERE workspace_id = ? AND path >= ? AND path < ?",
                (self.ws_id, lo, hi),
            )
            self.known_dirs.clear()
            for gone in reversed(below):
                if gone.blob_key:
                    self.dead_blobs.append(gone.blob_key)
                self.events.append(ChangeEvent("delete", gone.path, gone.type))
        await self.delete_rows([r])


class _BlobMissing(WorkspaceError):
    """A row's blob vanished: usually a writer replaced the file and deleted the old blob
    between our reading the row and reading the blob. Re-reading the row resolves it."""


async def _retrying_blob_reads(attempt: Callable[[], Awaitable[_T]]) -> _T:
    for _ in range(2):
        try:
            return await attempt()
        except _BlobMissing:
            await asyncio.sleep(0)
    return await attempt()


def _link_destination(link: _Row) -> str:
    assert link.target is not None
    if link.target.startswith("/"):
        return _paths.normalize(link.target)
    return _paths.normalize(_paths.join(_paths.parent(link.path) or "/", link.target))


Observer = Callable[[ChangeEvent], None]


class WorkspaceStore:
    """Named workspaces in one SQLite database file, with large files spilled to ``blob_dir``."""

    def __init__(
        self, conn: aiosqlite.Connection, db_path: Path, blob_dir: Path | None, spill_threshold: int
    ) -> None:
        self._conn = conn
        self.db_path = db_path
        self.blob_dir = blob_dir
        self.spill_threshold = spill_threshold
        self._lock = asyncio.Lock()
        self._observers: dict[str, list[Observer]] = {}
        self._closed = False

    @classmethod
    async def open(
        cls,
        db_path: str | os.PathLike[str],
        blob_dir: str | os.PathLike[str] | None = None,
        spill_threshold: int = DEFAULT_SPILL_THRESHOLD,
        *,
        orphan_grace_s: float | None = 3600.0,
    ) -> WorkspaceStore:
        """Open (creating and migrating) the database; collect blob orphans older than the grace.

        ``blob_dir`` None keeps every file inline. The grace protects blobs another process
        has written but not yet committed; pass None to skip collection at open.
        """
        if spill_threshold < 1:
            raise InvalidArgument("spill_threshold must be at least 1 byte")
        db = Path(db_path)
        db.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(db, isolation_level=None)
        try:
            await configure_connection(conn)
            await migrate(conn)
        except BaseException:
            await conn.close()
            raise
        blobs = Path(blob_dir) if blob_dir is not None else None
        if blobs is not None:
            blobs.mkdir(parents=True, exist_ok=True)
        store = cls(conn, db, blobs, spill_threshold)
        if blobs is not None and orphan_grace_s is not None:
            await store.collect_orphans(min_age_s=orphan_grace_s)
        return store

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            await self._conn.close()

    async def __aenter__(self) -> WorkspaceStore:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def workspace(self, name: str = "default") -> Workspace:
        """A handle on workspace ``name``; it is created by its first write."""
        return Workspace(self, _check_name(name))

    async def list_workspaces(self) -> list[dict[str, Any]]:
        async with self._lock:
            async with self._conn.execute("SELECT name, created_at FROM workspaces ORDER BY name") as cur:
                rows = await cur.fetchall()
        return [{"name": r[0], "created_at": r[1]} for r in rows]

    async def has_workspace(self, name: str) -> bool:
        async with self._lock:
            async with self._conn.execute("SELECT 1 FROM workspaces WHERE name = ?", (_check_name(name),)) as cur:
                return await cur.fetchone() is not None

    async def delete_workspace(self, name: str) -> bool:
        """Delete a workspace and all its entries; False when it did not exist."""
        async with self.transaction(_check_name(name), write=True) as t:
            if t.ws_id is None:
                return False
            async with self._conn.execute(
                "SELECT blob_key FROM workspace_entries WHERE workspace_id = ? AND blob_key IS NOT NULL", (t.ws_id,)
            ) as cur:
                t.dead_blobs.extend(r[0] for r in await cur.fetchall())
            await self._conn.execute("DELETE FROM workspace_entries WHERE workspace_id = ?", (t.ws_id,))
            await self._conn.execute("DELETE FROM workspaces WHERE id = ?", (t.ws_id,))
            return True

    def subscribe(self, name: str, observer: Observer) -> Callable[[], None]:
        """Call ``observer`` for every committed change in workspace ``name`` (this process only)."""
        self._observers.setdefault(name, []).append(observer)

        def unsubscribe() -> None:
            listeners = self._observers.get(name, [])
            if observer in listeners:
                listeners.remove(observer)

        return unsubscribe

    # --- transactions --------------------------------------------------------------------

    @asynccontextmanager
    async def transaction(self, name: str, *, write: bool, consistent: bool = True) -> AsyncIterator[_Txn]:
        """One SQLite transaction on workspace ``name``; changes commit together or not at all.

        ``consistent=False`` (reads only) skips BEGIN/COMMIT: each statement then sees the
        latest commit on its own. Single-lookup reads use it to save two round trips to
        aiosqlite's thread; anything reading several rows that must agree (a snapshot) keeps
        the default. Writes from this process are excluded either way by the store's lock.
        """
        if self._closed:
            raise WorkspaceError("the workspace store is closed", code="EIO")
        if write and not consistent:
            raise InvalidArgument("write transactions are always consistent")
        async with self._lock:
            txn = _Txn(self, name, write)
            if not write and not consistent:
                await txn.load()
                yield txn
                return
            committing = False
            try:
                await self._conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                await txn.load()
                yield txn
                await txn.finish()
                key = operation_key.get() if write else None
                if key is not None:
                    await self._conn.execute(
                        "INSERT OR IGNORE INTO workspace_operations (key, workspace, applied_at)"
                        " VALUES (?, ?, ?)", (key, name, time.time()))
                committing = True
                await self._conn.execute("COMMIT")
            except BaseException as exc:
                # Statements run in aiosqlite's thread in order, so this ROLLBACK runs after
                # anything already sent, even if our await on it was cancelled.
                rolled_back = await self._rollback()
                if committing and not rolled_back:
                    # The COMMIT went through although its await was interrupted: the rows
                    # exist, so their new blobs must stay; finish as a committed change.
                    await self._after_commit(name, txn)
                    raise
                await asyncio.to_thread(self._delete_blobs, txn.new_blobs)
                if isinstance(exc, sqlite3.IntegrityError):
                    raise Conflict(f"the database refused a change: {exc}") from exc
                if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
                    # Another process held the write lock past busy_timeout.
                    raise WorkspaceError("the database is busy; retry the operation", code="EBUSY") from exc
                raise
        await self._after_commit(name, txn)

    async def operation_applied(self, key: str) -> bool:
        """Whether a write tagged with ``key`` (see :data:`operation_key`) committed."""
        async with self._lock:
            async with self._conn.execute(
                "SELECT 1 FROM workspace_operations WHERE key = ?", (key,)
            ) as cur:
                return await cur.fetchone() is not None

    async def forget_operations(self, older_than_s: float) -> int:
        """Drop operation keys recorded more than ``older_than_s`` seconds ago."""
        async with self._lock:
            cur = await self._conn.execute(
                "DELETE FROM workspace_operations WHERE applied_at < ?",
                (time.time() - older_than_s,))
            return max(cur.rowcount, 0)

    async def _after_commit(self, name: str, txn: _Txn) -> None:
        if txn.dead_blobs:
            await asyncio.to_thread(self._delete_blobs, txn.dead_blobs)
        for event in txn.events:
            for observer in list(self._observers.get(name, ())):
                try:
                    observer(event)
                except Exception:
                    # The change is committed; a failing observer must not make it look failed.
                    _log.exception("workspace observer failed on %s", event)

    async def _rollback(self) -> bool:
        """Roll back; False when no transaction was open (BEGIN failed, or COMMIT already ran)."""
        try:
            await self._conn.execute("ROLLBACK")
        except sqlite3.OperationalError:
            return False
        return True

    # --- blobs ---------------------------------------------------------------------------

    def _spills(self, size: int) -> bool:
        return self.blob_dir is not None and size >= self.spill_threshold

    def _blob_path(self, key: str) -> Path:
        assert self.blob_dir is not None
        return self.blob_dir / key[:2] / key

    def _write_blob(self, key: str, data: bytes) -> None:
        path = self._blob_path(key)
        path.parent.mkdir(exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            # Durable before the row that points at it can commit.
            os.fsync(fd)
        finally:
            os.close(fd)
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)  # and so is its directory entry
        finally:
            os.close(dir_fd)

    def _read_blob(self, key: str) -> bytes:
        try:
            return self._blob_path(key).read_bytes()
        except FileNotFoundError as exc:
            raise _BlobMissing(f"blob {key} is missing from the blob directory", code="EIO") from exc

    def _read_blobs(self, wanted: list[tuple[str, str]]) -> dict[str, bytes]:
        out: dict[str, bytes] = {}
        for path, key in wanted:
            try:
                out[path] = self._blob_path(key).read_bytes()
            except FileNotFoundError:
                _log.error("blob %s of %s is missing from the blob directory", key, path)
        return out

    def _delete_blobs(self, keys: Iterable[str]) -> None:
        for key in keys:
            try:
                self._blob_path(key).unlink()
            except FileNotFoundError:
                pass

    async def collect_orphans(self, *, min_age_s: float = 3600.0) -> int:
        """Delete blob files no row references and older than ``min_age_s``; return how many."""
        if self.blob_dir is None:
            return 0
        async with self._lock:
            async with self._conn.execute(
                "SELECT blob_key FROM workspace_entries WHERE blob_key IS NOT NULL"
            ) as cur:
                live = {r[0] for r in await cur.fetchall()}
            return await asyncio.to_thread(self._sweep_orphans, live, min_age_s)

    def _sweep_orphans(self, live: set[str], min_age_s: float) -> int:
        assert self.blob_dir is not None
        cutoff = time.time() - min_age_s
        removed = 0
        for shard in self.blob_dir.iterdir():
            if not shard.is_dir():
                continue
            for blob in shard.iterdir():
                if blob.name in live:
                    continue
                try:
                    if blob.stat().st_mtime <= cutoff:
                        blob.unlink()
                        removed += 1
                except FileNotFoundError:
                    pass
        return removed


def _text_arg(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise InvalidArgument(f"{what} must be a string, not {type(value).__name__}")
    return value


def _bytes_arg(value: object) -> bytes:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise InvalidArgument(f"data must be bytes, not {type(value).__name__}")


def _int_arg(value: object, what: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InvalidArgument(f"{what} must be an integer >= {minimum}")
    return value


class Workspace:
    """One named workspace: the filesystem operations of reference section 1."""

    def __init__(self, store: WorkspaceStore, name: str) -> None:
        self.store = store
        self.name = name

    def __repr__(self) -> str:
        return f"Workspace({self.name!r})"

    def _txn(self, *, write: bool) -> AbstractAsyncContextManager[_Txn]:
        # Single operations read without BEGIN/COMMIT (see WorkspaceStore.transaction).
        return self.store.transaction(self.name, write=write, consistent=write)

    def on_change(self, observer: Observer) -> Callable[[], None]:
        return self.store.subscribe(self.name, observer)

    # --- reading -------------------------------------------------------------------------

    async def read_bytes(self, path: str) -> bytes | None:
        """Content of the file at ``path`` (symlinks followed); None when missing."""
        return await _retrying_blob_reads(lambda: self._read_bytes(path))

    async def _read_bytes(self, path: str) -> bytes | None:
        p = _paths.normalize(path)
        async with self._txn(write=False) as t:
            _, found, _ = await t.resolve(p, content=True)
            if found is None:
                return None
            if found.type == "directory":
                raise IsDirectory("illegal operation on a directory", p)
            data: bytes = await t.content_of(found)
            return data

    async def read_file(self, path: str) -> str | None:
        data = await self.read_bytes(path)
        return None if data is None else decode(data)

    async def read_with_stat(self, path: str) -> tuple[Stat, bytes] | None:
        """Stat and content from one row read (so they always agree)."""
        return await _retrying_blob_reads(lambda: self._read_with_stat(path))

    async def _read_with_stat(self, path: str) -> tuple[Stat, bytes] | None:
        p = _paths.normalize(path)
        async with self._txn(write=False) as t:
            _, found, _ = await t.resolve(p, content=True)
            if found is None:
                return None
            if found.type == "directory":
                raise IsDirectory("illegal operation on a directory", p)
            return found.stat(), await t.content_of(found)

    async def read_many(self, paths: Sequence[str]) -> dict[str, bytes]:
        """Contents of the files at these exact paths, in one transaction.

        No symlink following; missing paths, directories and links are simply absent from
        the result. Used by the bulk readers (grep, search).
        """
        async with self._txn(write=False) as t:
            return await t.contents(sorted({_paths.normalize(p) for p in paths}))

    async def exists(self, path: str) -> bool:
        """True for any entry, a dangling symlink included (the last link is not followed)."""
        p = _paths.normalize(path)
        async with self._txn(write=False) as t:
            _, found, _ = await t.resolve(p, follow_last=False)
            return found is not None

    async def stat(self, path: str) -> Stat | None:
        """Metadata of the entry at ``path``, following symlinks; None when missing."""
        p = _paths.normalize(path)
        async with self._txn(write=False) as t:
            _, found, _ = await t.resolve(p)
            return found.stat() if found is not None else None

    async def lstat(self, path: str) -> Stat | None:
        """Like ``stat`` but a symlink describes itself."""
        p = _paths.normalize(path)
        async with self._txn(write=False) as t:
            _, found, _ = await t.resolve(p, follow_last=False)
            return found.stat() if found is not None else None

    async def is_file(self, path: str) -> bool:
        try:
            found = await self.stat(path)
        except SymlinkLoop:
            return False
        return found is not None and found.type == "file"

    async def is_dir(self, path: str) -> bool:
        try:
            found = await self.stat(path)
        except SymlinkLoop:
            return False
        return found is not None and found.type == "directory"

    async def readlink(self, path: str) -> str:
        p = _paths.normalize(path)
        async with self._txn(write=False) as t:
            _, found, _ = await t.resolve(p, follow_last=False)
            if found is None:
                raise NotFound("no such file or directory", p)
            if found.type != "symlink" or found.target is None:
                raise InvalidArgument("not a symbolic link", p)
            return found.target

    async def list_dir(self, path: str = "/", limit: int = 1000, offset: int = 0) -> list[Stat]:
        """Children of a directory: directories, then files, then symlinks, each by name."""
        p = _paths.normalize(path)
        limit = _int_arg(limit, "limit", 0)
        offset = _int_arg(offset, "offset", 0)
        async with self._txn(write=False) as t:
            real, found, _ = await t.resolve(p)
            if found is None:
                raise NotFound("no such file or directory", p)
            if found.type != "directory":
                raise NotDirectory("not a directory", p)
            if t.ws_id is None:
                return []
            async with t.conn.execute(
                f"SELECT {_COLUMNS} FROM workspace_entries WHERE workspace_id = ? AND parent_path = ?"
                " ORDER BY CASE type WHEN 'directory' THEN 0 WHEN 'file' THEN 1 ELSE 2 END, name"
                " LIMIT ? OFFSET ?",
                (t.ws_id, real, limit, offset),
            ) as cur:
                return [_row(r).stat() for r in await cur.fetchall()]

    async def glob(self, pattern: str) -> list[Stat]:
        """Entries whose path matches ``pattern`` (see ``_paths.compile_glob``), by path."""
        return [stat for stat, _ in await self._glob(pattern, content_up_to=None)]

    async def glob_files_with_content(self, pattern: str, max_bytes: int) -> list[tuple[Stat, bytes | None]]:
        """Files matching ``pattern`` with their bytes, in one scan; None for files over ``max_bytes``."""
        found = await self._glob(pattern, content_up_to=max_bytes)
        return [(stat, data) for stat, data in found if stat.type == "file"]

    async def _glob(self, pattern: str, *, content_up_to: int | None) -> list[tuple[Stat, bytes | None]]:
        pat = _paths.normalize_glob(_text_arg(pattern, "pattern"))
        regex = _paths.compile_glob(pat)
        prefix = _paths.glob_prefix(pat)
        async with self._txn(write=False) as t:
            if t.ws_id is None:
                return []
            if prefix == pat:
                found = await t.row(pat)
                if found is None or pat == "/":
                    return []
                single: bytes | None = None
                if content_up_to is not None and found.type == "file" and found.size <= content_up_to:
                    single = await t.content_of(found)
                return [(found.stat(), single)]
            lo, hi = _paths.subtree_bounds(prefix.rstrip("/") or "/")
            suffix = _paths.glob_suffix(pat)
            # The range and the suffix are necessary conditions only; the regex decides.
            cols = _COLUMNS
            params: list[Any] = []
            if content_up_to is not None:
                cols += ", CASE WHEN type = 'file' AND size <= ? THEN content END"
                params.append(content_up_to)
            sql = f"SELECT {cols} FROM workspace_entries WHERE workspace_id = ? AND path >= ? AND path < ?"
            params += [t.ws_id, lo, hi]
            if suffix:
                sql += " AND substr(path, ?) = ?"
                params += [-len(suffix), suffix]
            async with t.conn.execute(sql + " ORDER BY path", params) as cur:
                rows = await cur.fetchall()
            match = regex.match
            out: list[tuple[Stat, bytes | None]] = []
            for values in rows:
                if not match(values[0]):
                    continue
                r = _row(values[:12])
                data: bytes | None = None
                if content_up_to is not None and r.type == "file" and r.size <= content_up_to:
                    # Blob-stored files carry no inline content; read them from the blob directory.
                    data = bytes(values[12]) if r.storage == "inline" and values[12] is not None else None
                    if data is None:
                        data = await t.content_of(r) if r.storage == "blob" else b""
                out.append((r.stat(), data))
            return out

    async def walk(self, path: str = "/") -> list[Stat]:
        """Every entry strictly below ``path`` (not following symlinks), by path."""
        p = _paths.normalize(path)
        async with self._txn(write=False) as t:
            real, found, _ = await t.resolve(p)
            if found is None:
                raise NotFound("no such file or directory", p)
            if found.type != "directory":
                raise NotDirectory("not a directory", p)
            return [r.stat() for r in await t.subtree(real)]

    async def diff(self, path_a: str, path_b: str) -> str:
        """Unified diff (3 context lines) between two files; "" when identical."""
        texts: list[str] = []
        for path in (path_a, path_b):
            text = await self.read_file(path)
            if text is None:
                raise NotFound("no such file or directory", _paths.normalize(path))
            texts.append(text)
        return unified_diff(texts[0], texts[1], _paths.normalize(path_a), _paths.normalize(path_b))

    async def info(self) -> dict[str, int]:
        """``{file_count, directory_count (root included), symlink_count, total_bytes, blob_file_count}``."""
        async with self._txn(write=False) as t:
            counts = {"file": 0, "directory": 1, "symlink": 0}
            total = blobs = 0
            if t.ws_id is not None:
                async with t.conn.execute(
                    "SELECT type, count(*), coalesce(sum(CASE WHEN type = 'file' THEN size END), 0),"
                    " sum(storage = 'blob') FROM workspace_entries WHERE workspace_id = ? GROUP BY type",
                    (t.ws_id,),
                ) as cur:
                    for kind, count, size, blob_count in await cur.fetchall():
                        counts[kind] = int(count)
                        total += int(size)
                        blobs += int(blob_count or 0)
        return {
            "file_count": counts["file"],
            "directory_count": counts["directory"],
            "symlink_count": counts["symlink"],
            "total_bytes": total,
            "blob_file_count": blobs,
        }

    # --- writing -------------------------------------------------------------------------

    async def write_bytes(
        self, path: str, data: bytes, mime: str = "application/octet-stream", *, if_version: int | None = None
    ) -> Stat:
        """Create or overwrite a file (following a symlink at ``path``); parents are created.

        ``if_version`` makes the write conditional (compare-and-set): the file must currently
        have that version, or be absent when it is 0; otherwise ``Conflict`` and no change.
        """
        return await self._write(path, _bytes_arg(data), _text_arg(mime, "mime"), if_version)

    async def write_file(
        self, path: str, text: str, mime: str = "text/plain", *, if_version: int | None = None
    ) -> Stat:
        return await self._write(path, _text_arg(text, "text").encode("utf-8"), _text_arg(mime, "mime"), if_version)

    async def _write(self, path: str, data: bytes, mime: str, if_version: int | None = None) -> Stat:
        p = _paths.normalize(path)
        if if_version is not None:
            _int_arg(if_version, "if_version", 0)
        if len(data) > MAX_FILE_BYTES:
            raise LimitExceeded(f"file is {len(data)} bytes; the limit is {MAX_FILE_BYTES}", p)
        async with self._txn(write=True) as t:
            real, found, blocker = await t.resolve(p)
            if blocker is not None:
                raise NotDirectory("not a directory", blocker)
            if real == "/" or (found is not None and found.type == "directory"):
                raise IsDirectory("illegal operation on a directory", p)
            if if_version is not None:
                current = found.version if found is not None else 0
                if current != if_version:
                    raise Conflict(f"expected version {if_version}, found {current}", p)
            await t.mkdirs(_paths.parent(real) or "/")
            return (await t.put_file(real, data, mime, found)).stat()

    async def append_bytes(self, path: str, data: bytes) -> Stat:
        return await self._append(path, _bytes_arg(data), "application/octet-stream")

    async def append_file(self, path: str, text: str) -> Stat:
        """Append text; a missing file is created. The spill threshold is re-checked."""
        return await self._append(path, _text_arg(text, "text").encode("utf-8"), "text/plain")

    async def _append(self, path: str, data: bytes, mime: str) -> Stat:
        p = _paths.normalize(path)
        async with self._txn(write=True) as t:
            real, found, blocker = await t.resolve(p, content=True)
            if blocker is not None:
                raise NotDirectory("not a directory", blocker)
            if real == "/" or (found is not None and found.type == "directory"):
                raise IsDirectory("illegal operation on a directory", p)
            if found is None:
                await t.mkdirs(_paths.parent(real) or "/")
                return (await t.put_file(real, data, mime, None)).stat()
            old = await t.content_of(found)
            return (await t.put_file(real, old + data, found.mime_type, found)).stat()

    async def delete_file(self, path: str) -> bool:
        """Remove a file or symlink (not what it points to); False when missing."""
        p = _paths.normalize(path)
        async with self._txn(write=True) as t:
            _, found, _ = await t.resolve(p, follow_last=False)
            if found is None:
                return False
            if found.type == "directory":
                raise IsDirectory("illegal operation on a directory", p)
            await t.delete_rows([found])
            return True

    async def mkdir(self, path: str, recursive: bool = False) -> None:
        p = _paths.normalize(path)
        if p == "/":
            return
        async with self._txn(write=True) as t:
            real, found, blocker = await t.resolve(p, follow_last=False)
            if found is not None:
                if found.type == "directory" and recursive:
                    return
                raise AlreadyExists("file already exists", p)
            if blocker is not None:
                raise NotDirectory("not a directory", blocker)
            parent = _paths.parent(real) or "/"
            if not recursive:
                parent_row = await t.row(parent)
                if parent_row is None:
                    raise NotFound("no such file or directory", parent)
            await t.mkdirs(real)

    async def rm(self, path: str, recursive: bool = False, force: bool = False) -> None:
        p = _paths.normalize(path)
        if p == "/":
            raise PermissionDenied("operation not permitted", p)
        async with self._txn(write=True) as t:
            real, found, _ = await t.resolve(p, follow_last=False)
            if found is None:
                if force:
                    return
                raise NotFound("no such file or directory", p)
            if real == "/":
                raise PermissionDenied("operation not permitted", p)
            if found.type == "directory" and not recursive and await t.has_children(real):
                raise NotEmpty("directory not empty", p)
            await t.delete_tree(found)

    async def symlink(self, target: str, path: str) -> Stat:
        """Create a symlink at ``path`` pointing at ``target`` (relative to the link's parent)."""
        target = _text_arg(target, "target")
        if not target.strip():
            raise InvalidArgument("symlink target must not be empty", path)
        if "\x00" in target:
            raise InvalidArgument("symlink target contains a NUL character", path)
        if len(target) > _paths.MAX_PATH:
            raise NameTooLong(f"symlink target is {len(target)} characters; the limit is {_paths.MAX_PATH}")
        p = _paths.normalize(path)
        async with self._txn(write=True) as t:
            real, found, blocker = await t.resolve(p, follow_last=False)
            if found is not None or real == "/":
                raise AlreadyExists("file already exists", p)
            if blocker is not None:
                raise NotDirectory("not a directory", blocker)
            await t.mkdirs(_paths.parent(real) or "/")
            now = time.time()
            link = _Row(real, _paths.parent(real), _paths.basename(real), "symlink", "inode/symlink",
                        len(target.encode()), "inline", None, target, t.next_version(), now, now)  # fmt: skip
            await t._insert(link)
            t.events.append(ChangeEvent("create", real, "symlink"))
            return link.stat()

    async def cp(self, src: str, dst: str, recursive: bool = False) -> None:
        """Copy; a symlink is copied as a link, a directory needs ``recursive``, MIME types kept.

        A file copy overwrites a file at ``dst``; a directory copy needs ``dst`` to be free.
        """
        sp, dp = _paths.normalize(src), _paths.normalize(dst)
        async with self._txn(write=True) as t:
            s_real, s_row, _ = await t.resolve(sp, follow_last=False)
            if s_row is None:
                raise NotFound("no such file or directory", sp)
            if s_row.type == "directory":
                if not recursive:
                    raise IsDirectory("illegal operation on a directory (use recursive)", sp)
                d_real, d_row, blocker = await t.resolve(dp, follow_last=False)
                if blocker is not None:
                    raise NotDirectory("not a directory", blocker)
                if d_row is not None:
                    raise AlreadyExists("file already exists", dp)
                if _paths.is_within(d_real, s_real):
                    raise InvalidArgument("cannot copy a directory into itself", dp)
                await t.mkdirs(d_real)
                for r in await t.subtree(s_real):
                    new_path = d_real + r.path[len(s_real) :]
                    if r.type == "directory":
                        await t.mkdirs(new_path)
                    elif r.type == "file":
                        await t.put_file(new_path, await t.content_of(r), r.mime_type, None)
                    else:
                        await self._copy_link(t, r, new_path)
                return
            d_real, d_row, blocker = await t.resolve(dp, follow_last=s_row.type == "file")
            if blocker is not None:
                raise NotDirectory("not a directory", blocker)
            if d_real == "/" or (d_row is not None and d_row.type == "directory"):
                raise IsDirectory("illegal operation on a directory", dp)
            if d_real == s_real:
                return
            await t.mkdirs(_paths.parent(d_real) or "/")
            if s_row.type == "file":
                await t.put_file(d_real, await t.content_of(s_row), s_row.mime_type, d_row)
            else:
                if d_row is not None:
                    await t.delete_rows([d_row])
                await self._copy_link(t, s_row, d_real)

    @staticmethod
    async def _copy_link(t: _Txn, link: _Row, new_path: str) -> None:
        now = time.time()
        await t._insert(
            _Row(new_path, _paths.parent(new_path), _paths.basename(new_path), "symlink", link.mime_type,
                 link.size, "inline", None, link.target, t.next_version(), now, now)
        )  # fmt: skip
        t.events.append(ChangeEvent("create", new_path, "symlink"))

    async def mv(self, src: str, dst: str) -> None:
        """Rename ``src`` to ``dst`` (the subtree moves with a directory; blobs keep their keys).

        Replaces a file at ``dst``, or an empty directory when ``src`` is a directory.
        """
        sp, dp = _paths.normalize(src), _paths.normalize(dst)
        if sp == "/" or dp == "/":
            raise PermissionDenied("operation not permitted", "/")
        async with self._txn(write=True) as t:
            s_real, s_row, _ = await t.resolve(sp, follow_last=False)
            if s_row is None:
                raise NotFound("no such file or directory", sp)
            d_real, d_row, blocker = await t.resolve(dp, follow_last=False)
            if blocker is not None:
                raise NotDirectory("not a directory", blocker)
            if d_real == s_real:
                return
            if _paths.is_within(d_real, s_real):
                raise InvalidArgument("cannot move a directory into itself", dp)
            if d_row is not None:
                if d_row.type == "directory":
                    if s_row.type != "directory":
                        raise IsDirectory("illegal operation on a directory", dp)
                    if await t.has_children(d_real):
                        raise NotEmpty("directory not empty", dp)
                elif s_row.type == "directory":
                    raise NotDirectory("not a directory", dp)
                await t.delete_rows([d_row])
            await t.mkdirs(_paths.parent(d_real) or "/")
            version = t.next_version()
            now = time.time()
            assert t.ws_id is not None
            t.known_dirs.clear()
            await t.conn.execute(
                "UPDATE workspace_entries SET path = ?, parent_path = ?, name = ?, version = ?, modified_at = ?"
                " WHERE workspace_id = ? AND path = ?",
                (d_real, _paths.parent(d_real), _paths.basename(d_real), version, now, t.ws_id, s_real),
            )
            if s_row.type == "directory":
                lo, hi = _paths.subtree_bounds(s_real)
                cut = len(s_real) + 1
                await t.conn.execute(
                    "UPDATE workspace_entries SET path = ? || substr(path, ?),"
                    " parent_path = ? || substr(parent_path, ?), version = ?"
                    " WHERE workspace_id = ? AND path >= ? AND path < ?",
                    (d_real, cut, d_real, cut, version, t.ws_id, lo, hi),
                )
            t.events.append(ChangeEvent("delete", s_real, s_row.type))
            t.events.append(ChangeEvent("create", d_real, s_row.type))

    # --- snapshot / write-back (implemented in snapshot.py) ---------------------------------

    async def snapshot(self, max_files: int = 1000, max_file_bytes: int = 1_000_000) -> Snapshot:
        """See ``workspace.snapshot.take_snapshot``."""
        from .snapshot import take_snapshot

        return await take_snapshot(self, max_files=max_files, max_file_bytes=max_file_bytes)

    async def write_back(
        self, snap: Snapshot, host_dir: str | os.PathLike[str], *, max_new_entries: int = 10_000
    ) -> dict[str, Any]:
        """See ``workspace.snapshot.write_back``."""
        from .snapshot import write_back

        return await write_back(self, snap, host_dir, max_new_entries=max_new_entries)
