"""``--help`` and ``--version`` for the file and archive commands.

GNU tools answer both on standard output with status 0 wherever the option appears before
``--``. The texts here are short summaries of what this sandbox implements, not copies of
GNU's manuals; the version line names the GNU release whose behaviour is reproduced.
"""

from __future__ import annotations

from typing import Callable

from ..base import CommandContext, CommandResult

Command = Callable[[CommandContext, list[str]], CommandResult]

_PACKAGES = {
    "find": "find (GNU findutils) 4.9.0",
    "tar": "tar (GNU tar) 1.34",
    "gzip": "gzip 1.12",
    "gunzip": "gunzip (gzip) 1.12",
    "zcat": "zcat (gzip) 1.12",
    "tree": "tree v2.1.0",
    "file": "file-5.44",
}

_USAGE = {
    "ls": ("[OPTION]... [FILE]...", "List information about the FILEs (the current directory by default)."),
    "mkdir": ("[OPTION]... DIRECTORY...", "Create the DIRECTORY(ies), if they do not already exist."),
    "rmdir": ("[OPTION]... DIRECTORY...", "Remove the DIRECTORY(ies), if they are empty."),
    "touch": ("[OPTION]... FILE...", "Update the access and modification times of each FILE to the current time."),
    "rm": ("[OPTION]... [FILE]...", "Remove (unlink) the FILE(s)."),
    "cp": ("[OPTION]... SOURCE... DIRECTORY", "Copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY."),
    "mv": ("[OPTION]... SOURCE... DIRECTORY", "Rename SOURCE to DEST, or move SOURCE(s) to DIRECTORY."),
    "ln": ("[OPTION]... TARGET... DIRECTORY", "Create links to each TARGET."),
    "chmod": ("[OPTION]... MODE[,MODE]... FILE...", "Change the mode of each FILE to MODE."),
    "chown": ("[OPTION]... [OWNER][:[GROUP]] FILE...", "Change the owner and/or group of each FILE to OWNER and/or GROUP."),
    "chgrp": ("[OPTION]... GROUP FILE...", "Change the group of each FILE to GROUP."),
    "readlink": ("[OPTION]... FILE...", "Print value of a symbolic link or canonical file name."),
    "realpath": ("[OPTION]... FILE...", "Print the resolved absolute file name."),
    "basename": ("NAME [SUFFIX]", "Print NAME with any leading directory components removed."),
    "dirname": ("[OPTION] NAME...", "Output each NAME with its last non-slash component and trailing slashes removed."),
    "mktemp": ("[OPTION]... [TEMPLATE]", "Create a temporary file or directory, safely, and print its name."),
    "stat": ("[OPTION]... FILE...", "Display file or file system status."),
    "find": ("[-H] [-L] [-P] [starting-point...] [expression]", "Search for files in a directory hierarchy."),
    "tree": ("[-adfF] [-L level] [-I pattern] [-P pattern] [--noreport] [directory ...]", "List contents of directories in a tree-like format."),
    "du": ("[OPTION]... [FILE]...", "Summarize device usage of the set of FILEs, recursively for directories."),
    "file": ("[-bhiL] [--mime-type] file ...", "Determine type of FILEs."),
    "split": ("[OPTION]... [FILE [PREFIX]]", "Output pieces of FILE to PREFIXaa, PREFIXab, ...; default size is 1000 lines."),
    "tee": ("[OPTION]... [FILE]...", "Copy standard input to each FILE, and also to standard output."),
    "gzip": ("[OPTION]... [FILE]...", "Compress or uncompress FILEs (by default, compress FILES in-place)."),
    "gunzip": ("[OPTION]... [FILE]...", "Uncompress FILEs (by default, in-place)."),
    "zcat": ("[OPTION]... [FILE]...", "Uncompress FILEs to standard output."),
    "tar": ("[OPTION...] [FILE]...", "GNU 'tar' saves many files together into a single tape or disk archive."),
}


def help_text(name: str) -> str:
    args, summary = _USAGE.get(name, ("[OPTION]...", ""))
    return f"Usage: {name} {args}\n{summary}\n"


def version_text(name: str) -> str:
    return _PACKAGES.get(name, f"{name} (GNU coreutils) 9.1") + "\n"


def with_help(name: str, command: Command) -> Command:
    """Wrap ``command`` so ``--help``/``--version`` before ``--`` answer on stdout."""

    def run(ctx: CommandContext, argv: list[str]) -> CommandResult:
        for arg in argv[1:]:
            if arg == "--":
                break
            if arg in ("--help", "--version"):
                yield (help_text(name) if arg == "--help" else version_text(name)).encode("utf-8", "surrogateescape")
                return 0
        return (yield from command(ctx, argv))

    return run
