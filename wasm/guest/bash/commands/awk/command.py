"""The ``awk`` command line: options, program sources and ``-v`` assignments, then the run.

Commands in ``system()``, ``cmd | getline`` and
``print | cmd`` run through the interpreter's ``run_command`` as ``sh -c``; their output
appears when the pipe is closed (there are no concurrent processes in the sandbox).
"""

from __future__ import annotations

from .parse import AwkSyntaxError, Parser, unescape
from .runtime import AwkError, Runtime
from ..sed import argv_text, bytes_text
from ..base import Command, CommandContext, CommandResult
from ... import fs

USAGE = "usage: awk [-F value] [-v var=value] [--] 'program text' [file ...]\n" \
        "usage: awk [-F value] [-v var=value] [-f program-file] [--] [file ...]"


def awk(ctx: CommandContext, argv: list[str]) -> CommandResult:
    args = argv[1:]
    field_sep: str | None = None
    assigns: list[tuple[str, str]] = []
    sources: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            i += 1
            break
        if not arg.startswith("-") or arg == "-":
            break
        opt = arg[1]
        value: str | None = arg[2:] or None
        if opt in "Fvf":
            if value is None:
                i += 1
                if i >= len(args):
                    ctx.error(f"awk: option requires an argument -- {opt}")
                    ctx.error(USAGE)
                    return 2
                value = args[i]
            value = bytes_text(value)
            if opt == "F":
                field_sep = unescape(value) if value != "t" else "\t"
            elif opt == "v":
                name, eq, val = value.partition("=")
                if not eq or not name.replace("_", "a").isalnum() or (name[0].isascii() and name[0].isdigit()):
                    ctx.error(f"awk: improper assignment: -v {value}")
                    return 2
                assigns.append((name, unescape(val)))
            else:
                try:
                    if value == "-" or value == "/dev/stdin":
                        sources.append(ctx.read_all_stdin().decode("latin-1"))
                    else:
                        with fs.open(ctx.host_path(argv_text(value)), "rb") as handle:
                            sources.append(handle.read().decode("latin-1"))
                except OSError:
                    ctx.error(f"awk: couldn't open file {value}")
                    return 2
        elif opt == "W":
            if value is None:
                i += 1
            if (value or (args[i] if i < len(args) else "")).startswith("v"):
                yield b"mawk 1.3.4 20200120 (sandbox reimplementation)\n"
                return 0
        elif opt == "-":
            ctx.error(f"awk: not an option: {arg}")
            return 2
        else:
            ctx.error(f"awk: not an option: {arg}")
            return 2
        i += 1
    if not sources:
        if i >= len(args):
            # mawk prints its usage and exits 0 when given no program.
            ctx.error(USAGE)
            return 0
        sources.append(bytes_text(args[i]))
        i += 1
    operands = args[i:]
    try:
        items, functions = Parser("\n".join(sources)).parse()
    except AwkSyntaxError as exc:
        ctx.error(f"awk: line {exc.line}: {exc}")
        return 2
    try:
        runtime = Runtime(ctx, items, functions, assigns, operands)
        if field_sep is not None:
            runtime.g["FS"] = field_sep
        for text in runtime.run():
            if text:
                yield text.encode("latin-1")
    except AwkError as exc:
        if "runtime" in locals():
            pending = runtime.take_output(final=True)
            if pending:
                yield pending.encode("latin-1")
        ctx.error(f"awk: run time error: {exc}")
        return 2
    except RecursionError:
        ctx.error("awk: run time error: function call nesting too deep")
        return 2
    return runtime.exit_status


COMMANDS: dict[str, Command] = {"awk": awk, "mawk": awk, "nawk": awk}
