"""Entries: what is stored about one file, directory or symlink, and the limits on entries.

``Stat`` is the public, read-only view of an entry (never its content); ``ChangeEvent`` is
what observers hear after a change to an entry commits. ``Row`` is the stored form, the
columns of ``workspace_entries`` in ``COLUMNS`` order (plus the content when asked for);
only the transaction and the filesystem modules build or read rows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

__all__ = [
    "COLUMNS",
    "MAX_DIR_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_SYMLINK_HOPS",
    "ChangeEvent",
    "EntryType",
    "Observer",
    "Row",
    "Stat",
    "root_row",
    "row_from",
]

MAX_FILE_BYTES = 100 * 1024 * 1024
MAX_SYMLINK_HOPS = 40
MAX_DIR_DEPTH = 100

EntryType = Literal["file", "directory", "symlink"]
COLUMNS = (
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


Observer = Callable[[ChangeEvent], None]


@dataclass(slots=True)
class Row:
    """One ``workspace_entries`` row, as read or about to be written."""

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


def row_from(values: Sequence[Any]) -> Row:
    """A row from the values of a ``SELECT {COLUMNS}`` (optionally followed by content)."""
    return Row(*values)


def root_row(created_at: float = 0.0) -> Row:
    """The root directory's row; a workspace that does not exist yet still has this root."""
    return Row("/", None, "", "directory", "inode/directory", 0, "inline", None, None, 0, created_at, created_at)
