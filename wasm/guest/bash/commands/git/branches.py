"""The subcommands that make repositories and move between branches: ``init``,
``branch``, ``checkout`` and ``switch``."""

from __future__ import annotations

import re

from dulwich.objects import ObjectID
from dulwich.refs import Ref

from .repo import DEFAULT_BRANCH, FileState, GitError, Repository, dec
from .session import Git, split_flags
from .worktree import collect, restore_paths
from ... import fs

_BAD_NAME = re.compile(r"(^[-/.])|(\.\.)|([\s~^:?*\[\\])|(/$)|(\.lock$)|(@\{)|(^@$)|(//)")


def init(git: Git, args: list[str]) -> int:
    quiet = False
    branch: str | None = None
    target: str | None = None
    args = split_flags(args, "b")
    k = 0
    while k < len(args):
        arg = args[k]
        if arg in ("-q", "--quiet"):
            quiet = True
        elif arg in ("-b", "--initial-branch") and k + 1 < len(args):
            branch = args[k + 1]
            k += 1
        elif arg.startswith("--initial-branch="):
            branch = arg.split("=", 1)[1]
        elif arg.startswith("-"):
            raise GitError(f"error: unsupported option for init in the sandbox's git: '{arg}'", 1)
        else:
            target = arg
        k += 1
    virtual = git.ctx.resolve(target or ".")
    real = git.ctx.host_path(virtual)
    fs.makedirs(real, exist_ok=True)
    default = git.setting("init.defaultBranch")
    name = branch or default or DEFAULT_BRANCH
    _check_name(name)
    _repo, existed = Repository.init(real, virtual, name)
    if not existed and branch is None and default is None and not quiet:
        git.warn(_DEFAULT_BRANCH_HINT)
    if not quiet:
        where = virtual.rstrip("/") + "/.git/"
        git.print(f"{'Reinitialized existing' if existed else 'Initialized empty'} Git repository in {where}")
    return 0


_DEFAULT_BRANCH_HINT = """hint: Using 'master' as the name for the initial branch. This default branch name
hint: is subject to change. To configure the initial branch name to use in all
hint: of your new repositories, which will suppress this warning, call:
hint: 
hint: 	git config --global init.defaultBranch <name>
hint: 
hint: Names commonly chosen instead of 'master' are 'main', 'trunk' and
hint: 'development'. The just-created branch can be renamed via this command:
hint: 
hint: 	git branch -m <name>"""


def _check_name(name: str) -> None:
    if not name or _BAD_NAME.search(name):
        raise GitError(f"fatal: '{name}' is not a valid branch name")


def _is_ancestor(git: Git, ancestor: str, descendant: str | None) -> bool:
    if descendant is None:
        return False
    stack, seen = [descendant], set()
    while stack:
        sha = stack.pop()
        if sha == ancestor:
            return True
        if sha in seen:
            continue
        seen.add(sha)
        stack.extend(dec(p) for p in git.repo.commit(sha).parents)
    return False


def branch(git: Git, args: list[str]) -> int:
    delete = force = move = show_current = False
    names: list[str] = []
    for arg in split_flags(args):
        if arg in ("-d", "--delete"):
            delete = True
        elif arg == "-D":
            delete = force = True
        elif arg in ("-f", "--force"):
            force = True
        elif arg in ("-m", "--move"):
            move = True
        elif arg == "--show-current":
            show_current = True
        elif arg in ("-l", "--list"):
            continue
        elif arg.startswith("-"):
            raise GitError(f"error: unsupported option for branch in the sandbox's git: '{arg}'", 1)
        else:
            names.append(arg)
    repo = git.repo
    if show_current:
        current = repo.branch()
        if current:
            git.print(current)
        return 0
    if delete:
        return _delete(git, names, force)
    if move:
        return _rename(git, names)
    if not names:
        current = repo.branch()
        head = repo.head()
        if current is None and head is not None:
            git.print(f"* (HEAD detached at {head[:7]})")
        for name in repo.branches():
            git.print(("* " if name == current else "  ") + name)
        return 0
    name = names[0]
    _check_name(name)
    start = git.try_resolve(names[1]) if len(names) > 1 else repo.head()
    if start is None:
        raise GitError(f"fatal: not a valid object name: '{names[1] if len(names) > 1 else repo.branch()}'")
    if repo.branch_commit(name) is not None and not force:
        raise GitError(f"fatal: a branch named '{name}' already exists")
    repo.set_ref(f"refs/heads/{name}", start)
    return 0


def _delete(git: Git, names: list[str], force: bool) -> int:
    repo = git.repo
    if not names:
        raise GitError("fatal: branch name required")
    status = 0
    for name in names:
        sha = repo.branch_commit(name)
        if sha is None:
            git.warn(f"error: branch '{name}' not found.")
            status = 1
            continue
        if name == repo.branch():
            git.warn(f"error: Cannot delete branch '{name}' checked out at '{repo.top_virtual}'")
            status = 1
            continue
        if not force and not _is_ancestor(git, sha, repo.head()):
            git.warn(f"error: The branch '{name}' is not fully merged.\n"
                     f"If you are sure you want to delete it, run 'git branch -D {name}'.")
            status = 1
            continue
        repo.delete_branch(name)
        git.print(f"Deleted branch {name} (was {sha[:7]}).")
    return status


def _rename(git: Git, names: list[str]) -> int:
    repo = git.repo
    if len(names) == 1:
        old, new = repo.branch(), names[0]
    elif len(names) == 2:
        old, new = names
    else:
        raise GitError("fatal: too many arguments for a rename operation")
    if old is None:
        raise GitError("fatal: cannot rename the current branch while not on any")
    _check_name(new)
    sha = repo.branch_commit(old)
    if repo.branch_commit(new) is not None:
        raise GitError(f"fatal: a branch named '{new}' already exists")
    if sha is not None:
        repo.set_ref(f"refs/heads/{new}", sha)
        repo.delete_branch(old)
    elif old != repo.branch():
        raise GitError(f"error: refname refs/heads/{old} not found", 1)
    if old == repo.branch():
        repo.set_head_branch(new)
    return 0


def checkout(git: Git, args: list[str]) -> int:
    create = force_create = quiet = False
    rest: list[str] = []
    paths: list[str] | None = None
    for n, arg in enumerate(args):
        if arg == "--":
            paths = args[n + 1 :]
            break
        if arg == "-b":
            create = True
        elif arg == "-B":
            create = force_create = True
        elif arg in ("-q", "--quiet"):
            quiet = True
        elif arg.startswith("-"):
            raise GitError(f"error: unsupported option for checkout in the sandbox's git: '{arg}'", 1)
        else:
            rest.append(arg)
    repo = git.repo
    if paths is not None or (not create and rest and repo.branch_commit(rest[0]) is None
                             and git.try_resolve(rest[0]) is None):
        return _checkout_paths(git, rest if paths is None else rest, paths, quiet)
    if not rest:
        raise GitError("error: the sandbox's git needs a branch or paths for checkout", 1)
    if create:
        return switch_to(git, rest[0], rest[1] if len(rest) > 1 else None, create=True,
                         force_create=force_create, quiet=quiet)
    return switch_to(git, rest[0], None, create=False, quiet=quiet)


def _checkout_paths(git: Git, revs: list[str], paths: list[str] | None, quiet: bool) -> int:
    repo = git.repo
    if paths is None:
        specs, source = revs, None
    else:
        specs, source = paths, (revs[0] if revs else None)
    if source is not None:
        sha = git.resolve(source)
        count = restore_paths(git, specs, repo.commit_files(sha), index=True, worktree=True)
        where = sha[:7]
    else:
        count = restore_paths(git, specs, repo.index_files(), index=False, worktree=True)
        where = "the index"
    if not quiet:
        git.warn(f"Updated {count} path{'s' if count != 1 else ''} from {where}")
    return 0


def switch(git: Git, args: list[str]) -> int:
    create = quiet = False
    rest: list[str] = []
    for arg in args:
        if arg in ("-c", "--create"):
            create = True
        elif arg in ("-q", "--quiet"):
            quiet = True
        elif arg.startswith("-"):
            raise GitError(f"error: unsupported option for switch in the sandbox's git: '{arg}'", 1)
        else:
            rest.append(arg)
    if not rest:
        raise GitError("fatal: missing branch or commit argument")
    return switch_to(git, rest[0], rest[1] if len(rest) > 1 else None, create=create, quiet=quiet)


def switch_to(git: Git, name: str, start: str | None, *, create: bool, quiet: bool,
              force_create: bool = False) -> int:
    repo = git.repo
    current = repo.branch()
    head = repo.head()
    if create:
        _check_name(name)
        if repo.branch_commit(name) is not None and not force_create:
            raise GitError(f"fatal: a branch named '{name}' already exists")
        target = git.resolve(start) if start else head
        if target is None and start is None:
            repo.set_head_branch(name)  # an unborn branch, as on a fresh repository
            if not quiet:
                git.warn(f"Switched to a new branch '{name}'")
            return 0
        assert target is not None
        _move_worktree(git, head, target)
        repo.set_ref(f"refs/heads/{name}", target)
        repo.set_head_branch(name)
        if not quiet:
            git.warn(f"Switched to a new branch '{name}'")
        return 0
    target = repo.branch_commit(name)
    if target is None:
        sha = git.try_resolve(name)
        if sha is None:
            raise GitError(f"error: pathspec '{name}' did not match any file(s) known to git", 1)
        _move_worktree(git, head, sha)
        repo.refs.set_if_equals(Ref(b"HEAD"), None, ObjectID(sha.encode()))
        if not quiet:
            subject = repo.commit(sha).message.decode("utf-8", "replace").split("\n")[0]
            git.warn(f"Note: switching to '{name}'.\n\nYou are in 'detached HEAD' state.\n\n"
                     f"HEAD is now at {sha[:7]} {subject}")
        return 0
    if name == current:
        if not quiet:
            git.warn(f"Already on '{name}'")
        return 0
    _move_worktree(git, head, target)
    repo.set_head_branch(name)
    if not quiet:
        git.warn(f"Switched to branch '{name}'")
    return 0


def _move_worktree(git: Git, old_sha: str | None, new_sha: str) -> None:
    """Turn the index and working tree from ``old_sha``'s files into ``new_sha``'s,
    keeping local changes to files the two commits agree on (listed as git does), and
    refusing when a local change would be overwritten."""
    repo = git.repo
    changes = collect(git)
    old, new = changes.head, repo.commit_files(new_sha)
    dirty = set(changes.staged()) | set(changes.unstaged())
    moving = [p for p in sorted(set(old) | set(new)) if old.get(p) != new.get(p)]
    blocked = [p for p in moving if p in dirty and changes.index.get(p) != new.get(p)]
    untracked = [p for p in moving if p not in old and p in new and p not in changes.index
                 and fs.lexists(repo.real(p))]
    if blocked:
        raise GitError("error: Your local changes to the following files would be overwritten by checkout:\n\t"
                       + "\n\t".join(git.shown(p) for p in blocked)
                       + "\nPlease commit your changes or stash them before you switch branches.\nAborting", 1)
    if untracked:
        raise GitError("error: The following untracked working tree files would be overwritten by checkout:\n\t"
                       + "\n\t".join(git.shown(p) for p in untracked)
                       + "\nPlease move or remove them before you switch branches.\nAborting", 1)
    for path in moving:
        if path in dirty:
            continue
        state: FileState | None = new.get(path)
        repo.stage(path, state)
        if state is None:
            repo.remove_worktree_file(path)
        else:
            repo.write_worktree_file(path, state)
            repo.stage(path, state)
    repo.write_index()
    for path in sorted(dirty):
        kind = changes.unstaged().get(path) or changes.staged().get(path)
        if kind:
            git.print(f"{kind}\t{git.shown(path)}")
