"""The workspace: named virtual filesystems in SQLite or PostgreSQL, their tools and snapshots.

Entry points::

    store = await WorkspaceStore.open(db_path, blob_dir, spill_threshold=1_500_000)
    ws = store.workspace("default")            # created by its first write
    await ws.write_file("/a.txt", "hi"); await ws.read_file("/a.txt")
    await call_tool(ws, "grep", {"query": "hi"})   # the model-facing tools
    snap = await ws.snapshot(max_files=1000, max_file_bytes=1_000_000)
    with materialise(snap) as host_dir:            # what an isolate sees as "/"
        ...
        report = await ws.write_back(snap, host_dir)

Modules (other packages import only from this package root):

- ``errors``: the exception tree.
- ``_paths``, ``_text``: path normalisation and globs; decoding and diffs.
- ``_patterns``: the guest's regexes and globs on RE2 (linear time), and their bounds.
- ``schema``: the tables, the pragmas and the versioned migrations.
- ``entries``: ``Stat``, ``ChangeEvent``, the stored row and the limits on entries.
- ``blobs``: the spill store, where files over the threshold keep their bytes.
- ``database``: the store's database (over the ``storage`` seam), its write locks, and
  transactions with storage errors translated.
- ``transaction``: one transaction on one workspace, the row primitives every operation
  is built from, and ``operation_key``.
- ``fs``: the filesystem API, ``WorkspaceStore`` and ``Workspace``.
- ``quotas``: ``Quotas`` (bytes and files per call and per workspace) and the call budget.
- ``edits``: the ``state.*`` helpers; ``tools``: read, write, edit, list, find, grep,
  delete; ``snapshot``: snapshot, materialise, write-back.
"""

from ._paths import normalize as normalize_path
from .edits import (
    apply_edits,
    diff,
    diff_text,
    plan_edits,
    read_json,
    replace_in_files,
    search_text,
    write_json,
)
from .errors import (
    AlreadyExists,
    Conflict,
    EditBatchError,
    InvalidArgument,
    IsDirectory,
    LimitExceeded,
    NameTooLong,
    NotDirectory,
    NotEmpty,
    NotFound,
    PermissionDenied,
    QuotaExceeded,
    SymlinkLoop,
    WorkspaceError,
)
from .blobs import DEFAULT_SPILL_THRESHOLD
from .entries import MAX_DIR_DEPTH, ChangeEvent, Stat
from .fs import Workspace, WorkspaceStore
from .quotas import Quotas
from .schema import apply_migrations, configure_connection
from .snapshot import (
    SCRATCH_PATHS,
    SkippedEntry,
    Snapshot,
    SnapshotFile,
    materialise,
    materialise_async,
    materialised_size,
    TreeSize,
    measure_tree,
    remove_small_tree,
    sweep_materialised,
)
from .tenants import DEFAULT_TENANT, TENANT_NAME, check_tenant
from .tools import TOOL_DEFINITIONS, TOOL_NAMES, call_tool
from .transaction import operation_key

__all__ = [
    "AlreadyExists",
    "apply_edits",
    "apply_migrations",
    "call_tool",
    "ChangeEvent",
    "check_tenant",
    "configure_connection",
    "Conflict",
    "DEFAULT_SPILL_THRESHOLD",
    "DEFAULT_TENANT",
    "diff",
    "diff_text",
    "EditBatchError",
    "InvalidArgument",
    "IsDirectory",
    "LimitExceeded",
    "materialise",
    "materialise_async",
    "materialised_size",
    "MAX_DIR_DEPTH",
    "measure_tree",
    "NameTooLong",
    "normalize_path",
    "NotDirectory",
    "NotEmpty",
    "NotFound",
    "operation_key",
    "PermissionDenied",
    "plan_edits",
    "QuotaExceeded",
    "Quotas",
    "read_json",
    "remove_small_tree",
    "replace_in_files",
    "SCRATCH_PATHS",
    "search_text",
    "SkippedEntry",
    "Snapshot",
    "SnapshotFile",
    "Stat",
    "sweep_materialised",
    "SymlinkLoop",
    "TENANT_NAME",
    "TOOL_DEFINITIONS",
    "TOOL_NAMES",
    "TreeSize",
    "Workspace",
    "WorkspaceError",
    "WorkspaceStore",
    "write_json",
]
