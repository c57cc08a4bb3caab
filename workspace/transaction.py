"""One transaction on one workspace: the row lookups, symlink resolution and row mutations.

``Transaction`` holds what a transaction collects as it goes (the workspace id, the next
entry version, change events, blobs written and blobs made unreachable) and, as the
``TransactionHooks`` of ``Database.transaction``, settles them: the version counter and the
operation key are written before the commit, new blobs are deleted after a rollback, dead
blobs after a commit, and observers hear the events only once the change is committed.

Invariants the code relies on:
- every row's ``parent_path`` names a directory row, so a row that exists never has a
  symlink or a file among its ancestors (path resolution leans on this);
- entry ``version`` values come from the workspace's ``seq`` counter and are never reused;
- a row never points at a missing blob. A blob is written and fsynced *before* the row that
  references it commits; a blob made unreachable is deleted only *after* its commit. A crash
  in between leaves an unreferenced blob, which ``WorkspaceStore.collect_orphans`` removes.
"""

from __future__ import annotations

import asyncio
import contextvars
import errno
import time
import uuid
from collections.abc import Callable, Iterable, Sequence

import storage

from . import _paths
from .blobs import BlobStore
from .entries import (
    COLUMNS,
    MAX_DIR_DEPTH,
    MAX_FILE_BYTES,
    MAX_SYMLINK_HOPS,
    ChangeEvent,
    Row,
    root_row,
    row_from,
)
from .errors import LimitExceeded, NotDirectory, QuotaExceeded, SymlinkLoop, WorkspaceError
from .quotas import CallBudget
from .tenants import tenant_of_key

__all__ = ["Transaction", "operation_key"]

operation_key: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "workspace_operation_key", default=None)
"""Set around a write to tag it: the store then records the key in the write's own
transaction (see :meth:`WorkspaceStore.operation_applied`), so a caller that crashed after
the commit but before it noted the outcome can tell the write happened and not repeat it."""


class Transaction:
    """One transaction on one workspace: the primitives every operation is built from."""

    conn: storage.Connection
    """The connection the transaction runs on, from ``start`` on."""

    def __init__(
        self,
        blobs: BlobStore,
        name: str,
        writable: bool,
        publish: Callable[[str, ChangeEvent], None],
        budget: CallBudget | None = None,
    ) -> None:
        self.budget = budget
        # (files, bytes) of the workspace as this transaction has left them; None: not read yet.
        self._totals: tuple[int, int] | None = None
        self.blobs = blobs
        self._publish = publish
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

    # --- the steps of Database.transaction (TransactionHooks) ----------------------------

    async def start(self, conn: storage.Connection) -> None:
        """Find the workspace and its version counter (reserving a version when writing)."""
        self.conn = conn
        if self.writable:
            # Reserve the first version in the same statement that finds the workspace: a
            # one-entry write then needs no second update of seq (unused versions are gaps).
            sql = "UPDATE workspaces SET seq = seq + 1 WHERE name = ? RETURNING id, seq - 1"
        else:
            sql = "SELECT id, seq FROM workspaces WHERE name = ?"
        found = await self.conn.fetchone(sql, (self.name,))
        if found is not None:
            self.ws_id, self._seq = int(found[0]), int(found[1])
            self._recorded_seq = self._seq + 1 if self.writable else self._seq

    async def before_commit(self) -> None:
        """Record the versions handed out and, for a tagged write, its operation key."""
        if self._seq > self._recorded_seq and self.ws_id is not None:
            await self.conn.execute("UPDATE workspaces SET seq = ? WHERE id = ?", (self._seq, self.ws_id))
        key = operation_key.get() if self.writable else None
        if key is not None:
            await self.conn.execute(
                "INSERT INTO workspace_operations (key, workspace, applied_at)"
                " VALUES (?, ?, ?) ON CONFLICT DO NOTHING", (key, self.name, time.time()))

    async def committed(self) -> None:
        """Delete the blobs the commit made unreachable, then tell the observers."""
        if self.dead_blobs:
            await asyncio.to_thread(self.blobs.delete, self.dead_blobs)
        for event in self.events:
            self._publish(self.name, event)

    async def rolled_back(self) -> None:
        """Delete the blobs this transaction wrote: no committed row references them."""
        await asyncio.to_thread(self.blobs.delete, self.new_blobs)

    # --- the workspace and its versions --------------------------------------------------

    async def ensure_workspace(self) -> int:
        """The workspace id, creating the workspace (and its root row) on first write."""
        if self.ws_id is not None:
            return self.ws_id
        assert self.writable, "read transactions never create workspaces"
        now = time.time()
        found = await self.conn.fetchone(
            "INSERT INTO workspaces (name, tenant, created_at, seq) VALUES (?, ?, ?, 0) RETURNING id",
            (self.name, tenant_of_key(self.name), now)
        )
        assert found is not None
        self.ws_id = int(found[0])
        root = root_row(now)
        root.version = self.next_version()
        await self.insert(root)
        return self.ws_id

    def next_version(self) -> int:
        self._seq += 1
        return self._seq

    # --- lookups -------------------------------------------------------------------------

    async def row(self, path: str, *, content: bool = False) -> Row | None:
        if self.ws_id is None:
            return root_row() if path == "/" else None
        cols = COLUMNS + (", content" if content else "")
        found = await self.conn.fetchone(
            f"SELECT {cols} FROM workspace_entries WHERE workspace_id = ? AND path = ?", (self.ws_id, path)
        )
        return row_from(found) if found is not None else None

    async def rows_in(self, paths: Sequence[str]) -> dict[str, Row]:
        if not paths:
            return {}
        if self.ws_id is None:
            return {"/": root_row()} if "/" in paths else {}
        out: dict[str, Row] = {}
        for start in range(0, len(paths), 500):
            chunk = paths[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for found in await self.conn.fetchall(
                f"SELECT {COLUMNS} FROM workspace_entries WHERE workspace_id = ? AND path IN ({marks})",
                (self.ws_id, *chunk),
            ):
                r = row_from(found)
                out[r.path] = r
        return out

    async def subtree(self, root: str, *, content: bool = False) -> list[Row]:
        """Rows strictly below ``root``, by path (a range scan, never LIKE)."""
        if self.ws_id is None:
            return []
        lo, hi = _paths.subtree_bounds(root)
        cols = COLUMNS + (", content" if content else "")
        return [row_from(r) for r in await self.conn.fetchall(
            f"SELECT {cols} FROM workspace_entries WHERE workspace_id = ? AND path >= ? AND path < ?"
            " ORDER BY path",
            (self.ws_id, lo, hi),
        )]

    async def has_children(self, path: str) -> bool:
        if self.ws_id is None:
            return False
        lo, hi = _paths.subtree_bounds(path)
        return await self.conn.fetchone(
            "SELECT 1 FROM workspace_entries WHERE workspace_id = ? AND path >= ? AND path < ? LIMIT 1",
            (self.ws_id, lo, hi),
        ) is not None

    async def resolve(
        self, path: str, *, follow_last: bool = True, content: bool = False
    ) -> tuple[str, Row | None, str | None]:
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

    async def content_of(self, r: Row) -> bytes:
        if r.storage == "blob":
            assert r.blob_key is not None
            return await asyncio.to_thread(self.blobs.read, r.blob_key)
        if r.content is not None:
            return bytes(r.content)
        found = await self.conn.fetchone(
            "SELECT content FROM workspace_entries WHERE workspace_id = ? AND path = ?", (self.ws_id, r.path)
        )
        return bytes(found[0]) if found is not None and found[0] is not None else b""

    async def contents(self, paths: Sequence[str]) -> dict[str, bytes]:
        """Bytes of the files at these exact paths (no following); others are left out."""
        out: dict[str, bytes] = {}
        if self.ws_id is None:
            return out
        for start in range(0, len(paths), 500):
            chunk = paths[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = await self.conn.fetchall(
                f"SELECT path, storage, blob_key, content FROM workspace_entries WHERE workspace_id = ?"
                f" AND type = 'file' AND path IN ({marks})",
                (self.ws_id, *chunk),
            )
            blobs: list[tuple[str, str]] = []
            for path, storage, key, content in rows:
                if storage == "blob":
                    blobs.append((path, key))
                else:
                    out[path] = bytes(content) if content is not None else b""
            if blobs:
                out.update(await asyncio.to_thread(self.blobs.read_many, blobs))
        return out

    # --- mutations -----------------------------------------------------------------------

    async def insert(self, r: Row) -> None:
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
            await self.insert(
                Row(p, _paths.parent(p), _paths.basename(p), "directory", "inode/directory", 0, "inline",
                    None, None, self.next_version(), now, now)
            )  # fmt: skip
            self.events.append(ChangeEvent("create", p, "directory"))
            created.append(p)
        self.known_dirs.update(chain)
        return created

    async def _charge(self, path: str, size: int, existing: Row | None, charged: int) -> None:
        """Check the quotas for this write (raising ``EDQUOT`` before anything is written)."""
        if self.budget is None:
            return
        quotas = self.budget.quotas
        if self._totals is None:
            found = await self.conn.fetchone(
                "SELECT count(*), coalesce(sum(size), 0) FROM workspace_entries"
                " WHERE workspace_id = ? AND type = 'file'", (self.ws_id,)
            )
            self._totals = (int(found[0]), int(found[1])) if found is not None else (0, 0)
        files, total = self._totals
        files += existing is None
        total += size - (existing.size if existing is not None else 0)
        # Only growth is refused: shrinking or rewriting an over-quota workspace stays possible.
        if existing is None and files > quotas.workspace_files:
            raise QuotaExceeded("workspace_files", quotas.workspace_files, files, path)
        if total > self._totals[1] and total > quotas.workspace_bytes:
            raise QuotaExceeded("workspace_bytes", quotas.workspace_bytes, total, path)
        self.budget.charge(path, charged, creates=existing is None)
        self._totals = (files, total)

    async def put_file(self, path: str, data: bytes, mime: str, existing: Row | None, *,
                       charged: int | None = None) -> Row:
        """Insert or overwrite the file row at a resolved ``path`` whose parent exists.

        ``charged`` is what the write costs the call's budget (default: all of ``data``; an
        append charges only what it adds).
        """
        if len(data) > MAX_FILE_BYTES:
            raise LimitExceeded(f"file is {len(data)} bytes; the limit is {MAX_FILE_BYTES}", path)
        await self.ensure_workspace()
        await self._charge(path, len(data), existing, len(data) if charged is None else charged)
        now = time.time()
        storage, key = "inline", None
        content: bytes | None = data
        if self.blobs.spills(len(data)):
            key = uuid.uuid4().hex
            # Registered before writing so a failed or cancelled write is still cleaned up.
            self.new_blobs.append(key)
            try:
                await asyncio.to_thread(self.blobs.write, key, data)
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
            await self.insert(
                Row(path, _paths.parent(path), _paths.basename(path), "file", mime, len(data), storage, key,
                    None, version, now, now, content)
            )  # fmt: skip
            self.events.append(ChangeEvent("create", path, "file"))
        return Row(path, _paths.parent(path), _paths.basename(path), "file", mime, len(data), storage, key,
                   None, version, created_at, now)  # fmt: skip

    async def delete_rows(self, rows: Iterable[Row]) -> None:
        assert self.ws_id is not None
        self.known_dirs.clear()
        self._totals = None  # recounted by the next write that needs them
        for r in sorted(rows, key=lambda r: r.path, reverse=True):
            await self.conn.execute(
                "DELETE FROM workspace_entries WHERE workspace_id = ? AND path = ?", (self.ws_id, r.path)
            )
            if r.blob_key:
                self.dead_blobs.append(r.blob_key)
            self.events.append(ChangeEvent("delete", r.path, r.type))

    async def delete_tree(self, r: Row) -> None:
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



def _link_destination(link: Row) -> str:
    assert link.target is not None
    if link.target.startswith("/"):
        return _paths.normalize(link.target)
    return _paths.normalize(_paths.join(_paths.parent(link.path) or "/", link.target))

