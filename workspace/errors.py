"""The workspace package's one exception tree.

Every error a workspace operation raises on purpose derives from ``WorkspaceError``; its
``code`` is errno-style and its message starts with that code, so a model reading only the
text still sees the classification::

    WorkspaceError(code, detail, path)
    ├── NotFound            ENOENT        the path (or a parent) does not exist
    ├── IsDirectory         EISDIR        a file operation met a directory
    ├── NotDirectory        ENOTDIR       a path component is a file, not a directory
    ├── AlreadyExists       EEXIST        creating something that is already there
    ├── NotEmpty            ENOTEMPTY     removing a non-empty directory without recursive
    ├── PermissionDenied    EPERM         removing or replacing the root
    ├── InvalidArgument     EINVAL        malformed input (bad path, empty symlink target, ...)
    ├── SymlinkLoop         ELOOP         more than 40 links, or more than 100 mkdir levels
    ├── NameTooLong         ENAMETOOLONG  a path or symlink target over 4,096 characters
    ├── LimitExceeded       EFBIG         a file over 100 MiB, a diff over 10,000 lines, a pattern
    │                                     over its bounds (size, ``**`` count, scan time; ``_patterns``)
    │   └── QuotaExceeded   EDQUOT        a call or a workspace over a quota (``quotas.Quotas``)
    ├── Conflict            ECONFLICT     the stored entry changed under a writer's feet
    └── EditBatchError      (cause's code) a batch of edits failed part-way

``WorkspaceError`` itself is raised with ``EBUSY`` (another process kept the database
locked past the busy timeout: retry), ``EIO`` (a missing blob, a closed store) or
``EUNAVAILABLE`` (the service has no store).
"""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = [
    "AlreadyExists",
    "Conflict",
    "EditBatchError",
    "InvalidArgument",
    "IsDirectory",
    "LimitExceeded",
    "NameTooLong",
    "NotDirectory",
    "NotEmpty",
    "NotFound",
    "PermissionDenied",
    "QuotaExceeded",
    "SymlinkLoop",
    "WorkspaceError",
    "error_for_code",
]


class WorkspaceError(Exception):
    """Base of every deliberate workspace failure; ``code`` is errno-style."""

    default_code: ClassVar[str] = "EIO"

    def __init__(self, detail: str, path: str | None = None, *, code: str | None = None) -> None:
        self.code: str = code or self.default_code
        self.detail = detail
        self.path = path
        message = f"{self.code}: {detail}"
        if path is not None:
            message += f", '{path}'"
        super().__init__(message)

    @property
    def message(self) -> str:
        return str(self)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": str(self)}


class NotFound(WorkspaceError):
    """ENOENT: the path, or one of its parents, does not exist."""

    default_code = "ENOENT"


class IsDirectory(WorkspaceError):
    """EISDIR: a file operation was aimed at a directory."""

    default_code = "EISDIR"


class NotDirectory(WorkspaceError):
    """ENOTDIR: a component of the path is not a directory."""

    default_code = "ENOTDIR"


class AlreadyExists(WorkspaceError):
    """EEXIST: the path is already taken."""

    default_code = "EEXIST"


class NotEmpty(WorkspaceError):
    """ENOTEMPTY: the directory has entries; pass recursive to remove them too."""

    default_code = "ENOTEMPTY"


class PermissionDenied(WorkspaceError):
    """EPERM: the operation is never allowed (removing the root, for example)."""

    default_code = "EPERM"


class InvalidArgument(WorkspaceError):
    """EINVAL: the input is malformed."""

    default_code = "EINVAL"


class SymlinkLoop(WorkspaceError):
    """ELOOP: too many symlinks to follow, or a directory chain too deep."""

    default_code = "ELOOP"


class NameTooLong(WorkspaceError):
    """ENAMETOOLONG: a path or symlink target is over 4,096 characters."""

    default_code = "ENAMETOOLONG"


class LimitExceeded(WorkspaceError):
    """EFBIG: content over a size limit (files over 100 MiB, diffs over 10,000 lines, patterns)."""

    default_code = "EFBIG"


_QUOTA_WORDS = {
    "call_bytes": ("bytes written by one call", "SANDBOX_MAX_CALL_WRITE_BYTES"),
    "call_files": ("files created by one call", "SANDBOX_MAX_CALL_FILES"),
    "workspace_bytes": ("bytes in one workspace", "SANDBOX_MAX_WORKSPACE_BYTES"),
    "workspace_files": ("files in one workspace", "SANDBOX_MAX_WORKSPACE_FILES"),
    "tree_growth_bytes": ("bytes a bash script may add to its filesystem", "SANDBOX_MAX_TREE_GROWTH_BYTES"),
}


class QuotaExceeded(LimitExceeded):
    """EDQUOT: a write would take a call or a workspace past a quota; nothing was written."""

    default_code = "EDQUOT"

    def __init__(self, quota: str, limit: int, attempted: int, path: str | None = None) -> None:
        self.quota = quota
        self.limit = limit
        self.attempted = attempted
        what, setting = _QUOTA_WORDS.get(quota, (quota, "the service's settings"))
        super().__init__(f"quota exceeded: {attempted} {what} is over the limit of {limit} ({setting})", path)

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "quota": self.quota, "limit": self.limit, "attempted": self.attempted}


class Conflict(WorkspaceError):
    """ECONFLICT: the stored entry changed since the caller read it; the stored one was kept."""

    default_code = "ECONFLICT"


class EditBatchError(WorkspaceError):
    """A batch of edits failed part-way; ``rolled_back`` says whether earlier edits were undone."""

    def __init__(
        self,
        cause: WorkspaceError,
        operation: dict[str, Any],
        *,
        rolled_back: bool,
        rollback_error: str | None = None,
    ) -> None:
        self.cause = cause
        self.operation = operation
        self.rolled_back = rolled_back
        self.rollback_error = rollback_error
        detail = f"edit {operation.get('index')} ({operation.get('kind')}) failed: {cause.detail}"
        detail += "; earlier edits rolled back" if rolled_back else "; earlier edits NOT rolled back"
        if rollback_error:
            detail += f" (rollback error: {rollback_error})"
        super().__init__(detail, cause.path, code=cause.code)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "message": str(self),
            "operation": self.operation,
            "rolled_back": self.rolled_back,
        }
        if self.rollback_error is not None:
            out["rollback_error"] = self.rollback_error
        return out


_BY_CODE: dict[str, type[WorkspaceError]] = {
    cls.default_code: cls
    for cls in (
        NotFound,
        IsDirectory,
        NotDirectory,
        AlreadyExists,
        NotEmpty,
        PermissionDenied,
        InvalidArgument,
        SymlinkLoop,
        NameTooLong,
        LimitExceeded,
        Conflict,
    )
}


def error_for_code(code: str, detail: str, path: str | None = None) -> WorkspaceError:
    """Build the most specific error class for an errno-style code."""
    cls = _BY_CODE.get(code, WorkspaceError)
    return cls(detail, path, code=code)
