"""Path and metadata commands: readlink, realpath, basename, dirname, mktemp, stat.

``mktemp`` creates under the sandbox's ``/tmp`` (made on demand; the tool never writes
``/tmp`` back to the workspace). ``stat`` shows the sandbox owner ``user`` (uid 1000) and no
birth time ("-"), since the isolate's filesystem keeps none.
"""

from __future__ import annotations

import os
import random
import stat as st
import string
import time
from typing import Callable

from ._files_common import (
    OWNER_ID,
    OWNER_NAME,
    OptSpec,
    UsageError,
    canonicalize,
    effective_mode,
    file_type_name,
    host,
    link_count,
    mode_string,
    parse,
    quote_always,
    quote_if_needed,
    shown_size,
    strerror,
    usage_blocks,
    usage_fail,
)
from .base import CommandContext, CommandResult

q = quote_always


def _missing(ctx: CommandContext, name: str) -> int:
    ctx.error(f"{name}: missing operand")
    ctx.error(f"Try '{name} --help' for more information.")
    return 1


def _b(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


# --- readlink ----------------------------------------------------------------------------


def readlink(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = OptSpec(
        "femnqsvz",
        {"canonicalize": "f", "canonicalize-existing": "e", "canonicalize-missing": "m",
         "no-newline": "n", "quiet": "q", "silent": "s", "verbose": "v", "zero": "z"},
    )
    try:
        opts, names = parse(spec, argv[1:])
    except UsageError as err:
        usage_fail(ctx, "readlink", err)
        return 1
    mode = ""
    no_newline = zero = verbose = False
    for key, _ in opts:
        if key in "fem":
            mode = key
        elif key == "n":
            no_newline = True
        elif key == "z":
            zero = True
        elif key == "v":
            verbose = True
        elif key in "qs":
            verbose = False
    if not names:
        return _missing(ctx, "readlink")
    if no_newline and len(names) > 1:
        ctx.error("readlink: ignoring --no-newline with multiple arguments")
        no_newline = False
    end = b"\0" if zero else (b"" if no_newline else b"\n")
    status = 0
    for name in names:
        if mode:
            result = canonicalize(ctx, name, mode)
        else:
            try:
                result = os.readlink(host(ctx, name, follow=False).rstrip("/"))
            except OSError as exc:
                result = None
                if verbose:
                    ctx.error(f"readlink: {quote_if_needed(name)}: {strerror(exc)}")
        if result is None:
            if verbose and mode:
                ctx.error(f"readlink: {quote_if_needed(name)}: No such file or directory")
            status = 1
            continue
        yield _b(result) + end
    return status


# --- realpath ----------------------------------------------------------------------------


def realpath(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = OptSpec(
        "emsLPqz",
        {"canonicalize-existing": "e", "canonicalize-missing": "m", "no-symlinks": "s",
         "strip": "s", "logical": "L", "physical": "P", "quiet": "q", "zero": "z",
         "relative-to": "relative-to=", "relative-base": "relative-base="},
    )
    try:
        opts, names = parse(spec, argv[1:])
    except UsageError as err:
        usage_fail(ctx, "realpath", err)
        return 1
    mode = "f"
    lexical = quiet = zero = False
    relative_to: str | None = None
    relative_base: str | None = None
    for key, value in opts:
        if key in ("e", "m"):
            mode = key
        elif key == "s":
            lexical = True
        elif key == "q":
            quiet = True
        elif key == "z":
            zero = True
        elif key == "relative-to":
            relative_to = value
        elif key == "relative-base":
            relative_base = value
    if not names:
        return _missing(ctx, "realpath")

    def resolve(name: str) -> str | None:
        if lexical:
            path = ctx.resolve(name)
            if mode != "m" and not os.path.lexists(host(ctx, path, follow=False)):
                parent = ctx.resolve(path + "/..")
                if mode == "e" or not os.path.isdir(host(ctx, parent)):
                    return None
            return path
        return canonicalize(ctx, name, mode)

    base_dirs: list[str] = []
    for extra in (relative_to, relative_base):
        if extra is None:
            continue
        resolved = resolve(extra)
        if resolved is None:
            ctx.error(f"realpath: {quote_if_needed(extra)}: No such file or directory")
            return 1
        base_dirs.append(resolved)
    rel_to = base_dirs[0] if relative_to is not None else None
    rel_base = base_dirs[-1] if relative_base is not None else None
    if rel_to is not None and rel_base is not None and not _under(rel_to, rel_base):
        rel_to = rel_base = None
    elif rel_base is not None and rel_to is None:
        rel_to = rel_base
    status = 0
    for name in names:
        result = resolve(name)
        if result is None:
            if not quiet:
                reason = _failure_reason(ctx, name)
                ctx.error(f"realpath: {quote_if_needed(name)}: {reason}")
            status = 1
            continue
        if rel_to is not None and (rel_base is None or _under(result, rel_base)):
            result = _relative(result, rel_to)
        yield _b(result) + (b"\0" if zero else b"\n")
    return status


def _failure_reason(ctx: CommandContext, name: str) -> str:
    """Why resolving ``name`` failed: a file used as a directory, or something missing."""
    parts = ctx.resolve(name).split("/")[1:]
    for i in range(1, len(parts)):
        real = host(ctx, "/" + "/".join(parts[:i]))
        if not os.path.exists(real):
            break
        if not os.path.isdir(real):
            return "Not a directory"
    return "No such file or directory"


def _under(path: str, base: str) -> bool:
    return base == "/" or path == base or path.startswith(base + "/")


def _relative(path: str, start: str) -> str:
    a = [p for p in path.split("/") if p]
    b = [p for p in start.split("/") if p]
    common = 0
    while common < len(a) and common < len(b) and a[common] == b[common]:
        common += 1
    parts = [".."] * (len(b) - common) + a[common:]
    return "/".join(parts) or "."


# --- basename / dirname ------------------------------------------------------------------


def base_name(path: str) -> str:
    if path == "":
        return ""
    stripped = path.rstrip("/")
    if stripped == "":
        return "/"
    return stripped.rsplit("/", 1)[-1]


def dir_name(path: str) -> str:
    stripped = path.rstrip("/")
    if stripped == "":
        return "/" if path.startswith("/") else "."
    if "/" not in stripped:
        return "."
    parent = stripped.rsplit("/", 1)[0].rstrip("/")
    return parent or "/"


def basename(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = OptSpec("as:z", {"multiple": "a", "suffix": "s=", "zero": "z"})
    try:
        opts, names = parse(spec, argv[1:])
    except UsageError as err:
        usage_fail(ctx, "basename", err)
        return 1
    multiple = zero = False
    suffix = ""
    for key, value in opts:
        if key == "a":
            multiple = True
        elif key == "s":
            multiple = True
            suffix = value or ""
        elif key == "z":
            zero = True
    if not names:
        return _missing(ctx, "basename")
    if not multiple:
        if len(names) > 2:
            ctx.error(f"basename: extra operand {q(names[2])}")
            ctx.error("Try 'basename --help' for more information.")
            return 1
        if len(names) == 2:
            suffix = names[1]
        names = names[:1]
    end = b"\0" if zero else b"\n"
    for name in names:
        result = base_name(name)
        if suffix and result != suffix and result.endswith(suffix) and result != "/":
            result = result[: -len(suffix)]
        yield _b(result) + end
    return 0


def dirname(ctx: CommandContext, argv: list[str]) -> CommandResult:
    try:
        opts, names = parse(OptSpec("z", {"zero": "z"}), argv[1:])
    except UsageError as err:
        usage_fail(ctx, "dirname", err)
        return 1
    if not names:
        return _missing(ctx, "dirname")
    end = b"\0" if opts else b"\n"
    for name in names:
        yield _b(dir_name(name)) + end
    return 0


# --- mktemp ------------------------------------------------------------------------------

_ALPHABET = string.ascii_letters + string.digits


def mktemp(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = OptSpec(
        "dup:tq",
        {"directory": "d", "dry-run": "u", "tmpdir": "p?", "quiet": "q", "suffix": "suffix="},
    )
    try:
        opts, names = parse(spec, argv[1:])
    except UsageError as err:
        usage_fail(ctx, "mktemp", err)
        return 1
    make_dir = dry = under_tmp = quiet = False
    parent: str | None = None
    suffix = ""
    for key, value in opts:
        if key == "d":
            make_dir = True
        elif key == "u":
            dry = True
        elif key == "p":
            parent = value or ctx.env.get("TMPDIR") or "/tmp"
        elif key == "t":
            under_tmp = True
        elif key == "q":
            quiet = True
        elif key == "suffix":
            suffix = value or ""
    if len(names) > 1:
        ctx.error("mktemp: too many templates")
        ctx.error("Try 'mktemp --help' for more information.")
        return 1
    template = names[0] if names else "tmp.XXXXXXXXXX"
    if names and not template.endswith("X") and not suffix:
        tail = template.rsplit("X", 1)
        if len(tail) == 2 and "/" not in tail[1] and template.count("X") >= 3:
            template, suffix = tail[0] + "X", tail[1]
    if not names or under_tmp:
        parent = parent or ctx.env.get("TMPDIR") or "/tmp"
        if under_tmp and "/" in template:
            ctx.error(f"mktemp: invalid template, {q(template)}, contains directory separator")
            return 1
    given = template
    if parent is not None:
        if template.startswith("/"):
            ctx.error(f"mktemp: invalid template, {q(template)}; with --tmpdir, it may not be absolute")
            return 1
        template = parent.rstrip("/") + "/" + template
    xs = len(template) - len(template.rstrip("X"))
    if xs < 3:
        if not quiet:
            ctx.error(f"mktemp: too few X's in template {q(given + suffix)}")
        return 1
    if parent == "/tmp" or template.startswith("/tmp/"):
        os.makedirs(host(ctx, "/tmp"), exist_ok=True)
    stem = template[:-xs]
    rng = random.SystemRandom() if hasattr(random, "SystemRandom") else random.Random()
    for _attempt in range(100):
        name = stem + "".join(rng.choice(_ALPHABET) for _ in range(xs)) + suffix
        real = host(ctx, name)
        if os.path.lexists(real):
            continue
        if dry:
            yield _b(name) + b"\n"
            return 0
        try:
            if make_dir:
                os.mkdir(real, 0o700)
            else:
                fd = os.open(real, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
                os.close(fd)
        except FileExistsError:
            continue
        except OSError as exc:
            if not quiet:
                what = "directory" if make_dir else "file"
                ctx.error(f"mktemp: failed to create {what} via template "
                          f"{q(template + suffix)}: {strerror(exc)}")
            return 1
        yield _b(name) + b"\n"
        return 0
    ctx.error(f"mktemp: failed to create file via template {q(template + suffix)}: File exists")
    return 1


# --- stat --------------------------------------------------------------------------------

_DEFAULT = (
    "  File: %N\n  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n"
    "Device: %Hd,%Ld\tInode: %-10i  Links: %h\n"
    "Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n"
    "Access: %x\nModify: %y\nChange: %z\n Birth: %w\n"
)
_TERSE = "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o\n"


def stat(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = OptSpec(
        "c:Lt",
        {"format": "c=", "printf": "printf=", "dereference": "L", "terse": "t"},
    )
    try:
        opts, names = parse(spec, argv[1:])
    except UsageError as err:
        usage_fail(ctx, "stat", err)
        return 1
    fmt: str | None = None
    deref = terse = False
    escapes = False
    for key, value in opts:
        if key == "c":
            fmt = (value or "") + "\n"
        elif key == "printf":
            fmt = value or ""
            escapes = True
        elif key == "L":
            deref = True
        elif key == "t":
            terse = True
    if not names:
        return _missing(ctx, "stat")
    status = 0
    for name in names:
        real = host(ctx, name, follow=deref)
        try:
            info = os.stat(real) if deref else os.lstat(real)
        except OSError as exc:
            ctx.error(f"stat: cannot statx {q(name)}: {strerror(exc)}")
            status = 1
            continue
        if fmt is not None:
            text = fmt
        elif terse:
            text = _TERSE
        else:
            text = _DEFAULT
        yield _b(format_stat(ctx, text, name, real, info, escapes, default=fmt is None))
    return status


def format_stat(
    ctx: CommandContext, fmt: str, name: str, real: str, info: os.stat_result,
    escapes: bool, default: bool = False,
) -> str:
    """Expand a stat(1) format string for one file."""
    out: list[str] = []
    i = 0
    while i < len(fmt):
        c = fmt[i]
        if c == "\\" and escapes and i + 1 < len(fmt):
            text, i = _escape(fmt, i)
            out.append(text)
            continue
        if c != "%" or i + 1 >= len(fmt):
            out.append(c)
            i += 1
            continue
        j = i + 1
        while j < len(fmt) and fmt[j] in "-+ #0'":
            j += 1
        while j < len(fmt) and (fmt[j].isdigit() or fmt[j] == "."):
            j += 1
        flags = fmt[i + 1 : j]
        if j < len(fmt) and fmt[j] in "HL" and j + 1 < len(fmt) and fmt[j + 1] in "dr":
            j += 1
        if j >= len(fmt):
            out.append(fmt[i:])
            break
        spec = fmt[j]
        if spec == "%":
            out.append("%")
            i = j + 1
            continue
        value = _stat_field(ctx, fmt[i + 1 : j + 1].lstrip("-+ #0'0123456789."), name, real,
                            info, default)
        # GNU prints "?" for a directive it does not know.
        out.append(_pad("?" if value is None else value, flags))
        i = j + 1
    return "".join(out)


def _pad(value: str | int, flags: str) -> str:
    text = str(value)
    width_part = flags.lstrip("-+ #0'")
    precision = None
    if "." in width_part:
        width_part, prec = width_part.split(".", 1)
        precision = int(prec or 0)
    if precision is not None and not isinstance(value, int):
        text = text[:precision]
    width = int(width_part) if width_part else 0
    lead = flags[: len(flags) - len(flags.lstrip("-+ #0'"))]
    if "-" in lead:
        return text.ljust(width)
    if "0" in lead and isinstance(value, int):
        return text.rjust(width, "0")
    if "0" in lead and text.isdigit():
        return text.rjust(width, "0")
    return text.rjust(width)


def _when(seconds_ns: int) -> str:
    secs, frac = divmod(seconds_ns, 1_000_000_000)
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(secs)) + f".{frac:09d} +0000"


def _stat_field(
    ctx: CommandContext, spec: str, name: str, real: str, info: os.stat_result, default: bool
) -> str | int | None:
    mode = effective_mode(ctx, real if st.S_ISLNK(info.st_mode) else os.path.realpath(real), info)
    if spec == "n":
        return name
    if spec == "N":
        if st.S_ISLNK(info.st_mode):
            target = os.readlink(real.rstrip("/"))
            if default:
                return f"{name} -> {target}"
            return f"{q(name)} -> {q(target)}"
        return name if default else q(name)
    if spec == "s":
        return shown_size(info) if not st.S_ISLNK(info.st_mode) else info.st_size
    if spec == "F":
        return file_type_name(info.st_mode, info.st_size)
    if spec == "a":
        return f"{st.S_IMODE(mode):o}"
    if spec == "A":
        return mode_string(mode)
    if spec == "f":
        return f"{mode:x}"
    if spec in ("U", "G"):
        return OWNER_NAME
    if spec in ("u", "g"):
        return OWNER_ID
    if spec == "h":
        return link_count(real, info)
    if spec == "i":
        return info.st_ino
    if spec == "b":
        return usage_blocks(info) * 2
    if spec == "B":
        return 512
    if spec == "o":
        return 4096
    if spec == "d":
        return info.st_dev
    if spec == "D":
        return f"{info.st_dev:x}"
    if spec == "Hd":
        return _major(info.st_dev)
    if spec == "Ld":
        return _minor(info.st_dev)
    if spec in ("t", "T"):
        return "0"
    if spec == "m":
        return "/"
    if spec == "x":
        return _when(info.st_atime_ns)
    if spec == "y":
        return _when(info.st_mtime_ns)
    if spec == "z":
        return _when(info.st_ctime_ns)
    if spec == "w":
        return "-"
    if spec == "X":
        return int(info.st_atime)
    if spec == "Y":
        return int(info.st_mtime)
    if spec == "Z":
        return int(info.st_ctime)
    if spec == "W":
        return 0
    return None


def _major(dev: int) -> int:
    try:
        return os.major(dev)
    except (AttributeError, OSError):
        return 0


def _minor(dev: int) -> int:
    try:
        return os.minor(dev)
    except (AttributeError, OSError):
        return 0


def _escape(fmt: str, i: int) -> tuple[str, int]:
    """One backslash escape of stat --printf starting at ``fmt[i]``."""
    nxt = fmt[i + 1]
    simple = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "a": "\a", "b": "\b", "f": "\f",
              "r": "\r", "v": "\v", "e": "\x1b"}
    if nxt in simple:
        return simple[nxt], i + 2
    if nxt in "01234567":
        j = i + 1
        while j < len(fmt) and j < i + 4 and fmt[j] in "01234567":
            j += 1
        return chr(int(fmt[i + 1 : j], 8)), j
    if nxt == "x":
        j = i + 2
        while j < len(fmt) and j < i + 4 and fmt[j] in string.hexdigits:
            j += 1
        if j > i + 2:
            return chr(int(fmt[i + 2 : j], 16)), j
    return "\\" + nxt, i + 2


COMMANDS: dict[str, Callable[[CommandContext, list[str]], CommandResult]] = {
    "readlink": readlink, "realpath": realpath, "basename": basename, "dirname": dirname,
    "mktemp": mktemp, "stat": stat,
}
