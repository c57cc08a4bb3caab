"""Quotas: how much one call may write and how much one workspace may hold.

``Quotas`` is the policy (a frozen value, ``Quotas.default``); ``CallBudget`` is what one
call has written so far. A *call* is whatever holds one ``Workspace`` handle: one bash run
(its write-back), one run of an execution (all its ``state.*`` writes), one HTTP request to a
workspace route. ``WorkspaceStore.workspace()`` gives every handle a fresh budget.

Every file write goes through ``Transaction.put_file``, which charges the budget and checks
the workspace's totals before writing anything; past a quota it raises ``QuotaExceeded``
(``EDQUOT``) and the transaction rolls back, so an over-quota operation (a whole bash
write-back included) leaves the workspace as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .errors import QuotaExceeded

__all__ = ["CallBudget", "Quotas"]

MiB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Quotas:
    """The limits on writing; every field is enforced at its value (equal passes, one more fails)."""

    call_bytes: int = 64 * MiB
    """Bytes one call may write (a file's whole content on write, the added bytes on append)."""
    call_files: int = 10_000
    """Files one call may create."""
    workspace_bytes: int = 1024 * MiB
    """Total bytes of the files of one workspace."""
    workspace_files: int = 100_000
    """Files in one workspace."""
    tree_growth_bytes: int = 256 * MiB
    """How much a bash script may add to its materialised tree (scratch ``/tmp`` included)
    beyond what the snapshot put there; checked while the script runs, past it the script is
    stopped and nothing is written back."""

    default: ClassVar[Quotas]
    unlimited: ClassVar[Quotas]
    """For putting back what a refused batch already wrote (an undo must never be refused)."""

    def __post_init__(self) -> None:
        for name in ("call_bytes", "call_files", "workspace_bytes", "workspace_files", "tree_growth_bytes"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"quota {name} must be a non-negative integer, not {value!r}")


Quotas.default = Quotas()
Quotas.unlimited = Quotas(*(2**62,) * 5)


class CallBudget:
    """What one call has written so far, against its ``Quotas``."""

    def __init__(self, quotas: Quotas) -> None:
        self.quotas = quotas
        self.bytes_written = 0
        self.files_created = 0

    def charge(self, path: str, nbytes: int, *, creates: bool) -> None:
        """Count a write of ``nbytes`` (creating a file when ``creates``), or raise ``EDQUOT``."""
        if self.bytes_written + nbytes > self.quotas.call_bytes:
            raise QuotaExceeded("call_bytes", self.quotas.call_bytes, self.bytes_written + nbytes, path)
        if creates and self.files_created + 1 > self.quotas.call_files:
            raise QuotaExceeded("call_files", self.quotas.call_files, self.files_created + 1, path)
        self.bytes_written += nbytes
        self.files_created += creates
