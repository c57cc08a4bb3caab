"""The one parser of GNU-style command lines: every command's flags declared as a ``FlagSpec``.

It follows glibc ``getopt_long`` closely because scripts (and the recorded GNU outputs the
tests compare against) rely on its details: clustered short options (``-nr``), attached or
separate arguments (``-n5``, ``-n 5``), long options with unambiguous prefixes and
``=value``, argument permutation (options may follow operands) and ``--`` ending option
processing. Error messages use glibc's wording; ``usage_error`` prints them as GNU tools do.

Known difference from glibc: an ambiguous long option with ``=value`` is quoted without the
value (``'--s'``, where glibc says ``'--s=x'``), and the possibilities listed are the
command's own long options (GNU's list also has ``--help`` and ``--version``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

__all__ = ["FlagSpec", "UsageError", "parse_flags", "usage_error"]

Parsed = tuple[list[tuple[str, str | None]], list[str]]
"""What ``parse_flags`` returns: the options in order as ``(key, value)``, and the operands."""


class UsageError(Exception):
    """A bad command line: printed as ``prog: message``, then (with ``hint``) the --help line."""

    def __init__(self, message: str, hint: bool = True, status: int | None = None,
                 missing: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.status = status
        """Exit status when the command's usual usage status does not apply."""
        self.missing = missing
        """The short option whose required argument is missing (tar words that one its own way)."""


class ErrorSink(Protocol):
    """Where ``usage_error`` writes (a command's context)."""

    def error(self, message: str) -> None: ...


def usage_error(out: ErrorSink, prog: str, err: UsageError) -> None:
    """Print ``err`` the way GNU tools do: ``prog: message``, then ``Try 'prog --help' ...``."""
    out.error(f"{prog}: {err.message}")
    if err.hint:
        out.error(f"Try '{prog} --help' for more information.")


@dataclass
class FlagSpec:
    """Which options a command accepts.

    ``short`` uses getopt syntax: ``"n:c:qv"``, a colon after a letter means it takes an
    argument, two colons an optional one (attached only, ``-n5``). ``long`` maps a long
    option's name to the key it is reported as (usually the equivalent short letter, or the
    long name itself); the key ends in ``=`` when the option requires an argument and in
    ``?`` when it takes an optional one (only as ``--name=value``). The suffix is not part
    of the reported key. Without ``permute`` the first operand ends option processing.
    """

    short: str = ""
    long: dict[str, str] = field(default_factory=dict)
    permute: bool = True

    def short_takes(self, letter: str) -> str | None:
        """``""`` (no argument), ``":"`` (required), ``"::"`` (optional); None: not an option."""
        at = self.short.find(letter)
        if at < 0 or letter == ":":
            return None
        if self.short[at + 1 : at + 3] == "::":
            return "::"
        return ":" if self.short[at + 1 : at + 2] == ":" else ""


def parse_flags(spec: FlagSpec, args: list[str], numeric_short: bool = False) -> Parsed:
    """Split ``args`` (the command's arguments, without its name) the way getopt_long does.

    Raises ``UsageError`` with glibc's message. With ``numeric_short`` a leading ``-123``
    style argument is reported as option ``"#"`` with value ``"123"`` (``head -5``,
    ``fold -20`` and friends).
    """
    opts: list[tuple[str, str | None]] = []
    operands: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            operands.extend(args[i:])
            break
        if arg.startswith("--"):
            i = _long_option(spec, arg, args, i, opts)
            continue
        if arg.startswith("-") and len(arg) > 1:
            i = _short_options(spec, arg, args, i, opts, numeric_short)
            continue
        operands.append(arg)
        if not spec.permute:
            operands.extend(args[i:])
            break
    return opts, operands


def _long_option(spec: FlagSpec, arg: str, args: list[str], i: int,
                 opts: list[tuple[str, str | None]]) -> int:
    """Parse the long option ``arg``; ``args[i]`` is the next argument. Returns the new ``i``."""
    name, eq, value = arg[2:].partition("=")
    matches = [name] if name in spec.long else [n for n in spec.long if n.startswith(name)]
    if not matches:
        raise UsageError(f"unrecognized option '{arg}'")
    if len({spec.long[m] for m in matches}) > 1:
        listing = " ".join(f"'--{m}'" for m in matches)
        raise UsageError(f"option '--{name}' is ambiguous; possibilities: {listing}")
    full = matches[0]
    key = spec.long[full]
    if key.endswith("="):
        if not eq:
            if i >= len(args):
                raise UsageError(f"option '--{full}' requires an argument")
            value = args[i]
            i += 1
        opts.append((key[:-1], value))
    elif key.endswith("?"):
        opts.append((key[:-1], value if eq else None))
    else:
        if eq:
            raise UsageError(f"option '--{full}' doesn't allow an argument")
        opts.append((key, None))
    return i


def _short_options(spec: FlagSpec, arg: str, args: list[str], i: int,
                   opts: list[tuple[str, str | None]], numeric_short: bool) -> int:
    """Parse the cluster of short options ``arg``; returns the index of the next argument."""
    if numeric_short and (arg[1].isascii() and arg[1].isdigit()):
        j = 1
        while j < len(arg) and (arg[j].isascii() and arg[j].isdigit()):
            j += 1
        opts.append(("#", arg[1:j]))
        if j == len(arg):
            return i
        arg = "-" + arg[j:]
    j = 1
    while j < len(arg):
        letter = arg[j]
        j += 1
        takes = spec.short_takes(letter)
        if takes is None:
            raise UsageError(f"invalid option -- '{letter}'")
        if takes == "":
            opts.append((letter, None))
            continue
        if j < len(arg):
            opts.append((letter, arg[j:]))
        elif takes == ":":
            if i >= len(args):
                raise UsageError(f"option requires an argument -- '{letter}'", missing=letter)
            opts.append((letter, args[i]))
            i += 1
        else:
            opts.append((letter, None))
        break
    return i
