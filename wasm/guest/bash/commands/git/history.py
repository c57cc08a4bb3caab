"""The subcommands that read history: ``log``, ``show`` and ``diff``."""

from __future__ import annotations

import heapq
import re

from dulwich.objects import Blob, Commit, Tree

from .diffs import Side, patch
from .repo import FileState, GitError, dec
from .session import Git, format_date, leading_int, matches, split_flags
from ... import fs


def _split_paths(git: Git, args: list[str]) -> tuple[list[str], list[str]]:
    """Revisions and pathspecs: everything after ``--`` is a path; before it, what does
    not name a revision but exists as a file is one too."""
    if "--" in args:
        cut = args.index("--")
        return args[:cut], [git.to_repo_path(a) for a in args[cut + 1 :]]
    revs: list[str] = []
    paths: list[str] = []
    for arg in args:
        if not paths and all(git.try_resolve(side or "HEAD") is not None for side in arg.split("..", 1)):
            revs.append(arg)
        else:
            import os

            if not fs.lexists(git.ctx.host_path(arg)):
                git.resolve(arg)
            paths.append(git.to_repo_path(arg))
    return revs, paths


def _message_lines(commit: Commit) -> list[str]:
    text = commit.message.decode("utf-8", "surrogateescape").rstrip("\n")
    return text.split("\n") if text else []


def _subject(commit: Commit) -> str:
    return " ".join(commit.message.decode("utf-8", "surrogateescape").strip().split("\n\n")[0].split("\n"))


def _header(git: Git, sha: str, commit: Commit) -> None:
    git.print(f"commit {sha}")
    if len(commit.parents) > 1:
        git.print("Merge: " + " ".join(dec(p)[:7] for p in commit.parents))
    git.print(f"Author: {dec(commit.author)}")
    git.print(f"Date:   {format_date(commit.author_time, commit.author_timezone)}")
    git.print()
    for line in _message_lines(commit):
        git.print("    " + line)


def _person(raw: bytes) -> tuple[str, str]:
    text = dec(raw)
    name, _, rest = text.partition(" <")
    return name, rest.rstrip(">")


def format_commit(git: Git, fmt: str, sha: str, commit: Commit) -> str:
    """``--format``/``--pretty=format:`` placeholders."""
    author, committer = _person(commit.author), _person(commit.committer)
    body = commit.message.decode("utf-8", "surrogateescape")
    subject = _subject(commit)
    rest = body.strip().split("\n\n", 1)
    values = {
        "H": sha, "h": sha[:7], "T": dec(commit.tree), "t": dec(commit.tree)[:7],
        "P": " ".join(dec(p) for p in commit.parents), "p": " ".join(dec(p)[:7] for p in commit.parents),
        "an": author[0], "ae": author[1], "cn": committer[0], "ce": committer[1],
        "ad": format_date(commit.author_time, commit.author_timezone),
        "cd": format_date(commit.commit_time, commit.commit_timezone),
        "at": str(commit.author_time), "ct": str(commit.commit_time),
        "s": subject, "b": (rest[1].rstrip("\n") + "\n") if len(rest) > 1 else "", "B": body,
        "n": "\n", "%": "%",
    }

    def fill(m: re.Match[str]) -> str:
        return str(values.get(m.group(1), m.group(0)))

    return re.sub(r"%(an|ae|cn|ce|ad|cd|at|ct|[HhTtPpsbBn%])", fill, fmt)


def _walk(git: Git, starts: list[str]) -> list[str]:
    """Commits reachable from ``starts``, newest commit time first (as ``git log``)."""
    repo = git.repo
    seen: set[str] = set()
    heap: list[tuple[int, int, str]] = []
    order = 0
    for sha in starts:
        if sha not in seen:
            seen.add(sha)
            heapq.heappush(heap, (-repo.commit(sha).commit_time, order, sha))
            order += 1
    result: list[str] = []
    while heap:
        _t, _o, sha = heapq.heappop(heap)
        result.append(sha)
        for parent in repo.commit(sha).parents:
            p = dec(parent)
            if p not in seen:
                seen.add(p)
                heapq.heappush(heap, (-repo.commit(p).commit_time, order, p))
                order += 1
    return result


def _touches(git: Git, sha: str, paths: list[str]) -> bool:
    repo = git.repo
    commit = repo.commit(sha)
    mine = repo.tree_files(dec(commit.tree))
    parent = repo.commit_files(dec(commit.parents[0])) if commit.parents else {}
    return any(mine.get(p) != parent.get(p) for p in set(mine) | set(parent) if matches(p, paths))


def log(git: Git, args: list[str]) -> int:
    limit: int | None = None
    fmt: str | None = None
    separator = False
    """``--pretty=format:`` puts newlines between entries, not after each."""
    patches = False
    rest: list[str] = []
    args = split_flags(args, "n")
    k = 0
    while k < len(args):
        arg = args[k]
        if arg == "--oneline":
            fmt = "%h %s"
        elif arg in ("-n", "--max-count") and k + 1 < len(args):
            limit = _count(args[k + 1])
            k += 1
        elif arg.startswith("--max-count="):
            limit = _count(arg.split("=", 1)[1])
        elif re.fullmatch(r"-n?\d+", arg):
            limit = int(arg.lstrip("-n"))
        elif arg.startswith(("--format=", "--pretty=format:", "--pretty=tformat:")):
            separator = arg.startswith("--pretty=format:")
            fmt = arg.split("=", 1)[1].split(":", 1)[-1] if arg.startswith("--pretty") else arg.split("=", 1)[1]
        elif arg in ("--pretty=oneline", "--format=oneline"):
            fmt = "%H %s"
        elif arg in ("-p", "--patch"):
            patches = True
        elif arg.startswith("-") and arg != "--":
            raise GitError(f"error: unsupported option for log in the sandbox's git: '{arg}'", 1)
        else:
            rest.append(arg)
        k += 1
    repo = git.repo
    revs, paths = _split_paths(git, rest)
    if not revs:
        if repo.head() is None:
            name = repo.branch() or "HEAD"
            raise GitError(f"fatal: your current branch '{name}' does not have any commits yet")
        revs = ["HEAD"]
    shown = 0
    for sha in _walk(git, [git.resolve(r) for r in revs]):
        if limit is not None and shown >= limit:
            break
        if paths and not _touches(git, sha, paths):
            continue
        commit = repo.commit(sha)
        if fmt == "":
            pass
        elif fmt is not None and separator:
            git.write((("\n" if shown else "") + format_commit(git, fmt, sha, commit)).encode("utf-8", "surrogateescape"))
        elif fmt is not None:
            git.print(format_commit(git, fmt, sha, commit))
        else:
            if shown:
                git.print()
            _header(git, sha, commit)
        if patches:
            if fmt != "":
                git.print()
            git.out.extend(_commit_patch(git, commit, paths))
        shown += 1
    return 0


def _count(text: str) -> int:
    return leading_int(text)


def _commit_patch(git: Git, commit: Commit, paths: list[str]) -> list[bytes]:
    repo = git.repo
    parent = repo.commit_files(dec(commit.parents[0])) if commit.parents else {}
    return diff_states(git, parent, repo.tree_files(dec(commit.tree)), paths)


def show(git: Git, args: list[str]) -> int:
    no_patch = False
    fmt: str | None = None
    specs: list[str] = []
    for arg in split_flags(args):
        if arg in ("-s", "--no-patch"):
            no_patch = True
        elif arg == "--oneline":
            fmt = "%h %s"
        elif arg.startswith("--format=") or arg.startswith("--pretty=format:"):
            fmt = arg.split("format:", 1)[1] if arg.startswith("--pretty") else arg.split("=", 1)[1]
        elif arg.startswith("-"):
            raise GitError(f"error: unsupported option for show in the sandbox's git: '{arg}'", 1)
        else:
            specs.append(arg)
    oneline = fmt == "%h %s"
    for n, spec in enumerate(specs or ["HEAD"]):
        if ":" in spec:
            obj = git.object_at(spec)
            if obj is None:
                rev, _, path = spec.partition(":")
                raise GitError(f"fatal: path '{path}' does not exist in '{rev or 'HEAD'}'")
            if isinstance(obj, Blob):
                git.write(bytes(obj.data))
            elif isinstance(obj, Tree):
                git.print(f"tree {spec}\n")
                for item in obj.iteritems():
                    git.print(dec(item.path) + ("/" if item.mode == 0o040000 else ""))
            continue
        sha = git.resolve(spec)
        commit = git.repo.commit(sha)
        if n:
            git.print()
        if fmt == "":
            pass  # an empty format shows no header at all, not even an empty line
        elif fmt is not None:
            git.print(format_commit(git, fmt, sha, commit))
        else:
            _header(git, sha, commit)
        if not no_patch:
            body = _commit_patch(git, commit, [])
            if body and not oneline and fmt != "":
                git.print()
            git.out.extend(body)
    return 0


def diff_states(git: Git, old: dict[str, FileState], new: dict[str, FileState], paths: list[str],
                new_data: dict[str, bytes] | None = None) -> list[bytes]:
    """The patch from ``old`` to ``new`` (path -> state); ``new_data`` holds working-tree
    contents that are not blobs in the store."""
    repo = git.repo
    out: list[bytes] = []

    def side(path: str, state: FileState | None, data: dict[str, bytes] | None) -> Side | None:
        if state is None:
            return None
        raw = data[path] if data is not None and path in data else repo.blob_data(state[1])
        return Side(path, state[0], state[1], raw)

    for path in sorted(set(old) | set(new), key=lambda p: p.encode("utf-8", "surrogateescape")):
        if not matches(path, paths) or old.get(path) == new.get(path):
            continue
        a, b = old.get(path), new.get(path)
        if a is not None and b is not None and (a[0] == 0o120000) != (b[0] == 0o120000):
            out += patch(side(path, a, None), None)
            out += patch(None, side(path, b, new_data))
            continue
        out += patch(side(path, a, None), side(path, b, new_data))
    return out


def diff(git: Git, args: list[str]) -> int:
    cached = quiet = exit_code = names = statuses = False
    rest: list[str] = []
    for arg in args:
        if arg in ("--cached", "--staged"):
            cached = True
        elif arg == "--quiet":
            quiet = exit_code = True
        elif arg == "--exit-code":
            exit_code = True
        elif arg == "--name-only":
            names = True
        elif arg == "--name-status":
            statuses = True
        elif arg.startswith("-") and arg != "--":
            raise GitError(f"error: unsupported option for diff in the sandbox's git: '{arg}'", 1)
        else:
            rest.append(arg)
    repo = git.repo
    revs, paths = _split_paths(git, rest)
    work_data: dict[str, bytes] = {}
    if len(revs) == 1 and ".." in revs[0]:
        revs = revs[0].split("..", 1)
    if len(revs) >= 2:
        old = repo.commit_files(git.resolve(revs[0]))
        new = repo.commit_files(git.resolve(revs[1]))
    elif cached:
        head = repo.head() if not revs else git.resolve(revs[0])
        old, new = repo.commit_files(head), repo.index_files()
    else:
        old = repo.commit_files(git.resolve(revs[0])) if revs else repo.index_files()
        tracked = set(repo.index_files()) | (set(old) if revs else set())
        new = {}
        for path in sorted(tracked):
            got = repo.read_worktree_file(path)
            if got is not None:
                new[path], work_data[path] = got
    changed = [p for p in sorted(set(old) | set(new)) if matches(p, paths) and old.get(p) != new.get(p)]
    if quiet:
        return 1 if changed else 0
    if names or statuses:
        for path in changed:
            kind = "A" if path not in old else "D" if path not in new else "M"
            git.print(f"{kind}\t{path}" if statuses else path)
    else:
        git.out.extend(diff_states(git, old, new, paths, work_data))
    return 1 if exit_code and changed else 0
