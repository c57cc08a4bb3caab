"""``chmod`` and the mode language it shares with ``mkdir -m`` and ``find -perm``."""

from __future__ import annotations

import os
import stat as st
from typing import Callable, Iterator

from ...flagspec import FlagSpec, UsageError, parse_flags, usage_error
from .common import (
    UMASK,
    effective_mode,
    host,
    missing_operand,
    quote_always,
    quote_locale,
    set_mode,
    stat_or_none,
    strerror,
)
from ..base import CommandContext, CommandResult
from ... import fs

q = quote_always


# --- chmod -------------------------------------------------------------------------------


def parse_mode(text: str, current: int, is_dir: bool, masked: bool = True) -> int | None:
    """Apply a chmod mode (octal or symbolic) to ``current``; None if ``text`` is invalid."""
    if text and all(c in "01234567" for c in text):
        value = int(text, 8)
        if value > 0o7777:
            return None
        if len(text) <= 4 and is_dir:
            # GNU keeps a directory's set-user/group-ID bits unless the mode names them
            # (4 digits) or has five or more digits ("00755" clears them).
            value |= current & 0o6000 if len(text) <= 3 or text[0] == "0" else 0
        return value
    mode = current
    for clause in text.split(","):
        i = 0
        who = 0
        while i < len(clause) and clause[i] in "ugoa":
            who |= {"u": 0o4700, "g": 0o2070, "o": 0o1007, "a": 0o7777}[clause[i]]
            i += 1
        if i == len(clause):
            return None
        while i < len(clause):
            op = clause[i]
            if op not in "+-=":
                return None
            i += 1
            bits = 0
            copy_from: int | None = None
            if i < len(clause) and clause[i] in "ugo":
                shift = {"u": 6, "g": 3, "o": 0}[clause[i]]
                src = (mode >> shift) & 7
                copy_from = src << 6 | src << 3 | src
                i += 1
            else:
                while i < len(clause) and clause[i] in "rwxXst":
                    c = clause[i]
                    if c == "r":
                        bits |= 0o444
                    elif c == "w":
                        bits |= 0o222
                    elif c == "x":
                        bits |= 0o111
                    elif c == "X":
                        if is_dir or mode & 0o111:
                            bits |= 0o111
                    elif c == "s":
                        bits |= 0o6000
                    elif c == "t":
                        bits |= 0o1000
                    i += 1
            if copy_from is not None:
                bits = copy_from
            affected = who if who else 0o7777
            change = bits & affected
            if not who and masked:
                change &= ~UMASK
            if op == "+":
                mode |= change
            elif op == "-":
                mode &= ~change
            else:
                keep = ~affected if who else 0
                mode = (mode & keep & 0o7777) | change
    return mode & 0o7777


_SPEC = FlagSpec("Rvcf", {
    "recursive": "R", "verbose": "v", "changes": "c", "silent": "f", "quiet": "f",
    "reference": "reference=",
})


def chmod(ctx: CommandContext, argv: list[str]) -> CommandResult:
    # Modes like -w and -x look like options; GNU accepts them as the mode operand.
    args = argv[1:]
    mode_text: str | None = None
    for index, a in enumerate(args):
        if a == "--":
            break
        if a.startswith("-") and len(a) > 1 and not all(c in "Rvcf" for c in a[1:]) \
                and all(c in "rwxXstugoa+-=,0123456789" for c in a[1:]):
            mode_text = a
            del args[index]
            break
    try:
        opts, rest = parse_flags(_SPEC, args)
    except UsageError as err:
        usage_error(ctx, "chmod", err)
        return 1
    flags = {key for key, _ in opts if key != "reference"}
    reference = next((value for key, value in reversed(opts) if key == "reference"), None)
    if reference is None and mode_text is None:
        if not rest:
            return missing_operand(ctx, "chmod")
        mode_text = rest.pop(0)
    if not rest:
        return missing_operand(ctx, "chmod", after=mode_text if mode_text is not None else reference)
    ref_mode: int | None = None
    if reference is not None:
        ref_info = stat_or_none(host(ctx, reference))
        if ref_info is None:
            ctx.error(f"chmod: failed to get attributes of {q(reference)}: No such file or directory")
            return 1
        ref_mode = st.S_IMODE(effective_mode(ctx, host(ctx, reference), ref_info))
    if mode_text is not None and parse_mode(mode_text, 0o644, False) is None:
        ctx.error(f"chmod: invalid mode: {quote_locale(ctx, mode_text)}")
        ctx.error("Try 'chmod --help' for more information.")
        return 1
    status = 0
    for name in rest:
        real = host(ctx, name)
        if stat_or_none(real) is None:
            if "f" not in flags:
                ctx.error(f"chmod: cannot access {q(name)}: No such file or directory")
            status = 1
            continue
        for path_name, path_real in _chmod_targets(name, real, "R" in flags):
            info = stat_or_none(path_real)
            if info is None:
                continue
            old = st.S_IMODE(effective_mode(ctx, fs.realpath(path_real), info))
            new = ref_mode if ref_mode is not None else parse_mode(
                mode_text or "", old, st.S_ISDIR(info.st_mode))
            assert new is not None
            try:
                set_mode(ctx, fs.realpath(path_real), new)
            except OSError as exc:
                ctx.error(f"chmod: changing permissions of {q(path_name)}: {strerror(exc)}")
                status = 1
                continue
            changed = old != new
            if "v" in flags or ("c" in flags and changed):
                yield _chmod_report(path_name, old, new, changed).encode("utf-8", "surrogateescape")
    return status


def _chmod_targets(name: str, real: str, recursive: bool) -> Iterator[tuple[str, str]]:
    yield name, real
    if not recursive or not fs.isdir(real):
        return
    if fs.islink(real.rstrip("/")) and name != real:
        return
    for child in sorted(fs.listdir(real)):
        c_real = os.path.join(real, child)
        c_name = _join(name, child)
        if fs.islink(c_real):
            continue
        yield from _chmod_targets(c_name, c_real, True)


def _join(parent: str, child: str) -> str:
    return parent + child if parent.endswith("/") else parent + "/" + child


def _chmod_report(name: str, old: int, new: int, changed: bool) -> str:
    from .common import mode_string

    o = mode_string(old)[1:]
    n = mode_string(new)[1:]
    if changed:
        return f"mode of {q(name)} changed from {old:04o} ({o}) to {new:04o} ({n})\n"
    return f"mode of {q(name)} retained as {new:04o} ({n})\n"


COMMANDS: dict[str, Callable[[CommandContext, list[str]], CommandResult]] = {"chmod": chmod}
