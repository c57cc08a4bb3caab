"""The repository on disk: finding ``.git``, its objects, refs, index, config and ignores,
and the working tree's files as git sees them.

Built on dulwich's storage layer only (objects, loose and packed object store, refs, index
file, config, ignore rules): its ``Repo`` and porcelain start hooks and network clients,
which the guest has neither of. Everything here reads and writes the standard on-disk
format, so a repository made here opens with real git after the workspace is downloaded,
and one uploaded into the workspace opens here.

Paths inside the repository are ``str`` relative to the top of the working tree, with ``/``
separators (bytes only where dulwich wants them).
"""

from __future__ import annotations

import os
import stat
import time
from dataclasses import dataclass
from typing import Callable, Iterator

import dulwich.pack
from dulwich.config import ConfigFile
from dulwich.ignore import IgnoreFilterManager
from dulwich.index import Index, IndexEntry, commit_tree
from dulwich.object_store import DiskObjectStore, iter_tree_contents
from dulwich.objects import Blob, Commit, ObjectID, Tree
from dulwich.refs import DiskRefsContainer, Ref
from ... import fs, fs_os

# dulwich maps pack files with mmap when it can; the guest has no mmap (its module is a
# stand-in there), and this switch is dulwich's own way to read them into memory instead.
dulwich.pack.has_mmap = False
fs_os.install()  # dulwich's own file I/O goes through the run's backend too

ZERO = "0" * 40
DEFAULT_BRANCH = "master"
"""git 2.39's initial branch when ``init.defaultBranch`` is not configured."""

FileState = tuple[int, str]
"""A file as git records it: (mode, blob sha hex)."""


class GitError(Exception):
    """A failure reported the way git does: ``fatal:`` lines exit 128, ``error:`` lines 1."""

    def __init__(self, message: str, status: int = 128) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def enc(path: str) -> bytes:
    return path.encode("utf-8", "surrogateescape")


def dec(path: bytes) -> str:
    return path.decode("utf-8", "surrogateescape")


def oid(sha: str) -> ObjectID:
    return ObjectID(enc(sha))


def ref(name: str) -> Ref:
    return Ref(enc(name))


def blob_sha(data: bytes) -> str:
    return dec(Blob.from_string(data).id)


def mode_of(st: os.stat_result) -> int:
    if stat.S_ISLNK(st.st_mode):
        return 0o120000
    return 0o100755 if st.st_mode & 0o111 else 0o100644


ModeOf = Callable[[str, os.stat_result, "int | None"], int]
"""How a working-tree file's mode is read: (real path, its lstat, the mode the index
records or None) -> the git mode."""
SetExecutable = Callable[[str, bool], None]


@dataclass
class Identity:
    name: str
    email: str
    when: int
    tz: int
    """Offset east of UTC in seconds."""

    def line(self) -> bytes:
        return enc(f"{self.name} <{self.email}>")


class Repository:
    """One repository: ``gitdir`` is the real ``.git`` path, ``top`` the real working tree,
    ``top_virtual`` how the script sees the working tree (for messages)."""

    def __init__(self, top: str, top_virtual: str) -> None:
        self.top = top
        self.top_virtual = top_virtual
        self.gitdir = os.path.join(top, ".git")
        self.store = DiskObjectStore(os.path.join(self.gitdir, "objects"))
        self.refs = DiskRefsContainer(self.gitdir)
        self._index: Index | None = None
        self.mode_of: ModeOf = lambda _real, st, _recorded: mode_of(st)
        self.set_executable: SetExecutable = lambda real, on: fs.chmod(real, 0o755 if on else 0o644)

    def close(self) -> None:
        """Let go of the pack files the object store opened."""
        self.store.close()

    # -- creating and finding -----------------------------------------------------------
    @staticmethod
    def init(top: str, top_virtual: str, branch: str) -> tuple[Repository, bool]:
        """Make (or re-open) the repository at ``top``; True if it already existed."""
        gitdir = os.path.join(top, ".git")
        existed = fs.isfile(os.path.join(gitdir, "HEAD"))
        if not existed:
            for sub in ("objects/info", "objects/pack", "refs/heads", "refs/tags", "info"):
                fs.makedirs(os.path.join(gitdir, sub), exist_ok=True)
            with fs.open(os.path.join(gitdir, "HEAD"), "w") as head:
                head.write(f"ref: refs/heads/{branch}\n")
            with fs.open(os.path.join(gitdir, "config"), "w") as config:
                config.write("[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n"
                             "\tbare = false\n\tlogallrefupdates = true\n")
            with fs.open(os.path.join(gitdir, "description"), "w") as desc:
                desc.write("Unnamed repository; edit this file 'description' to name the repository.\n")
            with fs.open(os.path.join(gitdir, "info", "exclude"), "w") as exclude:
                exclude.write("# git ls-files --others --exclude-from=.git/info/exclude\n")
        return Repository(top, top_virtual), existed

    # -- refs ----------------------------------------------------------------------------
    def head_ref(self) -> str | None:
        """The branch HEAD names (``refs/heads/x``), or None when HEAD is detached."""
        target = self.refs.read_ref(Ref(b"HEAD"))
        if target is not None and target.startswith(b"ref: "):
            return dec(target[5:].strip())
        return None

    def branch(self) -> str | None:
        ref = self.head_ref()
        return ref[len("refs/heads/"):] if ref and ref.startswith("refs/heads/") else None

    def head(self) -> str | None:
        """The commit HEAD points at, or None before the first commit."""
        try:
            return dec(self.refs[Ref(b"HEAD")])
        except KeyError:
            return None

    def branches(self) -> list[str]:
        return sorted(dec(name) for name in self.refs.keys(base=Ref(b"refs/heads/")))

    def branch_commit(self, name: str) -> str | None:
        try:
            return dec(self.refs[ref("refs/heads/" + name)])
        except KeyError:
            return None

    def set_ref(self, name: str, sha: str) -> None:
        self.refs[ref(name)] = oid(sha)

    def delete_branch(self, name: str) -> None:
        self.refs.remove_if_equals(ref("refs/heads/" + name), None)

    def set_head_branch(self, name: str) -> None:
        self.refs.set_symbolic_ref(Ref(b"HEAD"), ref("refs/heads/" + name))

    def update_head(self, sha: str) -> None:
        """Move the current branch (or a detached HEAD) to ``sha``."""
        current = self.head_ref()
        self.set_ref(current if current is not None else "HEAD", sha)

    # -- objects -------------------------------------------------------------------------
    def commit(self, sha: str) -> Commit:
        obj = self.store[oid(sha)]
        if not isinstance(obj, Commit):
            raise GitError(f"fatal: {sha} is not a commit")
        return obj

    def object(self, sha: str) -> object:
        return self.store[oid(sha)]

    def has(self, sha: str) -> bool:
        return oid(sha) in self.store

    def add_blob(self, data: bytes) -> str:
        blob = Blob.from_string(data)
        self.store.add_object(blob)
        return dec(blob.id)

    def blob_data(self, sha: str) -> bytes:
        obj = self.store[oid(sha)]
        assert isinstance(obj, Blob)
        return bytes(obj.data)

    def tree_files(self, tree_sha: str | None) -> dict[str, FileState]:
        """Every file of a tree, by path."""
        if tree_sha is None:
            return {}
        files: dict[str, FileState] = {}
        for entry in iter_tree_contents(self.store, oid(tree_sha)):
            if entry.path is not None and entry.sha is not None and entry.mode is not None:
                files[dec(entry.path)] = (entry.mode, dec(entry.sha))
        return files

    def commit_files(self, sha: str | None) -> dict[str, FileState]:
        return {} if sha is None else self.tree_files(dec(self.commit(sha).tree))

    def write_tree(self, files: dict[str, FileState]) -> str:
        blobs = [(enc(path), oid(sha), mode) for path, (mode, sha) in sorted(files.items())]
        if not blobs:
            tree = Tree()
            self.store.add_object(tree)
            return dec(tree.id)
        return dec(commit_tree(self.store, blobs))

    def make_commit(self, tree: str, parents: list[str], author: Identity, committer: Identity,
                    message: bytes) -> str:
        commit = Commit()
        commit.tree = oid(tree)
        commit.parents = [oid(p) for p in parents]
        commit.author = author.line()
        commit.committer = committer.line()
        commit.author_time, commit.author_timezone = author.when, author.tz
        commit.commit_time, commit.commit_timezone = committer.when, committer.tz
        commit.encoding = None
        commit.message = message
        self.store.add_object(commit)
        return dec(commit.id)

    # -- the index -----------------------------------------------------------------------
    @property
    def index(self) -> Index:
        if self._index is None:
            self._index = Index(os.path.join(self.gitdir, "index"))
        return self._index

    def index_files(self) -> dict[str, FileState]:
        files: dict[str, FileState] = {}
        for path, entry in self.index.items():
            if isinstance(entry, IndexEntry):
                files[dec(path)] = (entry.mode, dec(entry.sha))
        return files

    def stage(self, path: str, state: FileState | None) -> None:
        """Put ``path`` in the index as ``state`` (None: take it out)."""
        key = enc(path)
        if state is None:
            if key in self.index:
                del self.index[key]
            return
        mode, sha = state
        real = self.real(path)
        try:
            st = fs.lstat(real)
            now = (int(st.st_ctime), 0), (int(st.st_mtime), 0)
            dev, ino, uid, gid, size = st.st_dev, st.st_ino, st.st_uid, st.st_gid, st.st_size
        except OSError:
            stamp = (int(time.time()), 0)
            now = stamp, stamp
            dev = ino = uid = gid = size = 0
        self.index[key] = IndexEntry(ctime=now[0], mtime=now[1], dev=dev & 0xFFFFFFFF,
                                     ino=ino & 0xFFFFFFFF, mode=mode, uid=uid & 0xFFFFFFFF,
                                     gid=gid & 0xFFFFFFFF, size=size & 0xFFFFFFFF, sha=oid(sha))

    def write_index(self) -> None:
        self.index.write()

    # -- the working tree ----------------------------------------------------------------
    def real(self, path: str) -> str:
        return os.path.join(self.top, *path.split("/"))

    def read_worktree_file(self, path: str) -> tuple[FileState, bytes] | None:
        """The file at ``path`` as it would be staged (and its bytes), or None if absent."""
        real = self.real(path)
        try:
            st = fs.lstat(real)
        except OSError:
            return None
        if stat.S_ISLNK(st.st_mode):
            data = os.fsencode(fs.readlink(real))
        elif stat.S_ISREG(st.st_mode):
            with fs.open(real, "rb") as handle:
                data = handle.read()
        else:
            return None
        recorded = self.index_files().get(path)
        return (self.mode_of(real, st, recorded[0] if recorded else None), blob_sha(data)), data

    def walk_worktree(self) -> Iterator[str]:
        """Every file of the working tree (``.git`` left out), sorted as git sorts paths."""
        found: list[str] = []
        for dirpath, dirnames, filenames in fs.walk(self.top):
            rel = os.path.relpath(dirpath, self.top)
            prefix = "" if rel == "." else rel.replace(os.sep, "/") + "/"
            # a symlink to a directory is recorded as the link itself, never followed
            links = [d for d in dirnames if fs.islink(os.path.join(dirpath, d))]
            dirnames[:] = [d for d in dirnames if d != ".git" and d not in links]
            for name in filenames + links:
                real = os.path.join(dirpath, name)
                if fs.isfile(real) or fs.islink(real):
                    found.append(prefix + name)
        found.sort(key=enc)
        return iter(found)

    def worktree_states(self, paths: list[str] | None = None) -> dict[str, FileState]:
        """Path -> state of the working tree's files (all, or those of ``paths``)."""
        states: dict[str, FileState] = {}
        for path in self.walk_worktree() if paths is None else paths:
            got = self.read_worktree_file(path)
            if got is not None:
                states[path] = got[0]
        return states

    def write_worktree_file(self, path: str, state: FileState) -> None:
        mode, sha = state
        real = self.real(path)
        data = self.blob_data(sha)
        parent = os.path.dirname(real)
        if fs.isfile(parent) or fs.islink(parent):
            fs.unlink(parent)
        fs.makedirs(parent, exist_ok=True)
        if fs.lexists(real) and (fs.isdir(real) and not fs.islink(real)):
            raise GitError(f"error: cannot replace directory '{path}' with a file", 1)
        if fs.lexists(real):
            fs.unlink(real)
        if mode == 0o120000:
            fs.symlink(os.fsdecode(data), real)
            return
        with fs.open(real, "wb") as handle:
            handle.write(data)
        self.set_executable(real, bool(mode & 0o111))

    def remove_worktree_file(self, path: str) -> None:
        real = self.real(path)
        try:
            fs.unlink(real)
        except OSError:
            return
        parent = os.path.dirname(real)
        while parent != self.top and parent.startswith(self.top):
            try:
                fs.rmdir(parent)
            except OSError:
                break
            parent = os.path.dirname(parent)

    # -- config and ignores --------------------------------------------------------------
    def config(self) -> ConfigFile:
        path = os.path.join(self.gitdir, "config")
        return ConfigFile.from_path(path) if fs.isfile(path) else ConfigFile()

    def ignores(self) -> IgnoreFilterManager:
        return IgnoreFilterManager(self.top, [], False)


def find_repository(start_real: str, start_virtual: str, root_real: str) -> Repository | None:
    """The repository containing ``start_real`` (looking upwards, never above the
    workspace root), or None."""
    real, virtual = start_real, start_virtual
    while True:
        if fs.isfile(os.path.join(real, ".git", "HEAD")):
            return Repository(real, virtual)
        if os.path.normpath(real) == os.path.normpath(root_real) or virtual in ("", "/"):
            return None
        real, virtual = os.path.dirname(real), os.path.dirname(virtual.rstrip("/")) or "/"
