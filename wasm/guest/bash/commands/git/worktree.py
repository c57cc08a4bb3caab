"""The subcommands that move files between the working tree, the index and commits:
``status``, ``add``, ``rm``, ``commit``, ``restore``, and the file form of ``checkout``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from .diffs import line_counts, summary_line
from .repo import FileState, GitError, dec
from .session import Git, glob_like, matches, split_flags
from ... import fs

_LABELS = {"A": "new file:", "M": "modified:", "D": "deleted:", "T": "typechange:"}


@dataclass
class Changes:
    head: dict[str, FileState]
    index: dict[str, FileState]
    work: dict[str, FileState]
    untracked: list[str]
    """Untracked files, a wholly untracked directory as ``dir/``."""

    def staged(self) -> dict[str, str]:
        return _kinds(self.head, self.index)

    def unstaged(self) -> dict[str, str]:
        return {p: k for p, k in _kinds(self.index, self.work, only=set(self.index)).items()}


def _kinds(old: dict[str, FileState], new: dict[str, FileState], only: set[str] | None = None) -> dict[str, str]:
    kinds: dict[str, str] = {}
    for path in sorted(set(old) | set(new) if only is None else only):
        a, b = old.get(path), new.get(path)
        if a == b:
            continue
        if a is None:
            kinds[path] = "A"
        elif b is None:
            kinds[path] = "D"
        elif (a[0] == 0o120000) != (b[0] == 0o120000):
            kinds[path] = "T"
        else:
            kinds[path] = "M"
    return kinds


def collect(git: Git) -> Changes:
    repo = git.repo
    head = repo.commit_files(repo.head())
    index = repo.index_files()
    all_files = list(repo.walk_worktree())
    tracked = [p for p in all_files if p in index]
    work = repo.worktree_states(tracked)
    ignores = repo.ignores()
    tracked_dirs = {d for p in index for d in _parents(p)}
    shown: list[str] = []
    seen: set[str] = set()
    for path in all_files:
        if path in index or _ignored(ignores, path):
            continue
        top = path
        for parent in _parents(path):
            if parent not in tracked_dirs:
                top = parent + "/"
                break
        if top not in seen:
            seen.add(top)
            shown.append(top)
    return Changes(head, index, work, shown)


def _parents(path: str) -> list[str]:
    """``a/b/c`` -> ``['a', 'a/b']`` (outermost first)."""
    parts = path.split("/")[:-1]
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]


def _ignored(ignores: object, path: str) -> bool:
    check = getattr(ignores, "is_ignored")
    if check(path):
        return True
    return any(check(parent + "/") for parent in _parents(path))


def status(git: Git, args: list[str]) -> int:
    short = porcelain = branch_line = False
    for arg in split_flags(args):
        if arg in ("-s", "--short"):
            short = True
        elif arg in ("--porcelain", "--porcelain=v1"):
            short = porcelain = True
        elif arg in ("-b", "--branch"):
            branch_line = True
        elif arg == "--long":
            short = False
        elif arg == "--":
            continue
        else:
            raise GitError(f"error: unsupported option for status in the sandbox's git: '{arg}'", 1)
    changes = collect(git)
    if short:
        _short_status(git, changes, branch_line, porcelain)
    else:
        git.out.extend(long_status(git, changes))
    return 0


def _short_status(git: Git, changes: Changes, branch_line: bool, porcelain: bool) -> None:
    repo = git.repo
    if branch_line:
        name = repo.branch()
        if name is None:
            git.print("## HEAD (no branch)")
        elif repo.head() is None:
            git.print(f"## No commits yet on {name}")
        else:
            git.print(f"## {name}")
    staged, unstaged = changes.staged(), changes.unstaged()
    show = (lambda p: p) if porcelain else git.shown
    for path in sorted(set(staged) | set(unstaged)):
        git.print(f"{staged.get(path, ' ')}{unstaged.get(path, ' ')} {show(path)}")
    for path in changes.untracked:
        git.print(f"?? {show(path)}")


def long_status(git: Git, changes: Changes, committing: bool = False) -> list[bytes]:
    """The long format; ``git commit`` with nothing to commit prints it saying "Initial
    commit" where ``status`` says "No commits yet"."""
    repo = git.repo
    lines: list[str] = []
    name = repo.branch()
    head = repo.head()
    if name is not None:
        lines.append(f"On branch {name}")
    else:
        lines.append(f"HEAD detached at {head[:7] if head else '?'}")
    if head is None:
        lines += ["", "Initial commit" if committing else "No commits yet", ""]
    staged, unstaged = changes.staged(), changes.unstaged()
    if staged:
        hint = "git rm --cached <file>..." if head is None else "git restore --staged <file>..."
        lines += ["Changes to be committed:", f'  (use "{hint}" to unstage)']
        lines += [f"\t{_LABELS[k]:<12}{git.shown(p)}" for p, k in staged.items()]
        lines.append("")
    if unstaged:
        verb = "git add/rm" if "D" in unstaged.values() else "git add"
        lines += ["Changes not staged for commit:",
                  f'  (use "{verb} <file>..." to update what will be committed)',
                  '  (use "git restore <file>..." to discard changes in working directory)']
        lines += [f"\t{_LABELS[k]:<12}{git.shown(p)}" for p, k in unstaged.items()]
        lines.append("")
    if changes.untracked:
        lines += ["Untracked files:", '  (use "git add <file>..." to include in what will be committed)']
        lines += [f"\t{git.shown(p)}" for p in changes.untracked]
        lines.append("")
    if not staged:
        if unstaged:
            lines.append('no changes added to commit (use "git add" and/or "git commit -a")')
        elif changes.untracked:
            lines.append('nothing added to commit but untracked files present (use "git add" to track)')
        elif head is None:
            lines.append('nothing to commit (create/copy files and use "git add" to track)')
        else:
            lines.append("nothing to commit, working tree clean")
    return [(line + "\n").encode("utf-8", "surrogateescape") for line in lines]


def add(git: Git, args: list[str]) -> int:
    every = update = force = dry = False
    specs: list[str] = []
    for arg in split_flags(args):
        if arg in ("-A", "--all"):
            every = True
        elif arg in ("-u", "--update"):
            update = True
        elif arg in ("-f", "--force"):
            force = True
        elif arg in ("-n", "--dry-run"):
            dry = True
        elif arg in ("-v", "--verbose", "--"):
            continue
        elif arg.startswith("-") and arg != "-":
            raise GitError(f"error: unsupported option for add in the sandbox's git: '{arg}'", 1)
        else:
            specs.append(arg)
    if not specs and not every and not update:
        git.warn("Nothing specified, nothing added.\n"
                 "hint: Maybe you wanted to say 'git add .'?\n"
                 "hint: Turn this message off by running\n"
                 'hint: "git config advice.addEmptyPathspec false"')
        return 0
    repo = git.repo
    paths = [git.to_repo_path(s) for s in specs] if specs else [""]
    index = repo.index_files()
    files = list(repo.walk_worktree())
    ignores = repo.ignores()
    refused: list[str] = []
    for spec, path in zip(specs or ["."], paths):
        hit = [p for p in files if matches(p, [path])]
        gone = [p for p in index if matches(p, [path]) and p not in files]
        if not hit and not gone:
            raise GitError(f"fatal: pathspec '{spec}' did not match any files")
        if len(hit) == 1 and hit[0] == path and path not in index and _ignored(ignores, path) and not force:
            refused.append(spec)
    if refused:
        raise GitError("The following paths are ignored by one of your .gitignore files:\n"
                       + "\n".join(refused) + "\nhint: Use -f if you really want to add them.\n"
                       'hint: Turn this message off by running\nhint: "git config advice.addIgnoredFile false"', 1)
    for path in files:
        if not matches(path, paths):
            continue
        if path not in index and (update or (_ignored(ignores, path) and not force and path not in paths)):
            continue
        got = repo.read_worktree_file(path)
        if got is None:
            continue
        state, data = got
        if index.get(path) != state:
            if dry:
                git.print(f"add '{path}'")
                continue
            repo.add_blob(data)
            repo.stage(path, state)
    for path in [p for p in index if matches(p, paths) and p not in files]:
        if dry:
            git.print(f"remove '{path}'")
        else:
            repo.stage(path, None)
    if not dry:
        repo.write_index()
    return 0


def rm(git: Git, args: list[str]) -> int:
    cached = recursive = force = quiet = False
    specs: list[str] = []
    for arg in split_flags(args):
        if arg == "--cached":
            cached = True
        elif arg == "-r":
            recursive = True
        elif arg in ("-f", "--force"):
            force = True
        elif arg in ("-q", "--quiet"):
            quiet = True
        elif arg == "--":
            continue
        elif arg.startswith("-"):
            raise GitError(f"error: unsupported option for rm in the sandbox's git: '{arg}'", 1)
        else:
            specs.append(arg)
    if not specs:
        raise GitError("usage: git rm [<options>] [--] <file>...", 129)
    repo = git.repo
    index = repo.index_files()
    chosen: list[str] = []
    for spec in specs:
        path = git.to_repo_path(spec)
        hit = [p for p in index if matches(p, [path])]
        if not hit:
            raise GitError(f"fatal: pathspec '{spec}' did not match any files")
        if not recursive and path not in index and not glob_like(spec):
            raise GitError(f"fatal: not removing '{spec}' recursively without -r")
        chosen += hit
    head = repo.commit_files(repo.head())
    if not force and not cached:
        changed = [p for p in chosen if index[p] != head.get(p)
                   or repo.worktree_states([p]).get(p, index[p]) != index[p]]
        if changed:
            raise GitError("error: the following file has local modifications:\n    "
                           + "\n    ".join(changed)
                           + "\n(use --cached to keep the file, or -f to force removal)", 1)
    for path in sorted(set(chosen)):
        if not quiet:
            git.print(f"rm '{path}'")
        repo.stage(path, None)
        if not cached:
            repo.remove_worktree_file(path)
    repo.write_index()
    return 0


def clean_message(parts: list[str]) -> str:
    """``-m`` messages as git stores them: paragraphs, trailing blanks and runs of empty
    lines removed (the ``whitespace`` cleanup), ending in a newline."""
    lines = "\n\n".join(parts).split("\n")
    kept: list[str] = []
    for line in (ln.rstrip() for ln in lines):
        if line == "" and (not kept or kept[-1] == ""):
            continue
        kept.append(line)
    while kept and kept[-1] == "":
        kept.pop()
    return "\n".join(kept) + "\n" if kept else ""


def commit(git: Git, args: list[str]) -> int:
    messages: list[str] = []
    every = allow_empty = quiet = amend = False
    args = split_flags(args, "m")
    k = 0
    while k < len(args):
        arg = args[k]
        if arg in ("-m", "--message") and k + 1 < len(args):
            messages.append(args[k + 1])
            k += 1
        elif arg.startswith("--message="):
            messages.append(arg.split("=", 1)[1])
        elif arg in ("-a", "--all"):
            every = True
        elif arg == "--allow-empty":
            allow_empty = True
        elif arg in ("-q", "--quiet"):
            quiet = True
        elif arg == "--amend":
            amend = True
        elif arg == "--no-edit":
            pass
        else:
            raise GitError(f"error: unsupported option for commit in the sandbox's git: '{arg}'", 1)
        k += 1
    repo = git.repo
    head = repo.head()
    if amend and head is None:
        raise GitError("fatal: You have nothing to amend.")
    if every:
        index = repo.index_files()
        for path in index:
            got = repo.read_worktree_file(path)
            if got is None:
                repo.stage(path, None)
            elif got[0] != index[path]:
                repo.add_blob(got[1])
                repo.stage(path, got[0])
        repo.write_index()
    old = repo.commit(head) if head else None
    if not messages:
        if amend and old is not None:
            messages = [dec(old.message)]
        else:
            raise GitError("error: no commit message given: use -m (the sandbox has no editor)", 1)
    message = clean_message(messages)
    parents = [dec(p) for p in old.parents] if amend and old is not None else ([head] if head else [])
    base = repo.commit_files(parents[0] if parents else None)
    staged = repo.index_files()
    if staged == repo.commit_files(head) and not allow_empty and not amend:
        git.out.extend(long_status(git, collect(git), committing=True))
        return 1
    if not message:
        git.warn("Aborting commit due to empty commit message.")
        return 1
    tree = repo.write_tree(staged)
    author = git.identity("AUTHOR")
    if amend and old is not None:
        author.name, _, rest = dec(old.author).partition(" <")
        author.email = rest.rstrip(">")
        author.when, author.tz = old.author_time, old.author_timezone
    sha = repo.make_commit(tree, parents, author, git.identity("COMMITTER"), message.encode("utf-8", "surrogateescape"))
    repo.update_head(sha)
    if not quiet:
        _commit_summary(git, sha, message, not parents, base, staged)
    return 0


def _commit_summary(git: Git, sha: str, message: str, root: bool, old: dict[str, FileState],
                    new: dict[str, FileState]) -> None:
    repo = git.repo
    name = repo.branch()
    where = f"{name}{' (root-commit)' if root else ''}" if name else "detached HEAD"
    subject = " ".join(message.strip().split("\n\n")[0].split("\n"))
    git.print(f"[{where} {sha[:7]}] {subject}")
    changed = [p for p in sorted(set(old) | set(new)) if old.get(p) != new.get(p)]
    if not changed:
        return
    plus = minus = 0
    for path in changed:
        a, b = old.get(path), new.get(path)
        added, removed = line_counts(repo.blob_data(a[1]) if a else b"", repo.blob_data(b[1]) if b else b"")
        plus, minus = plus + added, minus + removed
    git.print(summary_line(len(changed), plus, minus))
    for path in changed:
        a, b = old.get(path), new.get(path)
        if a is None and b is not None:
            git.print(f" create mode {b[0]:o} {path}")
        elif b is None and a is not None:
            git.print(f" delete mode {a[0]:o} {path}")
        elif a is not None and b is not None and a[0] != b[0]:
            git.print(f" mode change {a[0]:o} => {b[0]:o} {path}")


def restore(git: Git, args: list[str]) -> int:
    staged = worktree = False
    source: str | None = None
    specs: list[str] = []
    args = split_flags(args, "s")
    k = 0
    while k < len(args):
        arg = args[k]
        if arg in ("-S", "--staged"):
            staged = True
        elif arg in ("-W", "--worktree"):
            worktree = True
        elif arg in ("-s", "--source") and k + 1 < len(args):
            source = args[k + 1]
            k += 1
        elif arg.startswith("--source="):
            source = arg.split("=", 1)[1]
        elif arg == "--":
            pass
        elif arg.startswith("-"):
            raise GitError(f"error: unsupported option for restore in the sandbox's git: '{arg}'", 1)
        else:
            specs.append(arg)
        k += 1
    if not specs:
        raise GitError("fatal: you must specify path(s) to restore")
    if not staged:
        worktree = True
    repo = git.repo
    if source is not None:
        origin = repo.commit_files(git.resolve(source))
    elif staged:
        origin = repo.commit_files(repo.head())
    else:
        origin = repo.index_files()
    restore_paths(git, specs, origin, index=staged, worktree=worktree)
    return 0


def restore_paths(git: Git, specs: list[str], origin: dict[str, FileState], *, index: bool,
                  worktree: bool) -> int:
    """Put the files of ``specs`` back as ``origin`` has them (in the index, the working
    tree or both); a file ``origin`` lacks is removed. Returns how many paths changed."""
    repo = git.repo
    current = repo.index_files()
    paths: list[str] = []
    for spec in specs:
        path = git.to_repo_path(spec)
        hit = sorted({p for p in set(origin) | set(current) if matches(p, [path])})
        if not hit:
            raise GitError(f"error: pathspec '{spec}' did not match any file(s) known to git", 1)
        paths += hit
    count = 0
    for path in sorted(set(paths)):
        state = origin.get(path)
        if index:
            repo.stage(path, state)
        if worktree:
            if state is None:
                if not index and path in current:
                    continue
                repo.remove_worktree_file(path)
            else:
                repo.write_worktree_file(path, state)
            count += 1
    if index:
        repo.write_index()
    return count


def config(git: Git, args: list[str]) -> int:
    scope_global = False
    rest: list[str] = []
    get = listing = unset = False
    for arg in args:
        if arg == "--global":
            scope_global = True
        elif arg == "--local":
            scope_global = False
        elif arg == "--get":
            get = True
        elif arg in ("-l", "--list"):
            listing = True
        elif arg == "--unset":
            unset = True
        elif arg.startswith("-"):
            raise GitError(f"error: unsupported option for config in the sandbox's git: '{arg}'", 1)
        else:
            rest.append(arg)
    from dulwich.config import ConfigFile

    if scope_global:
        path = git.ctx.host_path(os.path.join(git.ctx.env.get("HOME", "/"), ".gitconfig"))
    else:
        path = os.path.join(git.repo.gitdir, "config")
    conf = ConfigFile.from_path(path) if fs.isfile(path) else ConfigFile()
    if listing:
        for section in conf.sections():
            for key, value in conf.items(section):
                name = ".".join(dec(s) for s in section) + "." + dec(key)
                git.print(f"{name.lower()}={dec(value)}")
        return 0
    if not rest or not re.fullmatch(r"[A-Za-z][\w-]*(\.[^.]+)*\.[A-Za-z][\w-]*", rest[0]):
        raise GitError(f"error: key does not contain a section: {rest[0] if rest else ''}", 1 if rest else 129)
    dotted, _, option = rest[0].rpartition(".")
    head, _, sub = dotted.partition(".")
    sect = (head.encode(), sub.encode()) if sub else (head.encode(),)
    if get or len(rest) == 1:
        found = git.setting(rest[0]) if not scope_global else _get(conf, sect, option)
        if found is None:
            return 1
        git.print(found)
        return 0
    if unset:
        raise GitError("error: --unset is not supported by the sandbox's git", 1)
    conf.set(sect, option.encode(), rest[1].encode("utf-8", "surrogateescape"))
    fs.makedirs(os.path.dirname(path), exist_ok=True)
    conf.write_to_path(path)
    return 0


def _get(conf: object, section: tuple[bytes, ...], key: str) -> str | None:
    try:
        return dec(getattr(conf, "get")(section, key.encode()))
    except KeyError:
        return None
