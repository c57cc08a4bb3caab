"""The filesystem: ``WorkspaceStore`` (named workspaces in one database) and ``Workspace``.

``WorkspaceStore`` owns the database (``database.Database``, SQLite or PostgreSQL, and its
write locks), the blob store (``blobs.BlobStore``) and this process's observers;
``Workspace`` is a cheap handle naming one workspace in it. Every operation runs in one
transaction (writes under the workspace's write lock, so two processes never interleave
on it), built from the primitives of ``transaction.Transaction``, whose module states the
invariants they keep.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import storage

from . import _paths
from ._text import decode, unified_diff
from .blobs import DEFAULT_SPILL_THRESHOLD, BlobStore, retrying_blob_reads
from .database import Database
from .entries import COLUMNS, MAX_FILE_BYTES, ChangeEvent, Observer, Row, Stat, row_from
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
)
from .quotas import CallBudget, Quotas
from .tenants import DEFAULT_TENANT, check_tenant, storage_key
from .transaction import Transaction

if TYPE_CHECKING:
    from .snapshot import Snapshot

__all__ = ["Workspace", "WorkspaceStore"]

QUICK_WRITE_BYTES = 64 * 1024
"""A file write of at most this many bytes runs its transaction on the event loop when the
database is free (a dozen statements: 0.84 ms in hops to the database's thread before)."""
_T = TypeVar("_T")
_log = logging.getLogger(__name__)

_WORKSPACE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}\Z")


def _check_name(name: str) -> str:
    if not isinstance(name, str) or not _WORKSPACE_NAME.match(name):
        raise InvalidArgument(
            "workspace names are 1-128 characters of letters, digits, '.', '_' or '-', "
            "starting with a letter or digit",
            repr(name)[:140],
        )
    return name


class WorkspaceStore:
    """Named workspaces in one database (SQLite or PostgreSQL), large files spilled to ``blob_dir``."""

    def __init__(
        self, db: Database, blob_dir: Path | None, spill_threshold: int,
        quotas: Quotas = Quotas.default,
    ) -> None:
        self._db = db
        self.quotas = quotas
        self._blobs = BlobStore(blob_dir, spill_threshold)
        self._observers: dict[str, list[Observer]] = {}

    @property
    def database_url(self) -> str:
        """Where the tables are: the SQLite file's path, or the PostgreSQL URL (no password)."""
        return self._db.db.url

    @property
    def blob_dir(self) -> Path | None:
        return self._blobs.directory

    @property
    def spill_threshold(self) -> int:
        return self._blobs.spill_threshold

    @classmethod
    async def open(
        cls,
        database: str | os.PathLike[str] | storage.Database,
        blob_dir: str | os.PathLike[str] | None = None,
        spill_threshold: int = DEFAULT_SPILL_THRESHOLD,
        *,
        orphan_grace_s: float | None = 3600.0,
        quotas: Quotas = Quotas.default,
    ) -> WorkspaceStore:
        """Open (creating and migrating) the database; collect blob orphans older than the grace.

        ``database`` is a SQLite file's path, a ``postgresql://`` URL or an open database
        (see ``storage``; a borrowed one is left open).
        ``blob_dir`` None keeps every file inline (in PostgreSQL: ``bytea``); several
        processes on one PostgreSQL database must share the same ``blob_dir``, if any. The grace protects blobs another process
        has written but not yet committed; pass None to skip collection at open.
        """
        if spill_threshold < 1:
            raise InvalidArgument("spill_threshold must be at least 1 byte")
        db = await Database.open(database)
        blobs = Path(blob_dir) if blob_dir is not None else None
        if blobs is not None:
            blobs.mkdir(parents=True, exist_ok=True)
        store = cls(db, blobs, spill_threshold, quotas)
        if blobs is not None and orphan_grace_s is not None:
            await store.collect_orphans(min_age_s=orphan_grace_s)
        return store

    async def close(self) -> None:
        await self._db.close()

    async def __aenter__(self) -> WorkspaceStore:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def workspace(self, name: str = "default", *, quotas: Quotas | None = None,
                  tenant: str = DEFAULT_TENANT) -> Workspace:
        """A handle on workspace ``name`` of ``tenant``; it is created by its first write.

        The handle is one *call* for the quotas: what is written through it is counted
        against ``quotas`` (default: the store's).
        """
        return Workspace(self, _check_name(name), quotas or self.quotas, tenant=tenant)

    async def list_workspaces(self, tenant: str = DEFAULT_TENANT) -> list[dict[str, Any]]:
        """The workspaces of ``tenant``, by name."""
        prefix = len(storage_key(check_tenant(tenant), ""))
        async with self._db.statements() as conn:
            rows = await conn.fetchall(
                "SELECT name, created_at FROM workspaces WHERE tenant = ? ORDER BY name", (tenant,)
            )
        return [{"name": r[0][prefix:], "created_at": r[1]} for r in rows]

    async def has_workspace(self, name: str, tenant: str = DEFAULT_TENANT) -> bool:
        key = storage_key(check_tenant(tenant), _check_name(name))
        async with self._db.statements() as conn:
            return await conn.fetchone(
                "SELECT 1 FROM workspaces WHERE name = ?", (key,)
            ) is not None

    async def delete_workspace(self, name: str, tenant: str = DEFAULT_TENANT) -> bool:
        """Delete a workspace and all its entries; False when it did not exist."""
        key = storage_key(check_tenant(tenant), _check_name(name))
        async with self.transaction(key, write=True) as t:
            if t.ws_id is None:
                return False
            t.dead_blobs.extend(r[0] for r in await t.conn.fetchall(
                "SELECT blob_key FROM workspace_entries WHERE workspace_id = ? AND blob_key IS NOT NULL", (t.ws_id,)
            ))
            await t.conn.execute("DELETE FROM workspace_entries WHERE workspace_id = ?", (t.ws_id,))
            await t.conn.execute("DELETE FROM workspaces WHERE id = ?", (t.ws_id,))
            return True

    def subscribe(self, name: str, observer: Observer) -> Callable[[], None]:
        """Call ``observer`` for every committed change in workspace ``name`` (this process only)."""
        self._observers.setdefault(name, []).append(observer)

        def unsubscribe() -> None:
            listeners = self._observers.get(name, [])
            if observer in listeners:
                listeners.remove(observer)

        return unsubscribe

    def _publish(self, name: str, event: ChangeEvent) -> None:
        for observer in list(self._observers.get(name, ())):
            try:
                observer(event)
            except Exception:
                # The change is committed; a failing observer must not make it look failed.
                _log.exception("workspace observer failed on %s", event)

    async def read(self, fn: storage.BodyFn[_T], *args: Any) -> _T:
        """A read-only body (see ``storage.body``) in one quick transaction of its own."""
        return await self._db.read(fn, *args)

    @asynccontextmanager
    async def transaction(self, name: str, *, write: bool, consistent: bool = True,
                          budget: CallBudget | None = None,
                          quick: bool = False) -> AsyncIterator[Transaction]:
        """One transaction on workspace ``name``; changes commit together or not at all.

        ``consistent=False`` (reads only) skips BEGIN/COMMIT: each statement then sees the
        latest commit on its own. Single-lookup reads use it to save two round trips to the
        database; anything reading several rows that must agree (a snapshot) keeps
        the default. Writes from this process are excluded either way by the store's lock.
        ``quick``: a few short statements (a small file written), run on the event loop when
        the database is free at that moment, without a hop to its thread per statement.
        """
        txn = Transaction(self._blobs, name, write, self._publish, budget)
        # Writers to different workspaces need not wait for each other where the backend
        # locks by name (PostgreSQL); SQLite has one write lock per file anyway.
        async with self._db.transaction(txn, write=write, consistent=consistent,
                                        lock=f"workspace:{name}", quick=quick):
            yield txn

    # --- operation keys (see transaction.operation_key) ----------------------------------

    async def operation_applied(self, key: str) -> bool:
        """Whether a write tagged with ``key`` (see :data:`operation_key`) committed."""
        async with self._db.statements() as conn:
            return await conn.fetchone(
                "SELECT 1 FROM workspace_operations WHERE key = ?", (key,)
            ) is not None

    async def forget_operations(self, older_than_s: float) -> int:
        """Drop operation keys recorded more than ``older_than_s`` seconds ago."""
        async with self._db.statements() as conn:
            return await conn.execute(
                "DELETE FROM workspace_operations WHERE applied_at < ?",
                (time.time() - older_than_s,))

    # --- blobs ---------------------------------------------------------------------------

    async def collect_orphans(self, *, min_age_s: float = 3600.0) -> int:
        """Delete blob files no row references and older than ``min_age_s``; return how many."""
        if self._blobs.directory is None:
            return 0
        async with self._db.statements() as conn:
            live = {r[0] for r in await conn.fetchall(
                "SELECT blob_key FROM workspace_entries WHERE blob_key IS NOT NULL"
            )}
            return await asyncio.to_thread(self._blobs.sweep_orphans, live, min_age_s)


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

    def __init__(self, store: WorkspaceStore, name: str, quotas: Quotas | None = None, *,
                 tenant: str = DEFAULT_TENANT) -> None:
        self.store = store
        self.name = name
        self.tenant = check_tenant(tenant)
        self.key = storage_key(self.tenant, name)
        """Its row's key in the store (see :mod:`workspace.tenants`)."""
        # What this handle (one call) has written, against the quotas.
        self.budget = CallBudget(quotas or store.quotas)

    def __repr__(self) -> str:
        return f"Workspace({self.key!r})"

    def _txn(self, *, write: bool, quick: bool = False) -> AbstractAsyncContextManager[Transaction]:
        # Single operations read without BEGIN/COMMIT (see WorkspaceStore.transaction).
        return self.store.transaction(self.key, write=write, consistent=write,
                                      budget=self.budget if write else None, quick=quick)

    def on_change(self, observer: Observer) -> Callable[[], None]:
        return self.store.subscribe(self.key, observer)

    # --- reading -------------------------------------------------------------------------

    async def read_bytes(self, path: str) -> bytes | None:
        """Content of the file at ``path`` (symlinks followed); None when missing."""
        return await retrying_blob_reads(lambda: self._read_bytes(path))

    async def _read_bytes(self, path: str) -> bytes | None:
        p = _paths.normalize(path)
        row = await self.store.read(_row_at, self.key, p)
        if row is not None and _in_row(row):
            return row.content or b""
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
        return await retrying_blob_reads(lambda: self._read_with_stat(path))

    async def _read_with_stat(self, path: str) -> tuple[Stat, bytes] | None:
        p = _paths.normalize(path)
        row = await self.store.read(_row_at, self.key, p)
        if row is not None and _in_row(row):
            return row.stat(), row.content or b""
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
        if await self.store.read(_row_at, self.key, p) is not None:
            return True
        async with self._txn(write=False) as t:
            _, found, _ = await t.resolve(p, follow_last=False)
            return found is not None

    async def stat(self, path: str) -> Stat | None:
        """Metadata of the entry at ``path``, following symlinks; None when missing."""
        p = _paths.normalize(path)
        row = await self.store.read(_row_at, self.key, p)
        if row is not None and row.type != "symlink":
            return row.stat()
        async with self._txn(write=False) as t:
            _, found, _ = await t.resolve(p)
            return found.stat() if found is not None else None

    async def lstat(self, path: str) -> Stat | None:
        """Like ``stat`` but a symlink describes itself."""
        p = _paths.normalize(path)
        row = await self.store.read(_row_at, self.key, p)
        if row is not None:
            return row.stat()
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
            return [row_from(r).stat() for r in await t.conn.fetchall(
                f"SELECT {COLUMNS} FROM workspace_entries WHERE workspace_id = ? AND parent_path = ?"
                " ORDER BY CASE type WHEN 'directory' THEN 0 WHEN 'file' THEN 1 ELSE 2 END, name"
                " LIMIT ? OFFSET ?",
                (t.ws_id, real, limit, offset),
            )]

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
            cols = COLUMNS
            params: list[Any] = []
            if content_up_to is not None:
                cols += ", CASE WHEN type = 'file' AND size <= ? THEN content END"
                params.append(content_up_to)
            sql = f"SELECT {cols} FROM workspace_entries WHERE workspace_id = ? AND path >= ? AND path < ?"
            params += [t.ws_id, lo, hi]
            if suffix:
                # substr from a position, not a negative offset: PostgreSQL has no offset form.
                sql += " AND substr(path, length(path) - ?) = ?"
                params += [len(suffix) - 1, suffix]
            rows = await t.conn.fetchall(sql + " ORDER BY path", params)
            # Matching is linear (RE2), but a workspace can hold many paths: match them in a
            # thread (RE2 releases the GIL) so the event loop keeps answering meanwhile.
            matching = await asyncio.to_thread(lambda: [values for values in rows if regex.matches(values[0])])
            out: list[tuple[Stat, bytes | None]] = []
            for values in matching:
                r = row_from(values[:12])
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
                for kind, count, size, blob_count in await t.conn.fetchall(
                    "SELECT type, count(*), coalesce(sum(CASE WHEN type = 'file' THEN size END), 0),"
                    " sum(CASE WHEN storage = 'blob' THEN 1 ELSE 0 END) FROM workspace_entries WHERE workspace_id = ? GROUP BY type",
                    (t.ws_id,),
                ):
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
        async with self._txn(write=True, quick=len(data) <= QUICK_WRITE_BYTES) as t:
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
            return (await t.put_file(real, old + data, found.mime_type, found, charged=len(data))).stat()

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
            link = Row(real, _paths.parent(real), _paths.basename(real), "symlink", "inode/symlink",
                       len(target.encode()), "inline", None, target, t.next_version(), now, now)  # fmt: skip
            await t.insert(link)
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
    async def _copy_link(t: Transaction, link: Row, new_path: str) -> None:
        now = time.time()
        await t.insert(
            Row(new_path, _paths.parent(new_path), _paths.basename(new_path), "symlink", link.mime_type,
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
                    "UPDATE workspace_entries SET path = CAST(? AS TEXT) || substr(path, ?),"
                    " parent_path = CAST(? AS TEXT) || substr(parent_path, ?), version = ?"
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
        self, snap: Snapshot, host_dir: str | os.PathLike[str], *, max_new_entries: int = 10_000,
        inline_entries: int = 0,
    ) -> dict[str, Any]:
        """See ``workspace.snapshot.write_back``."""
        from .snapshot import write_back

        return await write_back(self, snap, host_dir, max_new_entries=max_new_entries,
                                inline_entries=inline_entries)

    async def apply_changes(self, snap: Snapshot, changes: object, *,
                            max_new_entries: int = 10_000) -> dict[str, Any]:
        """See ``workspace.changes.apply_changes``."""
        from .changes import apply_changes

        return await apply_changes(self, snap, changes, max_new_entries=max_new_entries)


_ROW_AT = (f"SELECT {', '.join('e.' + c.strip() for c in COLUMNS.split(','))}, e.content"
           " FROM workspace_entries e JOIN workspaces w ON w.id = e.workspace_id"
           " WHERE w.name = ? AND e.path = ?")


def _row_at(workspace: str, path: str) -> storage.Body[Row | None]:
    """The entry stored at exactly ``path`` (its content too), in one quick read; None when
    there is none there. The lookup that follows links costs two hops to the database's
    thread; a row's path is its real path (no entry lies under a link), so what is found
    here is what that lookup would find for the path itself, and only a miss needs it."""
    values = yield storage.FetchOne(_ROW_AT, (workspace, path))
    return None if values is None else row_from(tuple(values))


def _in_row(row: Row) -> bool:
    """A file whose bytes are in its row (not a link to follow, nor a spilled blob)."""
    return row.type == "file" and row.storage == "inline"
