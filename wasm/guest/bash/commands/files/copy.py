"""Commands that copy, move and link: cp, mv, ln.

Hard links are made with ``os.link`` where the platform allows and emulated by copying
otherwise (a later write to one name is then not seen through the other; the workspace
snapshot does not keep hard links anyway). Where the sandbox refuses absolute symlink
targets (WASI), links point to the same place relatively.
"""

from __future__ import annotations

import os
import stat as st
from typing import IO, Callable, Generator, Iterator

from ...flagspec import FlagSpec, UsageError, parse_flags, usage_error
from .common import (
    UMASK,
    Asker,
    effective_mode,
    host,
    lstat_or_none,
    missing_operand,
    move_modes,
    quote_always,
    set_mode,
    slash_through_link,
    stat_or_none,
    strerror,
)
from ..base import CommandContext, CommandResult
from ... import fs

q = quote_always


# --- cp / mv shared ----------------------------------------------------------------------


def _split_target(
    ctx: CommandContext, cmd: str, names: list[str], target_dir: str | None, no_target: bool
) -> tuple[list[tuple[str, str]], int] | None:
    """Pair each source with its destination name, GNU style; None after an error."""
    if target_dir is not None:
        if not names:
            missing_operand(ctx, cmd, what="file operand")
            return None
        info = stat_or_none(host(ctx, target_dir))
        if info is None or not st.S_ISDIR(info.st_mode):
            reason = "No such file or directory" if info is None else "Not a directory"
            ctx.error(f"{cmd}: target directory {q(target_dir)}: {reason}")
            return None
        return [(s, _into(target_dir, s)) for s in names], 0
    if not names:
        missing_operand(ctx, cmd, what="file operand")
        return None
    if len(names) == 1:
        ctx.error(f"{cmd}: missing destination file operand after {q(names[0])}")
        ctx.error(f"Try '{cmd} --help' for more information.")
        return None
    *sources, dest = names
    dest_info = stat_or_none(host(ctx, dest))
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
    p = fs.realpath(host(ctx, parent))
    c = fs.realpath(host(ctx, child))
    return c == p or c.startswith(p.rstrip("/") + "/")


# --- cp ----------------------------------------------------------------------------------


def cp(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = FlagSpec(
        "rRapnfvt:TLPdiu",
        {"recursive": "r", "archive": "a", "no-clobber": "n", "force": "f", "verbose": "v",
         "target-directory": "t=", "no-target-directory": "T", "dereference": "L",
         "no-dereference": "P", "preserve": "p?", "update": "u", "interactive": "i",
         "parents": "parents", "no-preserve": "no-preserve="},
    )
    try:
        opts, names = parse_flags(spec, argv[1:])
    except UsageError as err:
        usage_error(ctx, "cp", err)
        return 1
    recursive = preserve = no_clobber = verbose = no_target = update = interactive = False
    parents = False
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
        elif key == "parents":
            parents = True
        elif key == "no-preserve":
            preserve = False
    if deref is None:
        deref = not recursive
    if parents:
        dest = target_dir if target_dir is not None else (names[-1] if len(names) > 1 else None)
        if dest is None or not fs.isdir(host(ctx, dest)):
            if dest is None:
                missing_operand(ctx, "cp", names[0] if names else None,
                                "destination file operand" if names else "file operand")
                return 1
            ctx.error("cp: with --parents, the destination must be a directory")
            ctx.error("Try 'cp --help' for more information.")
            return 1
        sources = names if target_dir is not None else names[:-1]
        pairs: tuple[list[tuple[str, str]], int] | None = (
            [(src, dest.rstrip("/") + "/" + src.lstrip("/")) for src in sources], 0)
        for src in sources:
            yield from _make_parents(ctx, src, dest, verbose)
    else:
        pairs = _split_target(ctx, "cp", names, target_dir, no_target)
    if pairs is None:
        return 1
    status = 0
    for src, dst in pairs[0]:
        src_real = host(ctx, src, follow=deref)
        info = lstat_or_none(src_real.rstrip("/") or "/") if not deref else stat_or_none(src_real)
        if info is None:
            ctx.error(f"cp: cannot stat {q(src)}: {strerror(2)}")
            status = 1
            continue
        if st.S_ISDIR(info.st_mode) and not recursive:
            ctx.error(f"cp: -r not specified; omitting directory {q(src)}")
            status = 1
            continue
        dst_real = host(ctx, dst)
        dst_info = stat_or_none(dst_real)
        if _same(stat_or_none(src_real), dst_info) and not st.S_ISLNK(info.st_mode):
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
                        fs.mkdir(dst_real)
                    except OSError:
                        pass
                    continue
                skip = fs.realpath(dst_real)
            if dst_info is not None and not st.S_ISDIR(dst_info.st_mode):
                ctx.error(f"cp: cannot overwrite non-directory {q(dst)} with directory {q(src)}")
                status = 1
                continue
        ask = Asker(ctx, "cp") if interactive else None
        ok = yield from _copy(ctx, src, src_real, dst, dst_real, info, preserve, no_clobber,
                              verbose, deref, update, skip, ask)
        if not ok:
            status = 1
    return status


def _make_parents(ctx: CommandContext, src: str, dest: str, verbose: bool) -> Iterator[bytes]:
    """``cp --parents``: recreate SRC's leading directories under DEST (GNU's -v lines)."""
    parts = [p for p in src.split("/") if p][:-1]
    for depth in range(1, len(parts) + 1):
        rel = "/".join(parts[:depth])
        target = dest.rstrip("/") + "/" + rel
        real = host(ctx, target)
        if fs.isdir(real):
            continue
        fs.makedirs(real, exist_ok=True)
        if verbose:
            yield f"{rel} -> {target}\n".encode("utf-8", "surrogateescape")


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
    dst_l = lstat_or_none(dst_real.rstrip("/"))
    if st.S_ISDIR(info.st_mode):
        created = False
        if dst_l is None:
            try:
                fs.mkdir(dst_real)
            except OSError as exc:
                ctx.error(f"cp: cannot create directory {q(dst)}: {strerror(exc)}")
                return False
            created = True
        if verbose:
            yield f"{q(src)} -> {q(dst)}\n".encode("utf-8", "surrogateescape")
        ok = True
        try:
            children = sorted(fs.listdir(src_real))
        except OSError as exc:
            ctx.error(f"cp: cannot access {q(src)}: {strerror(exc)}")
            return False
        for child in children:
            c_src_real = os.path.join(src_real, child)
            if skip is not None and fs.realpath(c_src_real) == skip:
                continue
            c_info = lstat_or_none(c_src_real) if not deref else stat_or_none(c_src_real)
            if c_info is None:
                continue
            ok = (yield from _copy(ctx, _join(src, child), c_src_real, _join(dst, child),
                                   os.path.join(dst_real, child), c_info, preserve,
                                   no_clobber, verbose, deref, update, skip, ask)) and ok
        mode = effective_mode(ctx, src_real, info)
        if created or preserve:
            set_mode(ctx, dst_real, st.S_IMODE(mode) if preserve else st.S_IMODE(mode) & ~UMASK)
        if preserve:
            fs.utime(dst_real, ns=(info.st_atime_ns, info.st_mtime_ns))
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
                fs.unlink(dst_real)
            make_symlink(ctx, fs.readlink(src_real), dst, dst_real)
        else:
            if dst_l is not None and st.S_ISLNK(dst_l.st_mode) and stat_or_none(dst_real) is None:
                fs.unlink(dst_real)
            with fs.open(src_real, "rb") as fin, fs.open(dst_real, "wb") as fout:
                _pump(fin, fout)
            mode = st.S_IMODE(effective_mode(ctx, src_real, info))
            if dst_l is None or preserve:
                set_mode(ctx, dst_real, mode if preserve else mode & ~UMASK)
            if preserve:
                fs.utime(dst_real, ns=(info.st_atime_ns, info.st_mtime_ns))
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
        yield f"{q(src)} -> {q(dst)}\n".encode("utf-8", "surrogateescape")
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
    spec = FlagSpec(
        "fnvt:Tiu",
        {"force": "f", "no-clobber": "n", "verbose": "v", "target-directory": "t=",
         "no-target-directory": "T", "interactive": "i", "update": "u"},
    )
    try:
        opts, names = parse_flags(spec, argv[1:])
    except UsageError as err:
        usage_error(ctx, "mv", err)
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
    ask = Asker(ctx, "mv")
    for src, dst in pairs[0]:
        src_real = host(ctx, src, follow=False).rstrip("/") or "/"
        info = lstat_or_none(src_real)
        if info is not None and slash_through_link(ctx, src):
            # "link/" means the directory behind the link, which rename cannot move.
            ctx.error(f"mv: cannot move {q(src)} to {q(dst)}: Not a directory")
            status = 1
            continue
        if info is None:
            ctx.error(f"mv: cannot stat {q(src)}: No such file or directory")
            status = 1
            continue
        dst_real = host(ctx, dst, follow=False).rstrip("/") or "/"
        dst_info = lstat_or_none(dst_real)
        if dst.endswith("/") and dst_info is not None and not fs.isdir(dst_real):
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
            fs.replace(src_real, dst_real)
        except OSError as exc:
            if exc.errno == 39 or exc.errno == 66:
                ctx.error(f"mv: cannot move {q(src)} to {q(dst)}: Directory not empty")
            else:
                ctx.error(f"mv: cannot move {q(src)} to {q(dst)}: {strerror(exc)}")
            status = 1
            continue
        move_modes(ctx, src_real, dst_real)
        if verbose:
            yield f"renamed {q(src)} -> {q(dst)}\n".encode("utf-8", "surrogateescape")
    return status


# --- ln ----------------------------------------------------------------------------------


def ln(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = FlagSpec(
        "sfnvTt:rLP",
        {"symbolic": "s", "force": "f", "no-dereference": "n", "verbose": "v",
         "no-target-directory": "T", "target-directory": "t=", "relative": "r"},
    )
    try:
        opts, names = parse_flags(spec, argv[1:])
    except UsageError as err:
        usage_error(ctx, "ln", err)
        return 1
    flags = {k for k, _ in opts}
    target_dir = next((v for k, v in opts if k == "t"), None)
    symbolic = "s" in flags
    if not names:
        return missing_operand(ctx, "ln", what="file operand")
    if target_dir is None and len(names) == 1:
        pairs = [(names[0], _into(".", names[0]))]
    elif target_dir is not None:
        pairs = [(s, _into(target_dir, s)) for s in names]
    else:
        *sources, dest = names
        dest_real = host(ctx, dest, follow="n" not in flags)
        dest_info = stat_or_none(dest_real)
        if "n" in flags and lstat_or_none(dest_real) is not None and st.S_ISLNK(fs.lstat(dest_real).st_mode):
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
                src_info = stat_or_none(src_real)
                if src_info is None:
                    ctx.error(f"ln: failed to access {q(target)}: No such file or directory")
                    status = 1
                    continue
                if st.S_ISDIR(src_info.st_mode):
                    ctx.error(f"ln: {target}: hard link not allowed for directory")
                    status = 1
                    continue
            existing = lstat_or_none(link_real)
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
                fs.unlink(link_real)
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
            yield f"{q(link)} {arrow} {q(target)}\n".encode("utf-8", "surrogateescape")
    return status


def make_symlink(ctx: CommandContext, target: str, link: str, link_real: str) -> None:
    """Create a symlink; where the sandbox refuses absolute targets, point there relatively.

    WASI filesystems (cap-std) will not create a link whose target starts with "/". The
    script's "/" is the workspace root, so the same place can be named relative to the link.
    """
    try:
        fs.symlink(target, link_real)
    except PermissionError:
        if not target.startswith("/"):
            raise
        from .paths import _relative

        parent = ctx.resolve(link).rsplit("/", 1)[0] or "/"
        fs.symlink(_relative(ctx.resolve(target), parent), link_real)


def _relative_target(ctx: CommandContext, target: str, link: str) -> str:
    """``ln -r``: the target as a path relative to the directory holding the link."""
    from .common import canonicalize
    from .paths import _relative

    where = canonicalize(ctx, target, "m") or ctx.resolve(target)
    link_path = ctx.resolve(link)
    parent = canonicalize(ctx, link_path.rsplit("/", 1)[0] or "/", "m") or "/"
    return _relative(where, parent)


def _hard_link(source: str, link: str) -> None:
    try:
        fs.link(source, link)
    except (OSError, NotImplementedError, AttributeError) as exc:
        if isinstance(exc, FileExistsError):
            raise
        with fs.open(source, "rb") as fin, fs.open(link, "xb") as fout:
            _pump(fin, fout)
        info = fs.stat(source)
        fs.utime(link, ns=(info.st_atime_ns, info.st_mtime_ns))


COMMANDS: dict[str, Callable[[CommandContext, list[str]], CommandResult]] = {
    "cp": cp, "mv": mv, "ln": ln,
}
