"""Blobs: the spill store, where files at or over the spill threshold keep their bytes.

A blob is one file ``<blob_dir>/<key[:2]>/<key>`` named by a random key that is never
reused. The ordering that keeps rows and blobs consistent (written and fsynced before the
row that references it commits, deleted only after the commit that unreferences it) is
the transaction's job; this module does the file I/O. Every method here blocks, so async
callers run them with ``asyncio.to_thread``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import TypeVar

from .errors import WorkspaceError

__all__ = ["DEFAULT_SPILL_THRESHOLD", "BlobStore", "retrying_blob_reads"]

_log = logging.getLogger(__name__)

DEFAULT_SPILL_THRESHOLD = 1_500_000

_T = TypeVar("_T")


class _BlobMissing(WorkspaceError):
    """A row's blob vanished: usually a writer replaced the file and deleted the old blob
    between our reading the row and reading the blob. Re-reading the row resolves it."""


async def retrying_blob_reads(attempt: Callable[[], Awaitable[_T]]) -> _T:
    """Run ``attempt`` (a read of rows and their blobs) again when a blob went missing."""
    for _ in range(2):
        try:
            return await attempt()
        except _BlobMissing:
            await asyncio.sleep(0)
    return await attempt()


class BlobStore:
    """The blob directory (None: every file stays inline) and the size at which files spill."""

    def __init__(self, directory: Path | None, spill_threshold: int) -> None:
        self.directory = directory
        self.spill_threshold = spill_threshold

    def spills(self, size: int) -> bool:
        """Whether a file of ``size`` bytes goes to a blob rather than inline."""
        return self.directory is not None and size >= self.spill_threshold

    def path(self, key: str) -> Path:
        assert self.directory is not None
        return self.directory / key[:2] / key

    def write(self, key: str, data: bytes) -> None:
        """Write a new blob and fsync it and its directory entry."""
        path = self.path(key)
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

    def read(self, key: str) -> bytes:
        """A blob's bytes; a missing blob raises (``retrying_blob_reads`` re-reads the row)."""
        try:
            return self.path(key).read_bytes()
        except FileNotFoundError as exc:
            raise _BlobMissing(f"blob {key} is missing from the blob directory", code="EIO") from exc

    def read_many(self, wanted: list[tuple[str, str]]) -> dict[str, bytes]:
        """``{path: bytes}`` for ``(path, key)`` pairs; a missing blob is logged and left out."""
        out: dict[str, bytes] = {}
        for path, key in wanted:
            try:
                out[path] = self.path(key).read_bytes()
            except FileNotFoundError:
                _log.error("blob %s of %s is missing from the blob directory", key, path)
        return out

    def delete(self, keys: Iterable[str]) -> None:
        """Delete these blobs; one already gone is not an error."""
        for key in keys:
            try:
                self.path(key).unlink()
            except FileNotFoundError:
                pass

    def sweep_orphans(self, live: set[str], min_age_s: float) -> int:
        """Delete blobs not in ``live`` and older than ``min_age_s``; return how many."""
        assert self.directory is not None
        cutoff = time.time() - min_age_s
        removed = 0
        for shard in self.directory.iterdir():
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
