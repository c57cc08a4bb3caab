"""Commands that create and remove: mkdir, rmdir, touch, rm.

Messages follow coreutils 9 in the C locale. Interactive answers (``rm -i``) are read a
line at a time from standard input, as GNU reads them from the terminal.
"""

from __future__ import annotations

import errno
import os
import stat as st
import time
from typing import Callable, Generator

from ...flagspec import FlagSpec, UsageError, parse_flags, usage_error
from .common import (
    UMASK,
    Asker,
    argmatch,
    forget_mode,
    host,
    kind_name,
    lstat_or_none,
    missing_operand,
    quote_always,
    quote_locale,
    set_mode,
    slash_through_link,
    stat_or_none,
    strerror,
)
from .chmod import parse_mode
from .dates import DateError, parse_date, parse_touch_stamp
from ..base import CommandContext, CommandResult
from ... import fs
from ...tz import zone_of

q = quote_always


# --- mkdir -------------------------------------------------------------------------------


def mkdir(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = FlagSpec("pvm:", {"parents": "p", "verbose": "v", "mode": "m="})
    try:
        opts, names = parse_flags(spec, argv[1:])
    except UsageError as err:
        usage_error(ctx, "mkdir", err)
        return 1
    parents = verbose = False
    mode: int | None = None
    for key, value in opts:
        if key == "p":
            parents = True
        elif key == "v":
            verbose = True
        elif key == "m":
            parsed = parse_mode(value or "", 0o777 & ~UMASK, is_dir=True, masked=False)
            if parsed is None:
                ctx.error(f"mkdir: invalid mode {quote_locale(ctx, value or '')}")
                return 1
            mode = parsed
    if not names:
        return missing_operand(ctx, "mkdir")
    status = 0
    for name in names:
        if parents:
            parts = [p for p in name.split("/") if p]
            prefix = "/" if name.startswith("/") else ""
            for i in range(len(parts)):
                sub = prefix + "/".join(parts[: i + 1])
                real = host(ctx, sub)
                info = stat_or_none(real)
                if info is not None:
                    if not st.S_ISDIR(info.st_mode):
                        if i == len(parts) - 1:
                            ctx.error(f"mkdir: cannot create directory {quote_locale(ctx, name)}: File exists")
                        else:
                            ctx.error(f"mkdir: cannot create directory {quote_locale(ctx, sub)}: Not a directory")
                        status = 1
                        break
                    continue
                try:
                    fs.mkdir(real)
                except OSError as exc:
                    ctx.error(f"mkdir: cannot create directory {quote_locale(ctx, sub)}: {strerror(exc)}")
                    status = 1
                    break
                if mode is not None and i == len(parts) - 1:
                    set_mode(ctx, real, mode)
                if verbose:
                    yield f"mkdir: created directory {q(sub)}\n".encode("utf-8", "surrogateescape")
            continue
        real = host(ctx, name)
        try:
            fs.mkdir(real.rstrip("/") or "/")
        except OSError as exc:
            ctx.error(f"mkdir: cannot create directory {quote_locale(ctx, name)}: {strerror(exc)}")
            status = 1
            continue
        if mode is not None:
            set_mode(ctx, real.rstrip("/"), mode)
        if verbose:
            yield f"mkdir: created directory {q(name)}\n".encode("utf-8", "surrogateescape")
    return status


# --- rmdir -------------------------------------------------------------------------------


def rmdir(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = FlagSpec("pv", {"parents": "p", "verbose": "v", "ignore-fail-on-non-empty": "i"})
    try:
        opts, names = parse_flags(spec, argv[1:])
    except UsageError as err:
        usage_error(ctx, "rmdir", err)
        return 1
    flags = {k for k, _ in opts}
    if not names:
        return missing_operand(ctx, "rmdir")
    status = 0
    for name in names:
        targets = [name]
        if "p" in flags:
            stripped = name.rstrip("/")
            while "/" in stripped.strip("/"):
                stripped = stripped.rsplit("/", 1)[0].rstrip("/")
                if stripped:
                    targets.append(stripped)
        for index, target in enumerate(targets):
            if "v" in flags:
                yield f"rmdir: removing directory, {q(target)}\n".encode("utf-8", "surrogateescape")
            real = host(ctx, target, follow=False)
            try:
                fs.lstat(real.rstrip("/") or "/")
                if slash_through_link(ctx, target):
                    if fs.isdir(real):
                        raise OSError(errno.ELOOP, "Symbolic link not followed")
                    raise NotADirectoryError(20, "Not a directory")
                fs.rmdir(real.rstrip("/") or "/")
                forget_mode(ctx, real.rstrip("/"))
            except OSError as exc:
                if "i" in flags and exc.errno in (39, 66):
                    break
                what = "directory " if index else ""
                ctx.error(f"rmdir: failed to remove {what}{q(target)}: {strerror(exc)}")
                status = 1
                break
    return status


# --- touch -------------------------------------------------------------------------------


def touch(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = FlagSpec(
        "acmd:t:r:h",
        {"no-create": "c", "date": "d=", "reference": "r=", "no-dereference": "h", "time": "T="},
    )
    try:
        opts, names = parse_flags(spec, argv[1:])
    except UsageError as err:
        usage_error(ctx, "touch", err)
        return 1
    create = True
    no_deref = False
    stamp: tuple[int, int] | None = None  # (atime, mtime) in nanoseconds
    which = {"a", "m"}
    picked: set[str] = set()
    for key, value in opts:
        try:
            if key == "c":
                create = False
            elif key == "h":
                no_deref = True
            elif key == "d":
                when = int(parse_date(value or "", where=zone_of(ctx.env)) * 1_000_000_000)
                stamp = (when, when)
            elif key == "t":
                when = int(parse_touch_stamp(value or "", where=zone_of(ctx.env)) * 1_000_000_000)
                stamp = (when, when)
            elif key == "r":
                ref = stat_or_none(host(ctx, value or ""))
                if ref is None:
                    ctx.error(f"touch: failed to get attributes of {q(value or '')}: "
                              "No such file or directory")
                    return 1
                stamp = (ref.st_atime_ns, ref.st_mtime_ns)
            elif key in ("a", "m"):
                picked.add(key)
            elif key == "T":
                picked.add("am"[argmatch(ctx, value or "", "--time",
                                         [("atime", "access", "use"), ("mtime", "modify")])])
        except UsageError as err:
            usage_error(ctx, "touch", err)
            return 1
        except DateError as err:
            if key == "t":
                ctx.error(f"touch: invalid date format {quote_locale(ctx, value or '')}")
            else:
                ctx.error(f"touch: invalid date format {quote_locale(ctx, str(err))}")
            return 1
    if picked:
        which = picked
    if not names:
        return missing_operand(ctx, "touch", what="file operand")
    status = 0
    for name in names:
        real = host(ctx, name, follow=not no_deref)
        try:
            # A dangling symlink is followed and its target created, as GNU does (not -h).
            present = fs.lexists(real) if no_deref else fs.exists(real)
            if not present:
                if not create:
                    continue
                if no_deref:
                    ctx.error(f"touch: setting times of {q(name)}: No such file or directory")
                    status = 1
                    continue
                if real.endswith("/"):
                    raise IsADirectoryError(21, "Is a directory")
                with fs.open(real, "ab"):
                    pass
            info = fs.lstat(real) if no_deref else fs.stat(real)
            now = time.time_ns()
            new_a, new_m = stamp if stamp is not None else (now, now)
            atime = new_a if "a" in which else info.st_atime_ns
            mtime = new_m if "m" in which else info.st_mtime_ns
            if no_deref:
                try:
                    fs.utime(real, ns=(atime, mtime), follow_symlinks=False)
                except NotImplementedError:
                    raise OSError(errno.ENOTSUP, "Operation not supported") from None
            else:
                fs.utime(real, ns=(atime, mtime))
        except OSError as exc:
            ctx.error(f"touch: cannot touch {q(name)}: {strerror(exc)}")
            status = 1
    return status
    yield b""


# --- rm ----------------------------------------------------------------------------------


def rm(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = FlagSpec(
        "fRrdviI",
        {"force": "f", "recursive": "r", "dir": "d", "verbose": "v", "interactive": "i?",
         "no-preserve-root": "npr", "preserve-root": "pr"},
    )
    try:
        opts, names = parse_flags(spec, argv[1:])
    except UsageError as err:
        usage_error(ctx, "rm", err)
        return 1
    flags = {"r" if k == "R" else k for k, _ in opts}
    prompt = ""
    for key, value in opts:
        # -f, -i and -I override one another; the last one given wins.
        if key in ("f", "i", "I"):
            prompt = "" if key == "f" else key
            if key == "i" and value is not None:
                prompt = {"never": "", "no": "", "none": "", "once": "I"}.get(value, "i")
    force = "f" in flags
    if not names:
        if force:
            return 0
        return missing_operand(ctx, "rm")
    ask = Asker(ctx, "rm")
    if prompt == "I" and (len(names) > 3 or "r" in flags):
        count = len(names)
        what = f"{count} argument{'s' if count != 1 else ''}"
        if not ask(f"remove {what}{' recursively' if 'r' in flags else ''}"):
            return 0
    interactive = ask if prompt == "i" else None
    status = 0
    for name in names:
        base = name.rstrip("/").rsplit("/", 1)[-1]
        if base in (".", ".."):
            ctx.error(f"rm: refusing to remove '.' or '..' directory: skipping {q(name)}")
            status = 1
            continue
        if ctx.resolve(name) == "/" and "r" in flags and "npr" not in flags:
            ctx.error(f"rm: it is dangerous to operate recursively on {q(name)}")
            ctx.error("rm: use --no-preserve-root to override this failsafe")
            status = 1
            continue
        real = host(ctx, name, follow=False)
        info = lstat_or_none(real.rstrip("/") if not real.endswith("/") else real)
        if info is None:
            if not force:
                bare = lstat_or_none(real.rstrip("/"))
                reason = "Not a directory" if bare is not None else "No such file or directory"
                ctx.error(f"rm: cannot remove {q(name)}: {reason}")
                status = 1
            continue
        via_link = slash_through_link(ctx, name)
        if st.S_ISDIR(info.st_mode):
            if "r" in flags:
                # "link/" names the directory behind a symlink: GNU empties it, then fails
                # to remove the link itself as a directory.
                ok = yield from _rm_tree(ctx, name, real.rstrip("/"), "v" in flags, interactive,
                                         keep_top=via_link)
                if via_link and not force:
                    ctx.error(f"rm: cannot remove {q(name)}: Not a directory")
                    ok = False
                if not ok:
                    status = 1
                continue
            if "d" not in flags:
                ctx.error(f"rm: cannot remove {q(name)}: Is a directory")
                status = 1
                continue
            if interactive is not None and not interactive(f"remove directory {q(name)}"):
                continue
            try:
                fs.rmdir(real.rstrip("/"))
            except OSError as exc:
                ctx.error(f"rm: cannot remove {q(name)}: {strerror(exc)}")
                status = 1
                continue
            forget_mode(ctx, real.rstrip("/"))
            if "v" in flags:
                yield f"removed directory {q(name)}\n".encode("utf-8", "surrogateescape")
            continue
        if interactive is not None and not interactive(f"remove {kind_name(info)} {q(name)}"):
            continue
        try:
            fs.unlink(real.rstrip("/") if st.S_ISLNK(info.st_mode) else real)
        except OSError as exc:
            ctx.error(f"rm: cannot remove {q(name)}: {strerror(exc)}")
            status = 1
            continue
        forget_mode(ctx, real)
        if "v" in flags:
            yield f"removed {q(name)}\n".encode("utf-8", "surrogateescape")
    return status


def _rm_tree(
    ctx: CommandContext, name: str, real: str, verbose: bool,
    ask: Callable[[str], bool] | None = None, keep_top: bool = False,
) -> Generator[bytes, None, bool]:
    ok = True
    try:
        children = sorted(fs.listdir(real))
    except OSError as exc:
        ctx.error(f"rm: cannot remove {q(name)}: {strerror(exc)}")
        return False
    if ask is not None and children and not ask(f"descend into directory {q(name)}"):
        return True
    for child in children:
        child_name = name.rstrip("/") + "/" + child
        child_real = os.path.join(real, child)
        info = lstat_or_none(child_real)
        if info is None:
            continue
        if st.S_ISDIR(info.st_mode):
            ok = (yield from _rm_tree(ctx, child_name, child_real, verbose, ask)) and ok
            continue
        if ask is not None and not ask(f"remove {kind_name(info)} {q(child_name)}"):
            continue
        try:
            fs.unlink(child_real)
        except OSError as exc:
            ctx.error(f"rm: cannot remove {q(child_name)}: {strerror(exc)}")
            ok = False
            continue
        if verbose:
            yield f"removed {q(child_name)}\n".encode("utf-8", "surrogateescape")
    if keep_top:
        return ok
    if ask is not None and not ask(f"remove directory {q(name)}"):
        return ok
    try:
        fs.rmdir(real)
    except OSError as exc:
        ctx.error(f"rm: cannot remove {q(name)}: {strerror(exc)}")
        return False
    forget_mode(ctx, real)
    if verbose:
        yield f"removed directory {q(name)}\n".encode("utf-8", "surrogateescape")
    return ok


COMMANDS: dict[str, Callable[[CommandContext, list[str]], CommandResult]] = {
    "mkdir": mkdir, "rmdir": rmdir, "touch": touch, "rm": rm,
}
