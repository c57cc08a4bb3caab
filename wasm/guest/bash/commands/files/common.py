"""Shared plumbing for the file and archive commands: quoting, paths, errors, modes.

GNU tools share one way of quoting names in messages (and one option parser, ``flagspec``);
reproducing it once here keeps every command's diagnostics byte-identical to coreutils.

Sandbox conventions documented here because several commands depend on them:

- Owner and group are always shown as ``user``/``user`` (uid/gid 1000): the isolate has no
  user database and the host's real ids mean nothing to the script.
- Disk usage is the apparent size rounded up to 4 KiB allocation blocks (what ext4 does for
  ordinary files) and 4 KiB for a directory, so ``du`` and ``ls -s`` are deterministic and
  match GNU on a typical Linux filesystem for non-sparse files.
- A directory's size is reported as 4096 and its link count as 2 plus its subdirectories
  (what ext4 reports), whatever the isolate's filesystem says.
"""

from __future__ import annotations

import errno
import os
import stat as st
import sys

from ..base import CommandContext
from ... import fs

OWNER_NAME = "user"
OWNER_ID = 1000
DIR_SIZE = 4096
BLOCK = 4096

_STRERROR = {
    errno.ENOENT: "No such file or directory",
    errno.EEXIST: "File exists",
    errno.ENOTDIR: "Not a directory",
    errno.EISDIR: "Is a directory",
    errno.ENOTEMPTY: "Directory not empty",
    errno.EACCES: "Permission denied",
    errno.EPERM: "Operation not permitted",
    errno.EINVAL: "Invalid argument",
    errno.ELOOP: "Too many levels of symbolic links",
    errno.ENAMETOOLONG: "File name too long",
    errno.EXDEV: "Invalid cross-device link",
    errno.ENOSPC: "No space left on device",
    errno.EROFS: "Read-only file system",
    errno.EBUSY: "Device or resource busy",
    errno.EIO: "Input/output error",
    errno.ENOTSUP: "Operation not supported",
}


def strerror(exc: OSError | int) -> str:
    """GNU's (glibc's) wording for an errno; Python's texts differ on some platforms."""
    code = exc if isinstance(exc, int) else (exc.errno or 0)
    if isinstance(exc, OSError) and exc.strerror and exc.strerror != os.strerror(code) \
            and exc.strerror != _STRERROR.get(code):
        return exc.strerror  # a message a command chose itself (GNU's special wordings)
    if code in _STRERROR:
        return _STRERROR[code]
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return os.strerror(code)


# --- quoting -----------------------------------------------------------------------------

_SAFE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789%+,-./:=@_^")


def _needs_quotes(name: str) -> bool:
    return name == "" or any(c not in _SAFE for c in name) or name[0] in "~#"


def quote_always(name: str) -> str:
    """coreutils ``quoteaf``: shell-escape quoting, always in quotes (``'a b'``)."""
    return _shell_quote(name, always=True)


def utf8_locale(env: dict[str, str]) -> bool:
    """Whether the character set named by LC_ALL, LC_CTYPE or LANG (first set wins) is UTF-8."""
    for var in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(var)
        if value:
            return "utf-8" in value.lower() or "utf8" in value.lower()
    return False


def quote_locale(ctx: CommandContext, text: str) -> str:
    """gnulib ``quote``: 'text' in the C locale, \u2018text\u2019 in a UTF-8 one."""
    if utf8_locale(ctx.env):
        return "\u2018" + text + "\u2019"
    return "'" + text + "'"


def quote_if_needed(name: str) -> str:
    """coreutils ``quotef``: shell-escape quoting only when the name needs it."""
    return _shell_quote(name, always=False)


def _is_raw(c: str) -> bool:
    """A control character, or an undecodable byte carried as a surrogate escape."""
    return ord(c) < 32 or ord(c) == 127 or 0xDC80 <= ord(c) <= 0xDCFF


def _shell_quote(name: str, always: bool) -> str:
    if not always and not _needs_quotes(name):
        return name
    if not any(_is_raw(c) for c in name):
        if "'" not in name:
            return "'" + name + "'"
        if not any(c in name for c in '"$`\\'):
            return '"' + name + '"'
        return "'" + name.replace("'", "'\\''") + "'"
    # Control characters and invalid bytes: GNU alternates '...' runs with $'\ooo' runs,
    # opening with '' when the name starts with one.
    escapes = {"\n": "n", "\t": "t", "\r": "r", "\a": "a", "\b": "b", "\f": "f", "\v": "v"}
    out: list[str] = ["''"] if _is_raw(name[0]) else []
    start = 0
    while start < len(name):
        raw = _is_raw(name[start])
        end = start
        while end < len(name) and _is_raw(name[end]) == raw:
            end += 1
        run = name[start:end]
        if raw:
            codes = (escapes.get(c, "%03o" % (ord(c) - 0xDC00 if ord(c) >= 0xDC80 else ord(c)))
                     for c in run)
            out.append("$'" + "".join("\\" + code for code in codes) + "'")
        else:
            out.append("'" + run.replace("'", "'\\''") + "'")
        start = end
    return "".join(out)


# --- paths -------------------------------------------------------------------------------


def host(ctx: CommandContext, path: str, follow: bool = True) -> str:
    """The real path for script path ``path``, resolving symlinks inside the workspace.

    Inside the isolate the workspace is the real ``/`` and the OS resolves links itself.
    On a host (tests) an absolute link target must be re-rooted, so links are walked here.
    A trailing slash is kept because it changes meaning (``file/`` is ENOTDIR).
    """
    trailing = path.endswith("/") and path.strip("/") != ""
    if ctx.root in ("", "/"):
        real = ctx.host_path(path)
    else:
        virtual = resolve_links(ctx, path, follow_last=follow or trailing)
        real = ctx.host_path(virtual)
    return real + "/" if trailing else real


def slash_through_link(ctx: CommandContext, path: str) -> bool:
    """Whether ``path`` is ``link/``: a trailing slash applied to a symbolic link."""
    if not path.endswith("/") or not path.strip("/"):
        return False
    return fs.islink(host(ctx, path.rstrip("/"), follow=False))


def resolve_links(ctx: CommandContext, path: str, follow_last: bool = True) -> str:
    """Resolve symlinks in ``path`` as the script sees them; missing parts are kept as is."""
    pending = [p for p in ctx.resolve(path).split("/") if p]
    done: list[str] = []
    hops = 0
    while pending:
        part = pending.pop(0)
        if part == "..":
            if done:
                done.pop()
            continue
        if part == ".":
            continue
        candidate = done + [part]
        if not pending and not follow_last:
            done = candidate
            break
        real = ctx.host_path("/" + "/".join(candidate))
        try:
            target = fs.readlink(real)
        except OSError:
            done = candidate
            continue
        hops += 1
        if hops > 40:
            done = candidate
            done.extend(pending)
            break
        if target.startswith("/"):
            done = []
        pending = [p for p in target.split("/") if p] + pending
    return "/" + "/".join(done)


def canonicalize(ctx: CommandContext, path: str, mode: str) -> str | None:
    """``readlink -f/-e/-m`` semantics on script paths; None when resolution fails.

    ``mode`` is ``"e"`` (every component must exist), ``"f"`` (all but the last) or
    ``"m"`` (none need exist).
    """
    if path == "":
        return None
    pending = [p for p in ctx.resolve(path if path.startswith("/") else path).split("/") if p]
    if not path.startswith("/"):
        pending = [p for p in ctx.cwd.split("/") if p] + [p for p in path.split("/") if p]
    done: list[str] = []
    hops = 0
    while pending:
        part = pending.pop(0)
        if part == ".":
            continue
        if part == "..":
            if done:
                done.pop()
            continue
        candidate = done + [part]
        real = ctx.host_path("/" + "/".join(candidate))
        try:
            info = fs.lstat(real)
        except OSError:
            if mode == "m" or (mode == "f" and not pending):
                done = candidate
                continue
            return None
        if st.S_ISLNK(info.st_mode):
            hops += 1
            if hops > 40:
                return None
            target = fs.readlink(real)
            if target.startswith("/"):
                done = []
            pending = [p for p in target.split("/") if p] + pending
            continue
        if pending and not st.S_ISDIR(info.st_mode) and mode != "m":
            return None
        done = candidate
    if path.endswith("/") and mode != "m" and done:
        try:
            if not st.S_ISDIR(fs.stat(ctx.host_path("/" + "/".join(done))).st_mode):
                return None
        except OSError:
            return None
    return "/" + "/".join(done)


def usage_blocks(info: os.stat_result) -> int:
    """1 KiB blocks charged to a file (see module docstring for the convention)."""
    if st.S_ISDIR(info.st_mode):
        return BLOCK // 1024
    if st.S_ISLNK(info.st_mode):
        return 0
    return -(-info.st_size // BLOCK) * (BLOCK // 1024)


def shown_size(info: os.stat_result) -> int:
    return DIR_SIZE if st.S_ISDIR(info.st_mode) else info.st_size


def link_count(real: str, info: os.stat_result) -> int:
    if not st.S_ISDIR(info.st_mode):
        return max(1, info.st_nlink)
    count = 2
    try:
        with fs.scandir(real) as it:
            for entry in it:
                try:
                    if entry.is_dir(follow_symlinks=False):
                        count += 1
                except OSError:
                    pass
    except OSError:
        pass
    return count


def mode_string(mode: int) -> str:
    """``drwxr-xr-x`` as ls -l and stat %A print it."""
    kind = "-"
    if st.S_ISDIR(mode):
        kind = "d"
    elif st.S_ISLNK(mode):
        kind = "l"
    elif st.S_ISFIFO(mode):
        kind = "p"
    elif st.S_ISSOCK(mode):
        kind = "s"
    elif st.S_ISCHR(mode):
        kind = "c"
    elif st.S_ISBLK(mode):
        kind = "b"
    chars = [kind]
    for who, (r, w, x) in enumerate(((st.S_IRUSR, st.S_IWUSR, st.S_IXUSR),
                                     (st.S_IRGRP, st.S_IWGRP, st.S_IXGRP),
                                     (st.S_IROTH, st.S_IWOTH, st.S_IXOTH))):
        chars.append("r" if mode & r else "-")
        chars.append("w" if mode & w else "-")
        special = (st.S_ISUID, st.S_ISGID, st.S_ISVTX)[who]
        exe = bool(mode & x)
        if mode & special:
            chars.append(("s" if exe else "S") if who < 2 else ("t" if exe else "T"))
        else:
            chars.append("x" if exe else "-")
    return "".join(chars)


def file_type_name(mode: int, size: int) -> str:
    """stat's %F wording."""
    if st.S_ISREG(mode):
        return "regular empty file" if size == 0 else "regular file"
    if st.S_ISDIR(mode):
        return "directory"
    if st.S_ISLNK(mode):
        return "symbolic link"
    if st.S_ISFIFO(mode):
        return "fifo"
    if st.S_ISSOCK(mode):
        return "socket"
    if st.S_ISCHR(mode):
        return "character special file"
    if st.S_ISBLK(mode):
        return "block special file"
    return "weird file"


def human(size: int, base: int = 1024) -> str:
    """GNU ``-h`` sizes: one decimal below 10, always rounded up, suffixes K M G T P E."""
    if size < base:
        return str(size)
    units = "KMGTPE"
    exp = 1
    while exp < len(units) and size >= base ** (exp + 1):
        exp += 1
    div = base**exp
    if size < 10 * div:
        tenths = -(-size * 10 // div)
        if tenths < 100:
            return f"{tenths // 10}.{tenths % 10}{units[exp - 1]}"
    whole = -(-size // div)
    if whole >= base and exp < len(units):
        return f"1.0{units[exp]}"
    return f"{whole}{units[exp - 1]}"


def c_sort_key(name: str) -> bytes:
    return name.encode("utf-8", "surrogateescape")


# --- permission bits ---------------------------------------------------------------------
# WASI has no permission bits: inside the isolate chmod fails and stat reports none. The
# modes a script sets are kept in an overlay (real path -> bits) that must live as long as
# the run, across subshells and pipelines. Where it lives, first match wins:
# ``ctx.extras["file_modes"]`` (the interpreter's run-wide dict, the intended home); else a
# ``file_modes`` attribute on the run-wide counters of the interpreter in
# ``ctx.extras["shell"]`` (``shell.state.counters``, shared by all subshells); else
# ``ctx.extras`` itself (one command's lifetime, as in direct tests).

UMASK = 0o022
WASI = sys.platform == "wasi"


def _mode_table(ctx: CommandContext, create: bool) -> dict[str, int] | None:
    table = ctx.extras.get("file_modes")
    if isinstance(table, dict):
        return table
    holder = getattr(getattr(ctx.extras.get("shell"), "state", None), "counters", None)
    if holder is not None:
        table = getattr(holder, "file_modes", None)
        if isinstance(table, dict):
            return table
        if create:
            table = {}
            setattr(holder, "file_modes", table)
            return table
        return None
    if create:
        table = {}
        ctx.extras["file_modes"] = table
        return table
    return None


def _overlay(ctx: CommandContext) -> dict[str, int]:
    table = _mode_table(ctx, create=True)
    assert table is not None
    return table


def effective_mode(ctx: CommandContext, real: str, info: os.stat_result) -> int:
    """``st_mode`` with permission bits as the script last set them."""
    kind = st.S_IFMT(info.st_mode)
    if st.S_ISLNK(info.st_mode):
        return kind | 0o777
    table = _mode_table(ctx, create=False)
    if table is not None:
        key = os.path.normpath(real)
        if key in table:
            return kind | int(table[key])
    if WASI:
        return kind | (0o755 if st.S_ISDIR(info.st_mode) else 0o644)
    return info.st_mode


def mode_set_by_script(ctx: CommandContext, real: str) -> bool:
    """Whether ``chmod`` in this run set the bits of ``real`` (kept in the overlay)."""
    table = _mode_table(ctx, create=False)
    return table is not None and os.path.normpath(real) in table


def set_mode(ctx: CommandContext, real: str, bits: int) -> None:
    """chmod ``real`` (into the overlay inside the isolate, where modes do not exist)."""
    if WASI:
        if not fs.lexists(real):
            raise FileNotFoundError(errno.ENOENT, "No such file or directory")
        _overlay(ctx)[os.path.normpath(real)] = bits
        return
    fs.chmod(real, bits)


def move_modes(ctx: CommandContext, old: str, new: str) -> None:
    """After a rename, carry the overlay's modes for ``old`` and everything under it."""
    table = _mode_table(ctx, create=False)
    if table is None:
        return
    old_key = os.path.normpath(old)
    new_key = os.path.normpath(new)
    forget_mode(ctx, new_key)
    for key in [k for k in table if k == old_key or k.startswith(old_key + "/")]:
        table[new_key + key[len(old_key):]] = table.pop(key)


def forget_mode(ctx: CommandContext, real: str) -> None:
    table = _mode_table(ctx, create=False)
    if table is not None:
        prefix = os.path.normpath(real)
        for key in [k for k in table if k == prefix or k.startswith(prefix + "/")]:
            del table[key]


# --- helpers shared by the tree-changing commands ---------------------------------------


def missing_operand(ctx: CommandContext, name: str, after: str | None = None, what: str = "operand") -> int:
    if after is None:
        ctx.error(f"{name}: missing {what}")
    else:
        ctx.error(f"{name}: missing {what} after {quote_locale(ctx, after)}")
    ctx.error(f"Try '{name} --help' for more information.")
    return 1


def argmatch(ctx: CommandContext, value: str, option: str, groups: list[tuple[str, ...]]) -> int:
    """gnulib ``XARGMATCH``: which of ``groups`` (synonyms each) ``value`` names, an exact
    name or an unambiguous start of one; otherwise a ``UsageError`` (status 1) listing them."""
    from ...flagspec import UsageError

    exact = [i for i, names in enumerate(groups) if value in names]
    starts = {i for i, names in enumerate(groups) for n in names if n.startswith(value)}
    if exact or len(starts) == 1:
        return exact[0] if exact else starts.pop()
    kind = "ambiguous" if starts else "invalid"
    listing = "".join("\n  - " + ", ".join(quote_locale(ctx, n) for n in names) for names in groups)
    raise UsageError(f"{kind} argument {quote_locale(ctx, value)} for {quote_locale(ctx, option)}\n"
                     f"Valid arguments are:{listing}", status=1)


class Asker:
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


def kind_name(info: os.stat_result) -> str:
    if st.S_ISLNK(info.st_mode):
        return "symbolic link"
    if st.S_ISDIR(info.st_mode):
        return "directory"
    return "regular empty file" if info.st_size == 0 else "regular file"


def lstat_or_none(path: str) -> os.stat_result | None:
    try:
        return fs.lstat(path)
    except OSError:
        return None


def stat_or_none(path: str) -> os.stat_result | None:
    try:
        return fs.stat(path)
    except OSError:
        return None
