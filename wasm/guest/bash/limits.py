"""The resource limits of one bash run (every limit is enforced and reported when hit)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BashLimits:
    """Limits for one ``run_script`` call; each one, when hit, prints ``bash: ...`` and fails."""

    timeout_ms: int = 30_000
    """Wall-clock budget; checked before every command, loop iteration and output chunk.
    A timed-out run exits 124 (the host kills the isolate as a backstop)."""
    max_output_bytes: int = 64_000
    """Bytes kept of stdout and of stderr (each); the rest is replaced by a truncation note."""
    max_commands: int = 100_000
    """Simple commands (builtins, functions and commands alike) one script may run."""
    max_loop_iterations: int = 100_000
    """Iterations of any single for/while/until loop."""
    max_call_depth: int = 100
    """Nesting depth of shell function calls (plus source/eval)."""
    max_substitution_depth: int = 50
    """Nesting depth of command substitutions and subshells."""
    max_string_bytes: int = 64 * 1024 * 1024
    """Longest string a variable may hold."""
    max_array_elements: int = 1_000_000
    """Most elements an array may hold."""
    max_brace_expansion: int = 100_000
    """Most words a single brace expansion may produce."""
    max_glob_operations: int = 100_000
    """Directory entries one glob expansion may examine."""
    max_heredoc_bytes: int = 64 * 1024 * 1024
    """Largest here-document or here-string body."""
    max_background_jobs: int = 256
    """Background jobs running at once (``cmd &``); one more is refused, which stops a fork
    bomb as bash's "fork: Resource temporarily unavailable" would."""
