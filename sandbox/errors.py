"""The sandbox's one exception tree.

    SandboxError                 anything the isolate layer reports
    ├── LimitExceeded            a limit stopped the run; ``kind`` names which
    │   ├── DeadlineExceeded     kind "deadline": wall-clock time ran out
    │   ├── MemoryLimitExceeded  kind "memory": linear memory would grow past the limit
    │   ├── OutputLimitExceeded  kind "output": printed output or the result was too large
    │   ├── HostCallLimitExceeded kind "host_calls": more host calls than allowed
    │   ├── CodeTooLarge         kind "code_size": the submitted code is over the limit
    │   └── ScratchLimitExceeded kind "scratch": the run's /tmp grew past its bytes or entries
    ├── GuestTrap                the guest trapped for another reason (``code`` says which)
    ├── GuestProtocolError       kind "protocol": what the guest sent is malformed or too big
    ├── WorkerCrashed            the worker process died; the service replaced it
    └── GuestBuildError          the guest component could not be built or compiled

Inside the service these are exceptions; at the HTTP edge and in results they become
values: ``{"kind", "message", "code"?}`` under ``trap`` (``code``: which WebAssembly trap).
"""

from __future__ import annotations


class SandboxError(Exception):
    """Base of every error the isolate layer raises."""

    kind = "error"

    def to_trap(self) -> dict[str, str]:
        """The value form, sent over the worker pipe and shown in results."""
        return {"kind": self.kind, "message": str(self)}


class LimitExceeded(SandboxError):
    """A configured limit stopped the run."""


class DeadlineExceeded(LimitExceeded):
    """The run went past its wall-clock deadline."""

    kind = "deadline"


class MemoryLimitExceeded(LimitExceeded):
    """The guest tried to use more memory than allowed."""

    kind = "memory"


class OutputLimitExceeded(LimitExceeded):
    """The guest printed or returned more bytes than allowed."""

    kind = "output"


class HostCallLimitExceeded(LimitExceeded):
    """The guest made more host calls than allowed."""

    kind = "host_calls"


class CodeTooLarge(LimitExceeded):
    """The submitted code is larger than allowed."""

    kind = "code_size"


class ScratchLimitExceeded(LimitExceeded):
    """The run's scratch ``/tmp`` held more bytes or entries than allowed."""

    kind = "scratch"


class GuestTrap(SandboxError):
    """The guest trapped (a WebAssembly trap other than a limit)."""

    kind = "trap"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        """The trap's name (``stack_overflow``, ``unreachable``...; see ``sandbox.traps``),
        or None for a wasmtime error that is not a trap."""

    def to_trap(self) -> dict[str, str]:
        trap = super().to_trap()
        if self.code is not None:
            trap["code"] = self.code
        return trap


class GuestProtocolError(SandboxError):
    """What the guest sent the host (its response, a host call) is malformed, too large or
    too deeply nested: the guest broke the protocol, so the run ends as an error."""

    kind = "protocol"


class WorkerCrashed(SandboxError):
    """The worker process running the isolate died; it has been replaced."""

    kind = "crash"


class GuestBuildError(SandboxError):
    """The guest component could not be built or compiled."""

    kind = "build"


class RunAborted(SandboxError):
    """A host-call handler stopped the run with ``HostAbort``; ``kind`` is the handler's own
    (``paused``, ``rejected``, ``divergence``...), so the caller can tell a park from a failure."""

    def __init__(self, trap: dict[str, str]) -> None:
        super().__init__(trap.get("message", ""))
        self.kind = trap.get("kind", "error")


TRAP_KINDS: dict[str, type[SandboxError]] = {
    cls.kind: cls
    for cls in (DeadlineExceeded, MemoryLimitExceeded, OutputLimitExceeded,
                HostCallLimitExceeded, CodeTooLarge, ScratchLimitExceeded, GuestTrap, GuestProtocolError, WorkerCrashed,
                GuestBuildError)
}
"""Error class by trap kind, to rebuild an exception from its value form."""


def from_trap(trap: dict[str, str]) -> SandboxError:
    """The exception of a value form (the inverse of ``to_trap``, ``code`` included)."""
    cls = TRAP_KINDS.get(trap.get("kind", ""), SandboxError)
    if cls is GuestTrap:
        return GuestTrap(trap.get("message", ""), code=trap.get("code"))
    return cls(trap.get("message", ""))
