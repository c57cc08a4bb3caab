"""Limits: a frozen value saying how much one isolate run may use."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True)
class Limits:
    """What one run may use. Every field is enforced and reported by kind when hit."""

    deadline_s: float = 30.0
    """Wall-clock seconds for the whole run (guest code plus its host calls)."""
    memory_bytes: int = 256 * 1024 * 1024
    """Most linear memory the guest may grow to; past it allocations fail (MemoryError)."""
    output_bytes: int = 1_000_000
    """Most bytes of printed output (logs) kept; printing past it fails the run."""
    max_host_calls: int = 1_000
    """Most host calls (tool calls) one run may make."""
    max_code_bytes: int = 1_000_000
    """Largest accepted code (UTF-8 bytes)."""
    max_result_bytes: int = 16 * 1024 * 1024
    """Largest result the guest may hand back (JSON bytes)."""
    scratch_bytes: int = 64 * 1024 * 1024
    """Most bytes an execute's scratch ``/tmp`` may hold (each entry counted at least 4 KiB)."""
    scratch_files: int = 1_000
    """Most files and directories an execute's scratch ``/tmp`` may hold."""

    default: ClassVar["Limits"]

    def __post_init__(self) -> None:
        for name in _FIELD_NAMES:
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"limit {name} must be a positive number, got {value!r}")

    def replace(self, **changes: Any) -> "Limits":
        """A copy with ``changes`` applied; ``None`` values keep the current setting."""
        return dataclasses.replace(self, **{k: v for k, v in changes.items() if v is not None})

    def to_dict(self) -> dict[str, Any]:
        # Every field is a number: no need for asdict's deep copy (sent with every run).
        return {name: getattr(self, name) for name in _FIELD_NAMES}


_FIELD_NAMES = tuple(field.name for field in dataclasses.fields(Limits))
Limits.default = Limits()

MAX_DEADLINE_S = 600.0
"""The service refuses longer deadlines than this."""
MAX_MEMORY_BYTES = 4 * 1024 * 1024 * 1024 - 65536
"""A 32-bit guest cannot address more than 4 GiB anyway."""
