"""Commands that change the tree: mkdir, rmdir, touch, rm, cp, mv, ln, chmod.

Messages follow coreutils 9 in the C locale. Hard links are made with ``os.link`` where
the platform allows and emulated by copying otherwise (a later write to one name is then
not seen through the other; the workspace snapshot does not keep hard links anyway).
"""

from __future__ import annotations

import os
import stat as st
from typing import IO, Callable, Generator, Iterator

from ._files_common import (
    UMASK,
    OptSpec,
    UsageError,
    effective_mode,
    forget_mode,
    host,
    move_modes,
    parse,
    quote_always,
    set_mode,
    strerror,
    usage_fail,
)
from ._files_dates import DateError, parse_date, parse_touch_stamp
from .base import CommandContext, CommandResult

q = quote_always


def _missing(ctx: CommandContext, name: str, after: str | None = None, what: str = "operand") -> int:
    if after is None:
        ctx.error(f"{name}: missing {what}")
    else:
        ctx.error(f"{name}: missing {what} after {q(after)}")
    ctx.error(f"Try '{name} --help' for more information.")
    return 1


class _Asker:
    """Interactive prompts (-i): the question goes to stderr, the answer is a stdin line."""

    def __init__(self, ctx: CommandContext, name: str) -> None:
        self.ctx = ctx
        self.name = name
        self.pending = b""
        self.done = False

    def __call__(self, question: str) -> bool:
        self.ctx.stderr.write(f"{self.name}: {question}? ".encode("utf-8", "surrogateescape"))
        return self._line().lstrip()[:1] in (b"y", b"Y")

    def _line(self) -> bytes:
        while b"\n" not in self.pending and not self.done:
            chunk = next(self.ctx.stdin, None)
            if chunk is None:
                self.done = True
            else:
                self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        return line


def _kind(info: os.stat_result) -> str:
    if st.S_ISLNK(info.st_mode):
        return "symbolic link"
    if st.S_ISDIR(info.st_mode):
        return "directory"
    return "regular empty file" if info.st_size == 0 else "regular file"


def _lstat(path: str) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except OSError:
        return None


def _stat(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except OSError:
        return None


# --- mkdir -------------------------------------------------------------------------------


def mkdir(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = OptSpec("pvm:", {"parents": "p", "verbose": "v", "mode": "m="})
    try:
        opts, names = parse(spec, argv[1:])
    except UsageError as err:
        usage_fail(ctx, "mkdir", err)
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
                ctx.error(f"mkdir: invalid mode {q(value or '')}")
                return 1
            mode = parsed
    if not names:
        return _missing(ctx, "mkdir")
    status = 0
    for name in names:
        if parents:
            parts = [p for p in name.split("/") if p]
            prefix = "/" if name.startswith("/") else ""
            for i in range(len(parts)):
                sub = prefix + "/".join(parts[: i + 1])
                real = host(ctx, sub)
                info = _stat(real)
                if info is not None:
                    if not st.S_ISDIR(info.st_mode):
                        if i == len(parts) - 1:
                            ctx.error(f"mkdir: cannot create directory {q(name)}: File exists")
                        else:
                            ctx.error(f"mkdir: cannot create directory {q(sub)}: Not a directory")
                        status = 1
                        break
                    continue
                try:
                    os.mkdir(real)
                except OSError as exc:
                    ctx.error(f"mkdir: cannot create directory {q(sub)}: {strerror(exc)}")
                    status = 1
                    break
                if mode is not None and i == len(parts) - 1:
                    set_mode(ctx, real, mode)
                if verbose:
                    yield f"mkdir: created directory {q(sub)}\n".encode()
            continue
        real = host(ctx, name)
        try:
            os.mkdir(real.rstrip("/") or "/")
        except OSError as exc:
            ctx.error(f"mkdir: cannot create directory {q(name)}: {strerror(exc)}")
            status = 1
            continue
        if mode is not None:
            set_mode(ctx, real.rstrip("/"), mode)
        if verbose:
            yield f"mkdir: created directory {q(name)}\n".encode()
    return status


# --- rmdir -------------------------------------------------------------------------------


def rmdir(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = OptSpec("pv", {"parents": "p", "verbose": "v", "ignore-fail-on-non-empty": "i"})
    try:
        opts, names = parse(spec, argv[1:])
    except UsageError as err:
        usage_fail(ctx, "rmdir", err)
        return 1
    flags = {k for k, _ in opts}
    if not names:
        return _missing(ctx, "rmdir")
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
                yield f"rmdir: removing directory, {q(target)}\n".encode()
            real = host(ctx, target, follow=False)
            try:
                info = os.lstat(real.rstrip("/") or "/")
                if st.S_ISLNK(info.st_mode) and real.endswith("/"):
                    raise NotADirectoryError(20, "Not a directory")
                os.rmdir(real.rstrip("/") or "/")
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
    spec = OptSpec(
        "acmd:t:r:h",
        {"no-create": "c", "date": "d=", "reference": "r=", "no-dereference": "h", "time": "T="},
    )
    try:
        opts, names = parse(spec, argv[1:])
    except UsageError as err:
        usage_fail(ctx, "touch", err)
        return 1
    create = True
    stamp: float | None = None
    which = {"a", "m"}
    picked: set[str] = set()
    for key, value in opts:
        try:
            if key == "c":
                create = False
            elif key == "d":
                stamp = parse_date(value or "")
            elif key == "t":
                stamp = parse_touch_stamp(value or "")
            elif key == "r":
                ref = _stat(host(ctx, value or ""))
                if ref is None:
                    ctx.error(f"touch: failed to get attributes of {q(value or '')}: "
                              "No such file or directory")
                    return 1
                stamp = ref.st_mtime
            elif key in ("a", "m"):
                picked.add(key)
        except DateError as err:
            if key == "t":
                ctx.error(f"touch: invalid date format {q(value or '')}")
            else:
                ctx.error(f"touch: invalid date format {q(str(err))}")
            return 1
    if picked:
        which = picked
    if not names:
        return _missing(ctx, "touch", what="file operand")
    status = 0
    for name in names:
        real = host(ctx, name)
        try:
            if not os.path.lexists(real.rstrip("/")):
                if not create:
                    continue
                if real.endswith("/"):
                    raise IsADirectoryError(21, "Is a directory")
                with open(real, "ab"):
                    pass
            info = os.stat(real)
            when = stamp
            atime = info.st_atime if "a" not in which else (when if when is not None else None)
            mtime = info.st_mtime if "m" not in which else (when if when is not None else None)
            if atime is None or mtime is None:
                import time as _time

                now = _time.time()
                atime = now if atime is None else atime
                mtime = now if mtime is None else mtime
            os.utime(real, (atime, mtime))
        except OSError as exc:
            ctx.error(f"touch: cannot touch {q(name)}: {strerror(exc)}")
            status = 1
    return status
    yield b""


# --- rm ----------------------------------------------------------------------------------


def rm(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = OptSpec(
        "fRrdviI",
        {"force": "f", "recursive": "r", "dir": "d", "verbose": "v", "interactive": "i?",
         "no-preserve-root": "npr", "preserve-root": "pr"},
    )
    try:
        opts, names = parse(spec, argv[1:])
    except UsageError as err:
        usage_fail(ctx, "rm", err)
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
        return _missing(ctx, "rm")
    ask = _Asker(ctx, "rm")
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
        info = _lstat(real.rstrip("/") if not real.endswith("/") else real)
        if info is None:
            if not force:
                ctx.error(f"rm: cannot remove {q(name)}: No such file or directory")
                status = 1
            continue
        if st.S_ISDIR(info.st_mode):
            if "r" in flags:
                ok = yield from _rm_tree(ctx, name, real.rstrip("/"), "v" in flags, interactive)
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
                os.rmdir(real.rstrip("/"))
            except OSError as exc:
                ctx.error(f"rm: cannot remove {q(name)}: {strerror(exc)}")
                status = 1
                continue
            forget_mode(ctx, real.rstrip("/"))
            if "v" in flags:
                yield f"removed directory {q(name)}\n".encode()
            continue
        if interactive is not None and not interactive(f"remove {_kind(info)} {q(name)}"):
            continue
        try:
            os.unlink(real.rstrip("/") if st.S_ISLNK(info.st_mode) else real)
        except OSError as exc:
            ctx.error(f"rm: cannot remove {q(name)}: {strerror(exc)}")
            status = 1
            continue
        forget_mode(ctx, real)
        if "v" in flags:
            yield f"removed {q(name)}\n".encode()
    return status


def _rm_tree(
    ctx: CommandContext, name: str, real: str, verbose: bool,
    ask: Callable[[str], bool] | None = None,
) -> Generator[bytes, None, bool]:
    ok = True
    try:
        children = sorted(os.listdir(real))
    except OSError as exc:
        ctx.error(f"rm: cannot remove {q(name)}: {strerror(exc)}")
        return False
    if ask is not None and children and not ask(f"descend into directory {q(name)}"):
        return True
    for child in children:
        child_name = name.rstrip("/") + "/" + child
        child_real = os.path.join(real, child)
        info = _lstat(child_real)
        if info is None:
            continue
        if st.S_ISDIR(info.st_mode):
            ok = (yield from _rm_tree(ctx, child_name, child_real, verbose, ask)) and ok
            continue
        if ask is not None and not ask(f"remove {_kind(info)} {q(child_name)}"):
            continue
        try:
            os.unlink(child_real)
        except OSError as exc:
            ctx.error(f"rm: cannot remove {q(child_name)}: {strerror(exc)}")
            ok = False
            continue
        if verbose:
            yield f"removed {q(child_name)}\n".encode()
    if ask is not None and not ask(f"remove directory {q(name)}"):
        return ok
    try:
        os.rmdir(real)
    except OSError as exc:
        ctx.error(f"rm: cannot remove {q(name)}: {strerror(exc)}")
        return False
    forget_mode(ctx, real)
    if verbose:
        yield f"removed directory {q(name)}\n".encode()
    return ok


# --- cp / mv shared ----------------------------------------------------------------------


def _split_target(
    ctx: CommandContext, cmd: str, names: list[str], target_dir: str | None, no_target: bool
) -> tuple[list[tuple[str, str]], int] | None:
    """Pair each source with its destination name, GNU style; None after an error."""
    if target_dir is not None:
        if not names:
            _missing(ctx, cmd, what="file operand")
            return None
        info = _stat(host(ctx, target_dir))
        if info is None or not st.S_ISDIR(info.st_mode):
            reason = "No such file or directory" if info is None else "Not a directory"
            ctx.error(f"{cmd}: target directory {q(target_dir)}: {reason}")
            return None
        return [(s, _into(target_dir, s)) for s in names], 0
    if not names:
        _missing(ctx, cmd, what="file operand")
        return None
    if len(names) == 1:
        ctx.error(f"{cmd}: missing destination file operand after {q(names[0])}")
        ctx.error(f"Try '{cmd} --help' for more information.")
        return None
    *sources, dest = names
    dest_info = _stat(host(ctx, dest))
    if no_target:
        if len(sources) > 1:
            ctx.error(f"{cmd}: extra operand {q(names[2])}")
            ctx.error(f"Try '{cmd} --help' for more information.")
            return None
        return [(sources[0], dest)], 0
    if dest_info is not None and st.S_ISDIR(dest_info.st_mode):
        return [(s, _into(dest, s)) for s in sources], 0
    if len(sources) > 1:
        if dest_info is None:
            ctx.error(f"{cmd}: target {q(dest)}: No such file or directory")
        else:
            ctx.error(f"{cmd}: target {q(dest)}: Not a directory")
        return None
    return [(sources[0], dest)], 0


def _into(directory: str, source: str) -> str:
    base = source.rstrip("/").rsplit("/", 1)[-1] or "/"
    return directory + base if directory.endswith("/") else directory + "/" + base


def _same(a: os.stat_result | None, b: os.stat_result | None) -> bool:
    # A platform without inode numbers reports 0 for every file; that proves nothing.
    return (a is not None and b is not None and a.st_ino != 0
            and (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino))


def _inside(ctx: CommandContext, parent: str, child: str) -> bool:
    p = os.path.realpath(host(ctx, parent))
    c = os.path.realpath(host(ctx, child))
    return c == p or c.startswith(p.rstrip("/") + "/")


# --- cp ----------------------------------------------------------------------------------


def cp(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = OptSpec(
        "rRapnfvt:TLPdiu",
        {"recursive": "r", "archive": "a", "no-clobber": "n", "force": "f", "verbose": "v",
         "target-directory": "t=", "no-target-directory": "T", "dereference": "L",
         "no-dereference": "P", "preserve?": "p", "update": "u", "interactive": "i"},
    )
    try:
        opts, names = parse(spec, argv[1:])
    except UsageError as err:
        usage_fail(ctx, "cp", err)
        return 1
    recursive = preserve = no_clobber = verbose = no_target = update = interactive = False
    deref: bool | None = None
    target_dir: str | None = None
    for key, value in opts:
        if key in ("r", "R"):
            recursive = True
        elif key == "a":
            recursive = preserve = True
            deref = False
        elif key == "p":
            preserve = True
        elif key == "n":
            no_clobber = True
        elif key == "v":
            verbose = True
        elif key == "t":
            target_dir = value
        elif key == "T":
            no_target = True
        elif key == "L":
            deref = True
        elif key in ("P", "d"):
            deref = False
        elif key == "u":
            update = True
        elif key == "f":
            no_clobber = False
        elif key == "i":
            interactive, no_clobber = True, False
    if deref is None:
        deref = not recursive
    pairs = _split_target(ctx, "cp", names, target_dir, no_target)
    if pairs is None:
        return 1
    status = 0
    for src, dst in pairs[0]:
        src_real = host(ctx, src, follow=deref)
        info = _lstat(src_real.rstrip("/") or "/") if not deref else _stat(src_real)
        if info is None:
            ctx.error(f"cp: cannot stat {q(src)}: {strerror(2)}")
            status = 1
            continue
        if st.S_ISDIR(info.st_mode) and not recursive:
            ctx.error(f"cp: -r not specified; omitting directory {q(src)}")
            status = 1
            continue
        dst_real = host(ctx, dst)
        dst_info = _stat(dst_real)
        if _same(_stat(src_real), dst_info) and not st.S_ISLNK(info.st_mode):
            ctx.error(f"cp: {q(src)} and {q(dst)} are the same file")
            status = 1
            continue
        skip: str | None = None
        if st.S_ISDIR(info.st_mode):
            if _inside(ctx, src, _parent(dst)):
                # GNU reports the loop but still copies everything except the new copy
                # itself; a destination that did not exist is left created and empty.
                ctx.error(f"cp: cannot copy a directory, {q(src)}, into itself, {q(dst)}")
                status = 1
                if dst_info is None:
                    try:
                        os.mkdir(dst_real)
                    except OSError:
                        pass
                    continue
                skip = os.path.realpath(dst_real)
            if dst_info is not None and not st.S_ISDIR(dst_info.st_mode):
                ctx.error(f"cp: cannot overwrite non-directory {q(dst)} with directory {q(src)}")
                status = 1
                continue
        ask = _Asker(ctx, "cp") if interactive else None
        ok = yield from _copy(ctx, src, src_real, dst, dst_real, info, preserve, no_clobber,
                              verbose, deref, update, skip, ask)
        if not ok:
            status = 1
    return status


def _parent(path: str) -> str:
    stripped = path.rstrip("/")
    if "/" not in stripped:
        return "."
    return stripped.rsplit("/", 1)[0] or "/"


def _copy(
    ctx: CommandContext, src: str, src_real: str, dst: str, dst_real: str,
    info: os.stat_result, preserve: bool, no_clobber: bool, verbose: bool, deref: bool,
    update: bool, skip: str | None = None, ask: Callable[[str], bool] | None = None,
) -> Generator[bytes, None, bool]:
    dst_l = _lstat(dst_real.rstrip("/"))
    if st.S_ISDIR(info.st_mode):
        created = False
        if dst_l is None:
            try:
                os.mkdir(dst_real)
            except OSError as exc:
                ctx.error(f"cp: cannot create directory {q(dst)}: {strerror(exc)}")
                return False
            created = True
        if verbose:
            yield f"{q(src)} -> {q(dst)}\n".encode()
        ok = True
        try:
            children = sorted(os.listdir(src_real))
        except OSError as exc:
            ctx.error(f"cp: cannot access {q(src)}: {strerror(exc)}")
            return False
        for child in children:
            c_src_real = os.path.join(src_real, child)
            if skip is not None and os.path.realpath(c_src_real) == skip:
                continue
            c_info = _lstat(c_src_real) if not deref else _stat(c_src_real)
            if c_info is None:
                continue
            ok = (yield from _copy(ctx, _join(src, child), c_src_real, _join(dst, child),
                                   os.path.join(dst_real, child), c_info, preserve,
                                   no_clobber, verbose, deref, update, skip, ask)) and ok
        mode = effective_mode(ctx, src_real, info)
        if created or preserve:
            set_mode(ctx, dst_real, st.S_IMODE(mode) if preserve else st.S_IMODE(mode) & ~UMASK)
        if preserve:
            os.utime(dst_real, ns=(info.st_atime_ns, info.st_mtime_ns))
        return ok
    if dst_l is not None:
        if no_clobber:
            return True
        if update and dst_l.st_mtime_ns >= info.st_mtime_ns:
            return True
        if st.S_ISDIR(dst_l.st_mode):
            ctx.error(f"cp: cannot overwrite directory {q(dst)} with non-directory")
            return False
        if ask is not None and not ask(f"overwrite {q(dst)}"):
            return True
    try:
        if st.S_ISLNK(info.st_mode):
            if dst_l is not None:
                os.unlink(dst_real)
            make_symlink(ctx, os.readlink(src_real), dst, dst_real)
        else:
            if dst_l is not None and st.S_ISLNK(dst_l.st_mode) and _stat(dst_real) is None:
                os.unlink(dst_real)
            with open(src_real, "rb") as fin, open(dst_real, "wb") as fout:
                _pump(fin, fout)
            mode = st.S_IMODE(effective_mode(ctx, src_real, info))
            if dst_l is None or preserve:
                set_mode(ctx, dst_real, mode if preserve else mode & ~UMASK)
            if preserve:
                os.utime(dst_real, ns=(info.st_atime_ns, info.st_mtime_ns))
    except OSError as exc:
        if exc.filename and os.path.normpath(str(exc.filename)) == os.path.normpath(src_real):
            ctx.error(f"cp: cannot open {q(src)} for reading: {strerror(exc)}")
        else:
            reason = strerror(exc)
            if dst.endswith("/") and exc.errno == 21:
                reason = "Not a directory"
            ctx.error(f"cp: cannot create regular file {q(dst)}: {reason}")
        return False
    if verbose:
        yield f"{q(src)} -> {q(dst)}\n".encode()
    return True


def _pump(source: IO[bytes], sink: IO[bytes]) -> None:
    # shutil is not part of the guest's standard library, so copy in plain chunks.
    while True:
        chunk = source.read(1 << 16)
        if not chunk:
            return
        sink.write(chunk)


def _join(parent: str, child: str) -> str:
    return parent + child if parent.endswith("/") else parent + "/" + child


# --- mv ----------------------------------------------------------------------------------


def mv(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = OptSpec(
        "fnvt:Tiu",
        {"force": "f", "no-clobber": "n", "verbose": "v", "target-directory": "t=",
         "no-target-directory": "T", "interactive": "i", "update": "u"},
    )
    try:
        opts, names = parse(spec, argv[1:])
    except UsageError as err:
        usage_fail(ctx, "mv", err)
        return 1
    no_clobber = verbose = no_target = update = interactive = False
    target_dir: str | None = None
    for key, value in opts:
        # -f, -i and -n override one another; the last one given wins.
        if key == "n":
            no_clobber, interactive = True, False
        elif key == "f":
            no_clobber = interactive = False
        elif key == "i":
            no_clobber, interactive = False, True
        elif key == "v":
            verbose = True
        elif key == "t":
            target_dir = value
        elif key == "T":
            no_target = True
        elif key == "u":
            update = True
    pairs = _split_target(ctx, "mv", names, target_dir, no_target)
    if pairs is None:
        return 1
    status = 0
    ask = _Asker(ctx, "mv")
    for src, dst in pairs[0]:
        src_real = host(ctx, src, follow=False).rstrip("/") or "/"
        info = _lstat(src_real)
        if info is None:
            ctx.error(f"mv: cannot stat {q(src)}: No such file or directory")
            status = 1
            continue
        dst_real = host(ctx, dst, follow=False).rstrip("/") or "/"
        dst_info = _lstat(dst_real)
        if dst.endswith("/") and dst_info is not None and not os.path.isdir(dst_real):
            ctx.error(f"mv: cannot stat {q(dst)}: Not a directory")
            status = 1
            continue
        if _same(info, dst_info):
            ctx.error(f"mv: {q(src)} and {q(dst)} are the same file")
            status = 1
            continue
        if st.S_ISDIR(info.st_mode) and _inside(ctx, src, _parent(dst)):
            ctx.error(f"mv: cannot move {q(src)} to a subdirectory of itself, {q(dst)}")
            status = 1
            continue
        if dst_info is not None:
            if no_clobber:
                continue
            if update and dst_info.st_mtime_ns >= info.st_mtime_ns:
                continue
            if st.S_ISDIR(info.st_mode) and not st.S_ISDIR(dst_info.st_mode):
                ctx.error(f"mv: cannot overwrite non-directory {q(dst)} with directory {q(src)}")
                status = 1
                continue
            if not st.S_ISDIR(info.st_mode) and st.S_ISDIR(dst_info.st_mode):
                ctx.error(f"mv: cannot overwrite directory {q(dst)} with non-directory")
                status = 1
                continue
            if interactive and not ask(f"overwrite {q(dst)}"):
                continue
        try:
            os.replace(src_real, dst_real)
        except OSError as exc:
            if exc.errno == 39 or exc.errno == 66:
                ctx.error(f"mv: cannot move {q(src)} to {q(dst)}: Directory not empty")
            else:
                ctx.error(f"mv: cannot move {q(src)} to {q(dst)}: {strerror(exc)}")
            status = 1
            continue
        move_modes(ctx, src_real, dst_real)
        if verbose:
            yield f"renamed {q(src)} -> {q(dst)}\n".encode()
    return status


# --- ln ----------------------------------------------------------------------------------


def ln(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = OptSpec(
        "sfnvTt:rL P",
        {"symbolic": "s", "force": "f", "no-dereference": "n", "verbose": "v",
         "no-target-directory": "T", "target-directory": "t=", "relative": "r"},
    )
    try:
        opts, names = parse(spec, argv[1:])
    except UsageError as err:
        usage_fail(ctx, "ln", err)
        return 1
    flags = {k for k, _ in opts}
    target_dir = next((v for k, v in opts if k == "t"), None)
    symbolic = "s" in flags
    if not names:
        return _missing(ctx, "ln", what="file operand")
    if target_dir is None and len(names) == 1:
        pairs = [(names[0], _into(".", names[0]))]
    elif target_dir is not None:
        pairs = [(s, _into(target_dir, s)) for s in names]
    else:
        *sources, dest = names
        dest_real = host(ctx, dest, follow="n" not in flags)
        dest_info = _stat(dest_real)
        if "n" in flags and _lstat(dest_real) is not None and st.S_ISLNK(os.lstat(dest_real).st_mode):
            dest_info = None
        if "T" not in flags and dest_info is not None and st.S_ISDIR(dest_info.st_mode):
            pairs = [(s, _into(dest, s)) for s in sources]
        elif len(sources) > 1:
            if dest_info is None:
                ctx.error(f"ln: target {q(dest)}: No such file or directory")
            else:
                ctx.error(f"ln: target {q(dest)}: Not a directory")
            return 1
        else:
            pairs = [(sources[0], dest)]
    status = 0
    for target, link in pairs:
        link_real = host(ctx, link, follow=False).rstrip("/")
        kind = "symbolic link" if symbolic else "hard link"
        try:
            if not symbolic:
                src_real = host(ctx, target)
                src_info = _stat(src_real)
                if src_info is None:
                    ctx.error(f"ln: failed to access {q(target)}: No such file or directory")
                    status = 1
                    continue
                if st.S_ISDIR(src_info.st_mode):
                    ctx.error(f"ln: {target}: hard link not allowed for directory")
                    status = 1
                    continue
            existing = _lstat(link_real)
            if existing is None and link.endswith("/"):
                raise FileNotFoundError(2, "No such file or directory")
            if symbolic and "r" in flags:
                target = _relative_target(ctx, target, link)
            if existing is not None:
                if "f" not in flags:
                    raise FileExistsError(17, "File exists")
                if st.S_ISDIR(existing.st_mode):
                    ctx.error(f"ln: {q(link)}: cannot overwrite directory")
                    status = 1
                    continue
                os.unlink(link_real)
            if symbolic:
                make_symlink(ctx, target, link, link_real)
            else:
                _hard_link(host(ctx, target), link_real)
        except OSError as exc:
            ctx.error(f"ln: failed to create {kind} {q(link)}: {strerror(exc)}")
            status = 1
            continue
        if "v" in flags:
            arrow = "->" if symbolic else "=>"
            yield f"{q(link)} {arrow} {q(target)}\n".encode()
    return status


def make_symlink(ctx: CommandContext, target: str, link: str, link_real: str) -> None:
    """Create a symlink; where the sandbox refuses absolute targets, point there relatively.

    WASI filesystems (cap-std) will not create a link whose target starts with "/". The
    script's "/" is the workspace root, so the same place can be named relative to the link.
    """
    try:
        os.symlink(target, link_real)
    except PermissionError:
        if not target.startswith("/"):
            raise
        from ._files_paths import _relative

        parent = ctx.resolve(link).rsplit("/", 1)[0] or "/"
        os.symlink(_relative(ctx.resolve(target), parent), link_real)


def _relative_target(ctx: CommandContext, target: str, link: str) -> str:
    """``ln -r``: the target as a path relative to the directory holding the link."""
    from ._files_common import canonicalize
    from ._files_paths import _relative

    where = canonicalize(ctx, target, "m") or ctx.resolve(target)
    link_path = ctx.resolve(link)
    parent = canonicalize(ctx, link_path.rsplit("/", 1)[0] or "/", "m") or "/"
    return _relative(where, parent)


def _hard_link(source: str, link: str) -> None:
    try:
        os.link(source, link)
    except (OSError, NotImplementedError, AttributeError) as exc:
        if isinstance(exc, FileExistsError):
            raise
        with open(source, "rb") as fin, open(link, "xb") as fout:
            _pump(fin, fout)
        info = os.stat(source)
        os.utime(link, ns=(info.st_atime_ns, info.st_mtime_ns))


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


def chmod(ctx: CommandContext, argv: list[str]) -> CommandResult:
    # Modes like -w and -x look like options; GNU accepts them as the mode operand.
    args = argv[1:]
    flags: set[str] = set()
    rest: list[str] = []
    mode_text: str | None = None
    reference: str | None = None
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a == "--":
            rest.extend(args[i:])
            break
        if a.startswith("--"):
            long = {"recursive": "R", "verbose": "v", "changes": "c", "silent": "f",
                    "quiet": "f"}
            if a[2:] in long:
                flags.add(long[a[2:]])
                continue
            if a.startswith("--reference="):
                reference = a.split("=", 1)[1]
                continue
            usage_fail(ctx, "chmod", UsageError(f"unrecognized option {q(a)}"))
            return 1
        if a.startswith("-") and len(a) > 1 and all(c in "Rvcf" for c in a[1:]):
            flags.update(a[1:])
            continue
        if a.startswith("-") and len(a) > 1 and mode_text is None and all(c in "rwxXstugoa+-=,0123456789" for c in a[1:]):
            mode_text = a
            continue
        if a.startswith("-") and len(a) > 1:
            bad = next(c for c in a[1:] if c not in "Rvcf")
            usage_fail(ctx, "chmod", UsageError(f"invalid option -- '{bad}'"))
            return 1
        rest.append(a)
    if reference is None and mode_text is None:
        if not rest:
            return _missing(ctx, "chmod")
        mode_text = rest.pop(0)
    if not rest:
        return _missing(ctx, "chmod", after=mode_text if mode_text is not None else reference)
    ref_mode: int | None = None
    if reference is not None:
        ref_info = _stat(host(ctx, reference))
        if ref_info is None:
            ctx.error(f"chmod: failed to get attributes of {q(reference)}: No such file or directory")
            return 1
        ref_mode = st.S_IMODE(effective_mode(ctx, host(ctx, reference), ref_info))
    if mode_text is not None and parse_mode(mode_text, 0o644, False) is None:
        ctx.error(f"chmod: invalid mode: {q(mode_text)}")
        ctx.error("Try 'chmod --help' for more information.")
        return 1
    status = 0
    for name in rest:
        real = host(ctx, name)
        if _stat(real) is None:
            if "f" not in flags:
                ctx.error(f"chmod: cannot access {q(name)}: No such file or directory")
            status = 1
            continue
        for path_name, path_real in _chmod_targets(name, real, "R" in flags):
            info = _stat(path_real)
            if info is None:
                continue
            old = st.S_IMODE(effective_mode(ctx, os.path.realpath(path_real), info))
            new = ref_mode if ref_mode is not None else parse_mode(
                mode_text or "", old, st.S_ISDIR(info.st_mode))
            assert new is not None
            try:
                set_mode(ctx, os.path.realpath(path_real), new)
            except OSError as exc:
                ctx.error(f"chmod: changing permissions of {q(path_name)}: {strerror(exc)}")
                status = 1
                continue
            changed = old != new
            if "v" in flags or ("c" in flags and changed):
                yield _chmod_report(path_name, old, new, changed).encode()
    return status


def _chmod_targets(name: str, real: str, recursive: bool) -> Iterator[tuple[str, str]]:
    yield name, real
    if not recursive or not os.path.isdir(real):
        return
    if os.path.islink(real.rstrip("/")) and name != real:
        return
    for child in sorted(os.listdir(real)):
        c_real = os.path.join(real, child)
        c_name = _join(name, child)
        if os.path.islink(c_real):
            continue
        yield from _chmod_targets(c_name, c_real, True)


def _chmod_report(name: str, old: int, new: int, changed: bool) -> str:
    from ._files_common import mode_string

    o = mode_string(old)[1:]
    n = mode_string(new)[1:]
    if changed:
        return f"mode of {q(name)} changed from {old:04o} ({o}) to {new:04o} ({n})\n"
    return f"mode of {q(name)} retained as {new:04o} ({n})\n"


COMMANDS: dict[str, Callable[[CommandContext, list[str]], CommandResult]] = {
    "mkdir": mkdir, "rmdir": rmdir, "touch": touch, "rm": rm, "cp": cp, "mv": mv, "ln": ln,
    "chmod": chmod,
}
