"""``git`` over the workspace: a repository whose ``.git`` lives in the workspace (so it
persists across calls like any other file), read and written in git's own format.

``repo.py`` is the on-disk layer (over dulwich's object store, refs, index and config),
``session.py`` what every subcommand shares (revisions, pathspecs, identities, dates),
``worktree.py`` status/add/rm/commit/restore/config, ``history.py`` log/show/diff,
``branches.py`` init/branch/checkout/switch, ``diffs.py`` the patch format. Output follows
git 2.39 without a terminal (no colours, pager or decorations). There is no network and no
editor: remote subcommands say the network is off, a commit needs ``-m``; anything else not
offered exits 1 saying so.
"""

from __future__ import annotations

import dataclasses
from typing import Callable

from dulwich.errors import ObjectFormatException

from ..base import Command, CommandContext, CommandResult
from . import branches, history, worktree
from .repo import GitError
from .session import Git

Subcommand = Callable[[Git, list[str]], int]

SUBCOMMANDS: dict[str, Subcommand] = {
    "init": branches.init, "branch": branches.branch, "checkout": branches.checkout,
    "switch": branches.switch, "status": worktree.status, "add": worktree.add,
    "rm": worktree.rm, "commit": worktree.commit, "restore": worktree.restore,
    "config": worktree.config, "log": history.log, "show": history.show, "diff": history.diff,
}

REMOTE = frozenset({"clone", "fetch", "pull", "push", "remote", "ls-remote", "submodule", "send-email",
                    "request-pull", "archive"})

VERSION = "git version 2.39.5 (the sandbox's git, over dulwich)"


def git_command(ctx: CommandContext, argv: list[str]) -> CommandResult:
    overrides: dict[str, str] = {}
    args = argv[1:]
    while args and args[0].startswith("-"):
        opt = args.pop(0)
        if opt == "-c" and args:
            name, _, value = args.pop(0).partition("=")
            overrides[name.lower()] = value or "true"
        elif opt == "-C" and args:
            ctx = dataclasses.replace(ctx, cwd=ctx.resolve(args.pop(0)))
        elif opt in ("--no-pager", "-P", "--no-optional-locks"):
            continue
        elif opt == "--version":
            yield (VERSION + "\n").encode()
            return 0
        else:
            ctx.error(f"unknown option: {opt}\nusage: git [-c <name>=<value>] [-C <path>] <command> [<args>]")
            return 129
    if not args:
        ctx.error("usage: git [-c <name>=<value>] [-C <path>] <command> [<args>]\n\n"
                  "commands in the sandbox: " + " ".join(sorted(SUBCOMMANDS)))
        return 1
    name, rest = args[0], args[1:]
    if name == "version":
        yield (VERSION + "\n").encode()
        return 0
    if name in REMOTE:
        ctx.error(f"fatal: network is off: 'git {name}' needs a remote, and the sandbox has no network")
        return 1
    sub = SUBCOMMANDS.get(name)
    if sub is None:
        ctx.error(f"git: '{name}' is not a git command the sandbox offers "
                  f"(offered: {' '.join(sorted(SUBCOMMANDS))})")
        return 1
    git = Git(ctx, overrides)
    try:
        try:
            status = sub(git, rest)
        finally:
            git.close()
    except GitError as exc:
        if git.out:
            yield b"".join(git.out)
        ctx.error(exc.message)
        return exc.status
    except OSError as exc:
        if git.out:
            yield b"".join(git.out)
        ctx.error(f"fatal: {exc.strerror or exc}")
        return 128
    except (ObjectFormatException, KeyError, ValueError, AssertionError) as exc:
        # a damaged repository (a missing or malformed object, index or ref)
        if git.out:
            yield b"".join(git.out)
        ctx.error(f"fatal: the repository is damaged or in a form the sandbox's git cannot read: {exc!r}")
        return 128
    if git.out:
        yield b"".join(git.out)
    return status


COMMANDS: dict[str, Command] = {"git": git_command}

__all__ = ["COMMANDS"]
