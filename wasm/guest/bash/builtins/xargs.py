"""``xargs``: build command lines from standard input and run them in this shell.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import BashError, ExitShell
from ..escapes import decode_echo
from ..invoke import invoke_no_functions
from ..streams import InputStream
from ._common import Entry, Gen, StreamingBuiltin, encode

if TYPE_CHECKING:
    from ..evaluate import Shell
    from ..redirects import IO


def _xargs_items(data: str, mode: str, delim: str | None) -> list[str]:
    if mode == "null":
        items = data.split("\0")
        return items[:-1] if items and items[-1] == "" else items
    if mode == "delim":
        assert delim is not None
        items = data.split(delim)
        if items and items[-1] in ("", "\n"):
            items = items[:-1]
        return items
    items = []
    buf: list[str] = []
    have = False
    quote: str | None = None
    i = 0
    while i < len(data):
        c = data[i]
        if quote:
            if c == quote:
                quote = None
            else:
                buf.append(c)
        elif c in "'\"":
            quote = c
            have = True
        elif c == "\\" and i + 1 < len(data):
            buf.append(data[i + 1])
            have = True
            i += 1
        elif c in " \t\n":
            if buf or have:
                items.append("".join(buf))
                buf, have = [], False
        else:
            buf.append(c)
        i += 1
    if quote:
        raise BashError(f"unmatched {'single' if quote == chr(39) else 'double'} quote; by default quotes are special to xargs unless you use the -0 option")
    if buf or have:
        items.append("".join(buf))
    return items


def run_xargs(sh: Shell, argv: list[str], io: IO) -> Gen:
    args = argv[1:]
    max_args: int | None = None
    max_lines: int | None = None
    replace: str | None = None
    mode = "blank"
    delim: str | None = None
    no_empty = False
    trace = False
    while args and args[0].startswith("-") and len(args[0]) > 1:
        a = args.pop(0)
        if a == "--":
            break
        try:
            if a.startswith("-n"):
                max_args = int(a[2:] or args.pop(0))
            elif a.startswith("--max-args="):
                max_args = int(a.split("=", 1)[1])
            elif a.startswith("-L"):
                max_lines = int(a[2:] or args.pop(0))
            elif a.startswith("-I"):
                replace = a[2:] or args.pop(0)
            elif a.startswith("-i"):
                replace = a[2:] or "{}"
            elif a.startswith("--replace"):
                replace = a.split("=", 1)[1] if "=" in a else "{}"
            elif a in ("-0", "--null"):
                mode = "null"
            elif a.startswith("-d"):
                spec = a[2:] or args.pop(0)
                delim = decode_echo(spec).text[:1] if spec.startswith("\\") else spec[:1]
                mode = "delim"
            elif a in ("-r", "--no-run-if-empty"):
                no_empty = True
            elif a in ("-t", "--verbose"):
                trace = True
            elif a.startswith("-P"):
                if len(a) == 2:
                    args.pop(0)
            elif a.startswith("-s"):
                if len(a) == 2:
                    args.pop(0)
            elif a in ("-x", "-p", "--exit"):
                pass
            elif a.startswith("-E") or a.startswith("-e"):
                if len(a) == 2:
                    args.pop(0)
            else:
                io.out(2).write(encode(f"xargs: invalid option -- '{a.lstrip('-')}'\n"))
                return 1
        except (IndexError, ValueError):
            io.out(2).write(encode(f"xargs: option requires an argument -- '{a[1:2]}'\n"))
            return 1
    command = args or ["echo"]
    data = b"".join(io.stdin().chunks()).decode("utf-8", "surrogateescape")
    try:
        if replace is not None:
            items = [line for line in (data.split("\0") if mode == "null" else data.split("\n"))]
            if items and items[-1] == "":
                items.pop()
            items = [it.lstrip(" \t") for it in items] if mode == "blank" else items
            batches = [[it] for it in items if it != "" or mode != "blank"]
        elif max_lines is not None:
            lines = [ln for ln in data.split("\n") if ln.strip()]
            batches = []
            for k in range(0, len(lines), max_lines):
                group = []
                for ln in lines[k : k + max_lines]:
                    group.extend(_xargs_items(ln, mode, delim))
                batches.append(group)
        else:
            items = _xargs_items(data, mode, delim)
            if max_args:
                batches = [items[k : k + max_args] for k in range(0, len(items), max_args)]
            else:
                batches = [items] if items else []
    except BashError as exc:
        io.out(2).write(encode(f"xargs: {exc.message}\n"))
        return 1
    if not batches and not no_empty and replace is None:
        batches = [[]]
    status = 0
    for batch in batches:
        if replace is not None:
            cmd = [a.replace(replace, batch[0]) for a in command]
        else:
            cmd = command + batch
        if trace:
            io.out(2).write(encode(" ".join(cmd) + "\n"))
        sub = io.copy()
        sub.fds[0] = InputStream.empty()
        from ..commands import COMMANDS

        if cmd[0] not in COMMANDS and "/" not in cmd[0]:
            io.out(2).write(encode(f"xargs: {cmd[0]}: No such file or directory\n"))
            return 127
        try:
            code = yield from invoke_no_functions(sh, cmd, sub)
        except ExitShell as exc:
            code = exc.status
        if code == 255:
            io.out(2).write(encode(f"xargs: {cmd[0]}: exited with status 255; aborting\n"))
            return 124
        if code != 0:
            status = 123
    return status


BUILTINS: dict[str, Entry] = {
    "xargs": StreamingBuiltin(run_xargs, bash_builtin=False),
}
