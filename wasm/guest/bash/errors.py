"""Every exception the interpreter raises, and the control-flow signals it uses.

    BashError                      anything that aborts a command with a message
    ├── ShellSyntaxError(line)     the script does not parse; carries the line number
    ├── ExpansionError             bad substitution, unbound variable, ${x:?}, bad arithmetic
    │   └── FatalExpansionError    an expansion error that ends a non-interactive shell
    └── LimitExceeded              a BashLimits limit was hit (always ends the script)
        └── TimeoutExpired         the wall-clock deadline passed (exit status 124)

    ControlFlow (BaseException)    not errors: how break/continue/return/exit unwind, so an
                                   ``except Exception`` (a command's or a builtin's safety
                                   net) cannot swallow them
    ├── BreakLoop(levels)
    ├── ContinueLoop(levels)
    ├── ReturnFromFunction(status)
    └── ExitShell(status)
"""

from __future__ import annotations


class BashError(Exception):
    """A failure reported as ``bash: <message>`` on standard error."""

    status: int = 1

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status


class ShellSyntaxError(BashError):
    """The script (or an eval'd string) does not parse."""

    status = 2

    def __init__(self, message: str, line: int = 0, *, conditional: bool = False) -> None:
        super().__init__(message)
        self.line = line
        self.conditional = conditional
        """A malformed ``[[ ]]``: bash 5.2 abandons the script but keeps ``$?`` (it never
        sets the syntax-error status) and says nothing when the error is a bare ``]]``."""


class ExpansionError(BashError):
    """An expansion failed; the current command is abandoned with status 1."""


class FatalExpansionError(ExpansionError):
    """An expansion error that makes a non-interactive shell exit 127 (``set -u``, ``${x:?}``)."""

    status = 127


class LimitExceeded(BashError):
    """A resource limit was hit; the whole script stops."""

    status = 1


class TimeoutExpired(LimitExceeded):
    """The wall-clock deadline passed."""

    status = 124


class ControlFlow(BaseException):
    """Base of the non-error unwinding signals (a ``BaseException``, like ``GeneratorExit``)."""


class BreakLoop(ControlFlow):
    def __init__(self, levels: int = 1) -> None:
        super().__init__(levels)
        self.levels = levels


class ContinueLoop(ControlFlow):
    def __init__(self, levels: int = 1) -> None:
        super().__init__(levels)
        self.levels = levels


class ReturnFromFunction(ControlFlow):
    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class ExitShell(ControlFlow):
    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class AbortCommand(ControlFlow):
    """A non-fatal expansion error (``$((1/0))``, a bad substitution) in the top-level shell:
    bash discards the rest of the current top-level command and goes on with the next."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status
